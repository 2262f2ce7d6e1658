/**
 * What a break says happened behind the API's back: a row's content no longer matches its hash,
 * or a kept record no longer matches its entry (`edited`); an entry or a record it speaks of is
 * missing (`removed`); a row is where no append put one, or a record no entry speaks of
 * (`inserted`).
 */
export type ChainProblem = 'edited' | 'removed' | 'inserted';

export interface ChainBreak {
  /** The entry concerned; null for a record that no entry speaks of. */
  seq: number | null;
  problem: ChainProblem;
  detail: string;
}

/** Breaks listed per store, at most; `brokenCount` counts them all. */
export const MAX_BREAKS_LISTED = 100;

/** Collects a store's breaks: all of them counted, the first MAX_BREAKS_LISTED kept. */
export class BreakList {
  readonly listed: ChainBreak[] = [];
  count = 0;

  add(seq: number | null, problem: ChainProblem, detail: string): void {
    this.count += 1;
    if (this.listed.length < MAX_BREAKS_LISTED) this.listed.push({ seq, problem, detail });
  }
}

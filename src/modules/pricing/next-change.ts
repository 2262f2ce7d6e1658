import { fromPercentageList, isValidAt, type ListFacts, type PricingFacts, type Resolution, resolveFrom, rulesOfSet, sameWinner } from './price-resolution.js';
import { type HeapEntry, RuleHeap } from './rule-heap.js';

/** A rule of one set in the sweep: its heap entry, and which set's heap it goes in. */
interface SweptRule extends HeapEntry {
  set: number;
}

/**
 * The earliest moment after `at` at which resolving `quantity` units again gives another answer
 * than at `at` (another price, source or winning record), or null when no bound does. Between
 * two consecutive window bounds nothing changes, so only the bounds are tried: in one pass over
 * them in time order, keeping each set's applicable rules in a heap (`RuleHeap`), so the winner
 * of every set is known at each bound without looking at the other rules again. O(N log N) for
 * N rules, where resolving again at every bound would be O(N²).
 *
 * Two answers differ exactly when what wins differs (a record, a percentage list, the catalog):
 * each record has its own id, so that is what is compared (`sameWinner`), and each has one price,
 * so a `lowest` list's offer wins or loses the same way all the while its winner stays. A rule whose break is above
 * `quantity` never wins, so its bounds cannot change the answer and are left out. A bound
 * shared by several rules is tried once, after all of them have moved.
 */
export function nextChangeAt(facts: PricingFacts, quantity: number, at: string): string | null {
  const sets = facts.lists.length + 1;
  const heaps = Array.from({ length: sets }, () => new RuleHeap());
  const opening: SweptRule[] = [];
  const closing: SweptRule[] = [];
  for (let set = facts.trade ? 0 : 1; set < sets; set++) {
    for (const rule of rulesOfSet(facts, set)) {
      if (rule.minQuantity > quantity || (rule.validUntil !== null && rule.validUntil <= at)) continue;
      const swept: SweptRule = { rule, closed: false, set };
      if (isValidAt(rule, at)) heaps[set]!.push(swept);
      else opening.push(swept);
      if (rule.validUntil !== null) closing.push(swept);
    }
  }
  // Rules not valid at `at` but not yet ended all open later: validFrom is set.
  opening.sort((a, b) => compareText(a.rule.validFrom!, b.rule.validFrom!));
  closing.sort((a, b) => compareText(a.rule.validUntil!, b.rule.validUntil!));

  // A percentage list's price does not change along the sweep: worked out once, not at every bound.
  const percentages = new Map<ListFacts, Resolution>();
  const percentage = (list: ListFacts): Resolution => {
    let price = percentages.get(list);
    if (price === undefined) percentages.set(list, (price = fromPercentageList(facts, list)));
    return price;
  };
  const resolution = () => resolveFrom(facts, (set) => heaps[set]!.best(), percentage);
  const current = resolution();
  let opened = 0;
  let closed = 0;
  while (opened < opening.length || closed < closing.length) {
    const nextOpen = opening[opened]?.rule.validFrom;
    const nextClose = closing[closed]?.rule.validUntil;
    const moment = nextClose === undefined || (nextOpen !== undefined && nextOpen! < nextClose!) ? nextOpen! : nextClose!;
    for (; opened < opening.length && opening[opened]!.rule.validFrom === moment; opened++) heaps[opening[opened]!.set]!.push(opening[opened]!);
    for (; closed < closing.length && closing[closed]!.rule.validUntil === moment; closed++) closing[closed]!.closed = true;
    if (!sameWinner(resolution(), current)) return moment;
  }
  return null;
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

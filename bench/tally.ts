import type { LoadResult } from './load-spec.js';

/**
 * One scenario's slices over the rounds. Ours and its ceiling run in turn, round after round,
 * so the load other processes put on the machine weighs on both alike.
 */
export class Tally {
  private ok = 0;
  private seconds = 0;
  private readonly p50s: number[] = [];
  private readonly p99s: number[] = [];

  add(result: LoadResult): void {
    this.ok += result.ok;
    this.seconds += result.seconds;
    this.p50s.push(result.p50Ms);
    this.p99s.push(result.p99Ms);
  }

  /** Successful requests per second over every slice. */
  perSecond(): number {
    return this.seconds === 0 ? 0 : this.ok / this.seconds;
  }

  /** Median over the slices of each slice's percentile, milliseconds. */
  p50Ms(): number {
    return median(this.p50s);
  }

  p99Ms(): number {
    return median(this.p99s);
  }
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return 0;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

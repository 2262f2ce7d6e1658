import { outranks, type PriceRule } from './price-resolution.js';

/** A rule in a heap, closed once its window has ended (removed lazily, when it comes to the top). */
export interface HeapEntry {
  rule: PriceRule;
  closed: boolean;
}

/**
 * The rules of one set that apply at the moment a sweep has reached, best first (the highest
 * break, then the newest record): push and pop in O(log n). A closed entry stays until it
 * reaches the top, where `best` drops it; each entry is pushed and dropped at most once.
 */
export class RuleHeap {
  private readonly entries: HeapEntry[] = [];

  push(entry: HeapEntry): void {
    const entries = this.entries;
    entries.push(entry);
    let index = entries.length - 1;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      if (!outranks(entry.rule, entries[parent]!.rule)) break;
      entries[index] = entries[parent]!;
      index = parent;
    }
    entries[index] = entry;
  }

  /** The best open rule, or undefined when none is open. */
  best(): PriceRule | undefined {
    while (this.entries.length > 0 && this.entries[0]!.closed) this.popTop();
    return this.entries[0]?.rule;
  }

  private popTop(): void {
    const entries = this.entries;
    const last = entries.pop()!;
    if (entries.length === 0) return;
    let index = 0;
    for (;;) {
      const left = 2 * index + 1;
      if (left >= entries.length) break;
      const right = left + 1;
      const child = right < entries.length && outranks(entries[right]!.rule, entries[left]!.rule) ? right : left;
      if (!outranks(entries[child]!.rule, last.rule)) break;
      entries[index] = entries[child]!;
      index = child;
    }
    entries[index] = last;
  }
}

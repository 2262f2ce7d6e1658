import { isValidAt, keyOf, type PricingFacts, resolveFrom, rulesOfSet } from './price-resolution.js';
import { type HeapEntry, RuleHeap } from './rule-heap.js';

/** A window bound after the moment asked about: a rule starts or stops applying then. */
interface Bound {
  at: string;
  set: number;
  entry: HeapEntry;
  opens: boolean;
}

/**
 * The earliest moment after `at` at which resolving `quantity` units again gives another answer
 * than `current` (`keyOf` the answer at `at`), or null when no bound does. Between two
 * consecutive window bounds nothing changes, so only the bounds are tried: in one pass over them
 * in time order, keeping each set's applicable rules in a heap (`RuleHeap`), so the winner of
 * every set is known at each bound without looking at the other rules again. O(N log N) for N
 * rules, where trying every bound with the whole rule would be O(N²).
 *
 * A rule whose break is above `quantity` never wins, so its bounds cannot change the answer and
 * are left out. A bound shared by several rules is tried once, after all of them have moved.
 */
export function nextChangeAt(facts: PricingFacts, quantity: number, at: string, current: string): string | null {
  const sets = facts.lists.length + 1;
  const heaps = Array.from({ length: sets }, () => new RuleHeap());
  const bounds: Bound[] = [];
  for (let set = facts.trade ? 0 : 1; set < sets; set++) {
    for (const rule of rulesOfSet(facts, set)) {
      if (rule.minQuantity > quantity || (rule.validUntil !== null && rule.validUntil <= at)) continue;
      const entry: HeapEntry = { rule, closed: false };
      if (isValidAt(rule, at)) heaps[set]!.push(entry);
      else bounds.push({ at: rule.validFrom!, set, entry, opens: true });
      if (rule.validUntil !== null) bounds.push({ at: rule.validUntil, set, entry, opens: false });
    }
  }
  bounds.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
  for (let index = 0; index < bounds.length; ) {
    const moment = bounds[index]!.at;
    for (; index < bounds.length && bounds[index]!.at === moment; index++) {
      const bound = bounds[index]!;
      if (bound.opens) heaps[bound.set]!.push(bound.entry);
      else bound.entry.closed = true;
    }
    if (keyOf(resolveFrom(facts, (set) => heaps[set]!.best())) !== current) return moment;
  }
  return null;
}

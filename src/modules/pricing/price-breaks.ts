import { isValidAt, type PriceRule, type PricingFacts, type Resolution, resolveFrom, rulesOfSet } from './price-resolution.js';

/** One set's rules that can win at a moment: the newest of each break, by break ascending. */
interface SetBreaks {
  minQuantities: number[];
  winners: PriceRule[];
}

/**
 * The rule of `facts` at moment `at` for any quantity, worked out once: for each set (the trade
 * prices, each fixed list) the newest record valid at `at` of each quantity break, sorted by
 * break. A line of Q units then takes, in each set, the highest break ≤ Q (a binary search):
 * the highest break wins first, and within it the newest record. O(N log N) once for N rules,
 * then O(L log B) a line for L lists and B breaks, so a quote of 1000 lines of one SKU does the
 * SKU's work once. Gives what `resolvePrice(facts, quantity, at)` gives.
 */
export function priceBreaks(facts: PricingFacts, at: string): (quantity: number) => Resolution {
  const sets: SetBreaks[] = [];
  for (let set = 0; set <= facts.lists.length; set++) sets.push(breaksOf(rulesOfSet(facts, set), at));
  return (quantity) => resolveFrom(facts, (set) => winnerFor(sets[set]!, quantity));
}

function breaksOf(rules: readonly PriceRule[], at: string): SetBreaks {
  const newest = new Map<number, PriceRule>();
  for (const rule of rules) {
    if (!isValidAt(rule, at)) continue;
    const held = newest.get(rule.minQuantity);
    if (held === undefined || rule.id > held.id) newest.set(rule.minQuantity, rule);
  }
  const winners = [...newest.values()].sort((a, b) => a.minQuantity - b.minQuantity);
  return { minQuantities: winners.map((rule) => rule.minQuantity), winners };
}

/** The winner of the highest break not above `quantity`, or undefined when every break is above it. */
function winnerFor(breaks: SetBreaks, quantity: number): PriceRule | undefined {
  let low = 0;
  let high = breaks.minQuantities.length;
  // The first break above `quantity` is at `low` once the search ends.
  while (low < high) {
    const middle = (low + high) >> 1;
    if (breaks.minQuantities[middle]! <= quantity) low = middle + 1;
    else high = middle;
  }
  return low === 0 ? undefined : breaks.winners[low - 1];
}

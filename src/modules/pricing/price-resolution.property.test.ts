import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { explainPrice } from './explain-price.js';
import { nextChangeAt } from './next-change.js';
import { priceBreaks } from './price-breaks.js';
import type { Rounding } from '../currency/rounding.js';
import { type ListFacts, type PriceRule, type PricingFacts, type Resolution, resolvePrice } from './price-resolution.js';

/**
 * The fast ways of applying the rule give exactly what the plain rule gives, on random rule
 * sets: `nextChangeAt` (one sweep over the sorted window bounds) against the definition it
 * replaced (resolve again at every bound), `priceBreaks` (a SKU's winners picked once for every
 * line) against `resolvePrice`, and paged candidates against one page of all of them. The run's
 * property seed (printed at the start) drives the random choices;
 * PRICEBOOK_PROPERTY_SEED=N npx vitest run src/modules/pricing/price-resolution.property.test.ts
 * repeats them.
 */
/** The run's seed, set for every property by test/support/property-seed.ts. */
const seed = fc.readConfigureGlobal().seed;
const RUNS = 400;

/** Moments are whole hours from here: few enough that bounds often coincide with each other and with `at`. */
const REFERENCE = Date.parse('2030-01-01T00:00:00.000Z');
const momentOf = (hours: number) => new Date(REFERENCE + hours * 3_600_000).toISOString();

/** What told two answers apart in that definition: price, source and the winning record, list and entry. */
function keyOf(resolution: Resolution): string {
  return `${resolution.source}:${resolution.priceUnits}:${resolution.tradePriceId}:${resolution.priceListId}:${resolution.priceListPriceId}`;
}

/**
 * The definition `nextChangeAt` replaced, kept as the reference: between two consecutive bounds
 * of the rules the answer cannot change, so the first bound after `at` where resolving again
 * gives another answer is the next change. O(N) resolutions of O(N) each.
 */
function nextChangeByDefinition(facts: PricingFacts, quantity: number, at: string): string | null {
  const current = keyOf(resolvePrice(facts, quantity, at));
  const rules = [...(facts.trade ? facts.tradeRules : []), ...facts.lists.flatMap((list) => list.rules)];
  const bounds = new Set<string>();
  for (const rule of rules) {
    if (rule.validFrom !== null && rule.validFrom > at) bounds.add(rule.validFrom);
    if (rule.validUntil !== null && rule.validUntil > at) bounds.add(rule.validUntil);
  }
  for (const bound of [...bounds].sort()) {
    if (keyOf(resolvePrice(facts, quantity, bound)) !== current) return bound;
  }
  return null;
}

const window = fc
  .tuple(fc.option(fc.integer({ min: 0, max: 12 }), { nil: null, freq: 3 }), fc.option(fc.integer({ min: 0, max: 12 }), { nil: null, freq: 3 }))
  .map(([from, until]) => {
    // A window ends after it starts: two bounds are put in order, equal ones leave it open-ended.
    if (from !== null && until !== null && from >= until) return from === until ? { from, until: null } : { from: until, until: from };
    return { from, until };
  });
const ruleSpec = fc.record({ units: fc.integer({ min: 0, max: 50 }), minQuantity: fc.constantFrom(1, 1, 2, 5, 10), window });
/** Rules of one set; ids are unique within it, and given out of order (the rule takes them in any order). */
const ruleSet = (maxLength: number) =>
  fc.array(ruleSpec, { maxLength }).chain((specs) =>
    fc.shuffledSubarray(
      specs.map((spec, index): PriceRule => ({
        id: index + 1,
        priceUnits: spec.units * 1000,
        minQuantity: spec.minQuantity,
        validFrom: spec.window.from === null ? null : momentOf(spec.window.from),
        validUntil: spec.window.until === null ? null : momentOf(spec.window.until),
      })),
      { minLength: specs.length, maxLength: specs.length },
    ),
  );
/** One list in three stands aside from the walk and is paid when lower (`lowest`). */
const policy = fc.constantFrom<ListFacts['policy']>('first', 'first', 'lowest');
/** Roundings to the unit of 4 decimals, to the penny, to 0.05 and to whole units, each mode. */
const rounding: fc.Arbitrary<Rounding> = fc.record({
  incrementUnits: fc.constantFrom(1, 100, 500, 10_000),
  mode: fc.constantFrom('half-up' as const, 'up' as const, 'down' as const),
});
const list = fc.oneof(
  {
    arbitrary: fc
      .tuple(ruleSet(8), policy, rounding)
      .map(([rules, policy, rounding]): ListFacts => ({ id: 0, kind: 'fixed', percentageUnits: null, policy, rounding, rules })),
    weight: 3,
  },
  {
    arbitrary: fc
      .tuple(fc.integer({ min: 0, max: 1_000_000 }), policy, rounding)
      .map(([percentageUnits, policy, rounding]): ListFacts => ({ id: 0, kind: 'percentage', percentageUnits, policy, rounding, rules: [] })),
    weight: 1,
  },
);
const factsArbitrary: fc.Arbitrary<PricingFacts> = fc.record({
  trade: fc.boolean(),
  tradeRules: ruleSet(12),
  // A customer's lists are distinct lists.
  lists: fc.array(list, { maxLength: 3 }).map((lists) => lists.map((facts, position) => ({ ...facts, id: 10 + position }))),
  productPriceUnits: fc.integer({ min: 0, max: 200_000 }),
  variationPriceUnits: fc.option(fc.integer({ min: 0, max: 200_000 }), { nil: null }),
});
const quantityArbitrary = fc.integer({ min: 1, max: 12 });
const atArbitrary = fc.integer({ min: -1, max: 13 }).map(momentOf);

describe(`the rule's fast paths against its definition (property seed ${seed})`, () => {
  it('nextChangeAt in one sweep finds the same moment as resolving again at every bound', () => {
    fc.assert(
      fc.property(factsArbitrary, quantityArbitrary, atArbitrary, (facts, quantity, at) => {
        expect(nextChangeAt(facts, quantity, at)).toBe(nextChangeByDefinition(facts, quantity, at));
      }),
      { numRuns: RUNS },
    );
  });

  it('priceBreaks prices every quantity as resolvePrice does', () => {
    fc.assert(
      fc.property(factsArbitrary, atArbitrary, fc.array(quantityArbitrary, { minLength: 1, maxLength: 20 }), (facts, at, quantities) => {
        const pricer = priceBreaks(facts, at);
        for (const quantity of quantities) expect(pricer(quantity)).toEqual(resolvePrice(facts, quantity, at));
      }),
      { numRuns: RUNS },
    );
  });

  it('pages of candidates put together are the whole list, counted; the shadowed trade prices are all there', () => {
    fc.assert(
      fc.property(factsArbitrary, quantityArbitrary, atArbitrary, fc.integer({ min: 1, max: 7 }), (facts, quantity, at, pageSize) => {
        const whole = explainPrice(facts, quantity, at, { offset: 0, count: 10_000 });
        const expectedCount = facts.tradeRules.length + facts.lists.reduce((sum, list) => sum + (list.kind === 'percentage' ? 1 : list.rules.length), 0);
        expect(whole.candidateCount).toBe(expectedCount);
        expect(whole.candidates).toHaveLength(expectedCount);
        const paged = [];
        for (let offset = 0; offset < expectedCount + pageSize; offset += pageSize) {
          const page = explainPrice(facts, quantity, at, { offset, count: pageSize });
          expect(page.candidateCount).toBe(expectedCount);
          expect(page.candidates.length).toBe(Math.max(0, Math.min(pageSize, expectedCount - offset)));
          paged.push(...page.candidates);
        }
        expect(paged).toEqual(whole.candidates);
        const tradeIds = facts.tradeRules.map((rule) => rule.id).sort((a, b) => b - a);
        expect(whole.shadowedTradePriceIds).toEqual(tradeIds.filter((id) => id !== whole.tradePriceId));
        expect(whole.candidates.filter((candidate) => candidate.applies)).toHaveLength(whole.source === 'trade' || whole.priceListId !== null ? 1 : 0);
      }),
      { numRuns: RUNS },
    );
  });

  it('finds the next change among 20 000 dated records in well under a second', () => {
    // A newer undated price wins throughout: every one of the 40 000 bounds is tried, and none changes the answer.
    const tradeRules: PriceRule[] = Array.from({ length: 20_000 }, (_, index) => ({
      id: index + 1,
      priceUnits: 10_000,
      minQuantity: 1,
      validFrom: momentOf(24 * index),
      validUntil: momentOf(24 * index + 12),
    }));
    tradeRules.push({ id: 20_001, priceUnits: 20_000, minQuantity: 1, validFrom: null, validUntil: null });
    // A lowest-price percentage list is weighed at every bound too (10 % off 5.00: 4.50, above the trade price).
    const lists: ListFacts[] = [
      { id: 9, kind: 'percentage', percentageUnits: 100_000, policy: 'lowest', rounding: { incrementUnits: 100, mode: 'half-up' }, rules: [] },
    ];
    const facts: PricingFacts = { trade: true, tradeRules, lists, productPriceUnits: 50_000, variationPriceUnits: null };
    const started = performance.now();
    const explained = explainPrice(facts, 1, momentOf(-1), { offset: 0, count: 100 });
    const ms = performance.now() - started;
    expect(explained).toMatchObject({ tradePriceId: 20_001, nextChangeAt: null, candidateCount: 20_002 });
    expect(explained.candidates).toHaveLength(100);
    expect(explained.shadowedTradePriceIds).toHaveLength(20_000);
    expect(ms).toBeLessThan(1000);
  });
});

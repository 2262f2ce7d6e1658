import { describe, expect, it } from 'vitest';
import { explainPrice as explainPage } from './explain-price.js';
import { type ListFacts, type PriceRule, type PricingFacts, resolvePrice } from './price-resolution.js';

/** Every candidate on one page. */
const explainPrice = (facts: PricingFacts, quantity: number, at: string) => explainPage(facts, quantity, at, { offset: 0, count: 1000 });

const NOW = '2026-11-24T12:00:00.000Z';
const LATER = '2026-12-01T00:00:00.000Z';
const EARLIER = '2026-11-01T00:00:00.000Z';

/** Prices in units: 10.0000 is 100 000. */
function rule(id: number, priceUnits: number, extra: Partial<PriceRule> = {}): PriceRule {
  return { id, priceUnits, minQuantity: 1, validFrom: null, validUntil: null, ...extra };
}

/** A GBP store's rounding, which a list without its own takes: to the penny, half-up. */
const PENNY = { incrementUnits: 100, mode: 'half-up' } as const;

function facts(extra: Partial<PricingFacts> = {}): PricingFacts {
  return { trade: true, tradeRules: [], lists: [], productPriceUnits: 200_000, variationPriceUnits: null, ...extra };
}

function fixed(id: number, rules: PriceRule[], policy: ListFacts['policy'] = 'first'): ListFacts {
  return { id, kind: 'fixed', percentageUnits: null, policy, rounding: PENNY, rules };
}

function percentage(id: number, percentageUnits: number, policy: ListFacts['policy'] = 'first'): ListFacts {
  return { id, kind: 'percentage', percentageUnits, policy, rounding: PENNY, rules: [] };
}

describe('the resolution rule', () => {
  it('falls back to the variation’s price, then the product’s', () => {
    expect(resolvePrice(facts(), 1, NOW)).toMatchObject({ source: 'product', priceUnits: 200_000, tradePriceId: null, priceListId: null });
    expect(resolvePrice(facts({ variationPriceUnits: 150_000 }), 1, NOW)).toMatchObject({ source: 'variation', priceUnits: 150_000 });
  });

  it('takes the newest of equal trade prices, as the interface’s records always did', () => {
    const resolution = explainPrice(facts({ tradeRules: [rule(1, 90_000), rule(3, 70_000), rule(2, 80_000)] }), 1, NOW);
    expect(resolution).toMatchObject({
      source: 'trade',
      tradePriceId: 3,
      priceUnits: 70_000,
      shadowedTradePriceIds: [2, 1],
      nextChangeAt: null,
      validUntil: null,
    });
    expect(resolution.candidates.map((c) => [c.tradePriceId, c.applies, c.reason])).toEqual([
      [3, true, null],
      [2, false, 'newer record wins'],
      [1, false, 'newer record wins'],
    ]);
  });

  it('takes the highest quantity break the line reaches, before a newer lower one', () => {
    const rules = [rule(1, 100_000), rule(2, 90_000, { minQuantity: 10 }), rule(3, 80_000, { minQuantity: 100 }), rule(4, 95_000)];
    expect(resolvePrice(facts({ tradeRules: rules }), 9, NOW)).toMatchObject({ tradePriceId: 4 });
    expect(resolvePrice(facts({ tradeRules: rules }), 10, NOW)).toMatchObject({ tradePriceId: 2 });
    const at100 = explainPrice(facts({ tradeRules: rules }), 100, NOW);
    expect(at100.tradePriceId).toBe(3);
    expect(at100.candidates.map((c) => [c.tradePriceId, c.reason])).toEqual([
      [4, 'higher quantity break wins'],
      [3, null],
      [2, 'higher quantity break wins'],
      [1, 'higher quantity break wins'],
    ]);
    expect(explainPrice(facts({ tradeRules: rules }), 50, NOW).candidates.find((c) => c.tradePriceId === 3)?.reason).toBe('below minimum quantity 100');
  });

  it('applies a price from validFrom (inclusive) until validUntil (exclusive), and says when that changes', () => {
    const dated = rule(2, 50_000, { validFrom: NOW, validUntil: LATER });
    const tradeRules = [rule(1, 100_000), dated];
    expect(resolvePrice(facts({ tradeRules }), 1, EARLIER)).toMatchObject({ tradePriceId: 1 });
    expect(resolvePrice(facts({ tradeRules }), 1, NOW)).toMatchObject({ tradePriceId: 2, validUntil: LATER });
    expect(resolvePrice(facts({ tradeRules }), 1, LATER)).toMatchObject({ tradePriceId: 1 });

    const before = explainPrice(facts({ tradeRules }), 1, EARLIER);
    expect(before.nextChangeAt).toBe(NOW);
    expect(before.candidates.find((c) => c.tradePriceId === 2)?.reason).toBe(`not valid until ${NOW}`);
    expect(explainPrice(facts({ tradeRules }), 1, NOW).nextChangeAt).toBe(LATER);
    const after = explainPrice(facts({ tradeRules }), 1, LATER);
    expect(after.nextChangeAt).toBeNull();
    expect(after.candidates.find((c) => c.tradePriceId === 2)?.reason).toBe(`expired ${LATER}`);
  });

  it('does not report a bound where nothing changes as the next change', () => {
    // A newer undated price wins before, during and after the window of an older one.
    const tradeRules = [rule(1, 50_000, { validFrom: NOW, validUntil: LATER }), rule(2, 100_000)];
    expect(explainPrice(facts({ tradeRules }), 1, EARLIER).nextChangeAt).toBeNull();
  });

  it('ignores trade prices while the customer is not a trade customer, and says so', () => {
    const explained = explainPrice(facts({ trade: false, tradeRules: [rule(1, 10_000)] }), 1, NOW);
    expect(explained).toMatchObject({ source: 'product', tradePriceId: null, shadowedTradePriceIds: [1] });
    expect(explained.candidates).toEqual([expect.objectContaining({ tradePriceId: 1, applies: false, reason: 'customer is not a trade customer' })]);
  });

  it('reads the customer’s lists in order: the first that prices the SKU wins', () => {
    const lists = [fixed(10, [rule(100, 90_000, { minQuantity: 5 })]), fixed(11, [rule(101, 80_000)]), percentage(12, 100_000)];
    expect(resolvePrice(facts({ lists }), 5, NOW)).toMatchObject({ source: 'price_list', priceListId: 10, priceListPriceId: 100, priceUnits: 90_000 });
    const explained = explainPrice(facts({ lists }), 1, NOW);
    expect(explained).toMatchObject({ source: 'price_list', priceListId: 11, priceListPriceId: 101 });
    expect(explained.candidates.map((c) => [c.priceListId, c.priceListPriceId, c.applies, c.reason])).toEqual([
      [10, 100, false, 'below minimum quantity 5'],
      [11, 101, true, null],
      [12, null, false, 'earlier price list wins'],
    ]);
  });

  it('lets a percentage list win where it comes first, and a trade price win over every list', () => {
    const lists = [percentage(12, 125_000), fixed(11, [rule(101, 80_000)])];
    // 12.5 % off 20.0000 is 17.5000.
    expect(resolvePrice(facts({ lists }), 1, NOW)).toMatchObject({ source: 'price_list', priceListId: 12, priceListPriceId: null, priceUnits: 175_000 });
    const explained = explainPrice(facts({ lists, tradeRules: [rule(1, 99_000)] }), 1, NOW);
    expect(explained).toMatchObject({ source: 'trade', tradePriceId: 1 });
    expect(explained.candidates.filter((c) => c.source === 'price_list').map((c) => c.reason)).toEqual(['trade price wins', 'trade price wins']);
  });

  describe('a list of the policy lowest', () => {
    const sale = (rules: PriceRule[]) => fixed(20, rules, 'lowest');

    it('takes no turn in the walk, and is paid when it is lower than what the walk picks, a trade price included', () => {
      // The walk reaches list 11 (9.0000); the sale's 8.5000 is lower.
      const lists = [sale([rule(200, 85_000)]), fixed(11, [rule(101, 90_000)])];
      expect(resolvePrice(facts({ lists }), 1, NOW)).toMatchObject({ source: 'price_list', priceListId: 20, priceListPriceId: 200, priceUnits: 85_000 });
      const explained = explainPrice(facts({ lists, tradeRules: [rule(1, 80_000)] }), 1, NOW);
      expect(explained).toMatchObject({ source: 'trade', tradePriceId: 1, priceUnits: 80_000 });
      expect(explained.candidates.map((c) => [c.tradePriceId ?? c.priceListPriceId, c.applies, c.reason])).toEqual([
        [1, true, null],
        [200, false, 'lower price wins'],
        [101, false, 'trade price wins'],
      ]);
      const saleWins = explainPrice(facts({ lists, tradeRules: [rule(1, 95_000)] }), 1, NOW);
      expect(saleWins).toMatchObject({ source: 'price_list', priceListId: 20, priceListPriceId: 200, priceUnits: 85_000, shadowedTradePriceIds: [1] });
      expect(saleWins.candidates.map((c) => [c.tradePriceId ?? c.priceListPriceId, c.applies, c.reason])).toEqual([
        [1, false, 'lower price wins'],
        [200, true, null],
        [101, false, 'trade price wins'],
      ]);
    });

    it('loses a tie to what the walk picks, and to an earlier lowest list', () => {
      const tie = explainPrice(facts({ lists: [sale([rule(200, 200_000)])] }), 1, NOW);
      expect(tie).toMatchObject({ source: 'product', priceUnits: 200_000 });
      expect(tie.candidates.map((c) => c.reason)).toEqual(["same price: the rule's own pick stays"]);
      const two = explainPrice(facts({ lists: [percentage(21, 100_000, 'lowest'), sale([rule(200, 180_000)])] }), 1, NOW);
      expect(two).toMatchObject({ source: 'price_list', priceListId: 21, priceUnits: 180_000 });
      expect(two.candidates.map((c) => [c.priceListId, c.applies, c.reason])).toEqual([
        [21, true, null],
        [20, false, 'same price: an earlier lowest-price list wins'],
      ]);
    });

    it('weighs its entry by the tie rule (break, then newest) for the quantity and the moment, and says when it stops', () => {
      const lists = [sale([rule(200, 150_000, { minQuantity: 10 }), rule(201, 190_000, { validUntil: LATER }), rule(202, 100_000, { validFrom: LATER })])];
      expect(resolvePrice(facts({ lists }), 1, NOW)).toMatchObject({ priceListPriceId: 201, priceUnits: 190_000, validUntil: LATER });
      expect(resolvePrice(facts({ lists }), 10, NOW)).toMatchObject({ priceListPriceId: 200, priceUnits: 150_000 });
      expect(resolvePrice(facts({ lists }), 1, LATER)).toMatchObject({ priceListPriceId: 202, priceUnits: 100_000 });
      // At NOW one unit pays the sale's 19.0000 until LATER, when 10.0000 takes over.
      expect(explainPrice(facts({ lists }), 1, NOW).nextChangeAt).toBe(LATER);
      expect(resolvePrice(facts({ lists }), 1, EARLIER)).toMatchObject({ priceListPriceId: 201 });
    });
  });

  it('takes a percentage off the variation’s own price when it has one', () => {
    expect(resolvePrice(facts({ variationPriceUnits: 100_000, lists: [percentage(1, 100_000)] }), 1, NOW).priceUnits).toBe(90_000);
  });

  it("rounds a percentage list's price to the store's minor unit, or by the list's own rounding, and keeps the amount before it", () => {
    // 12.5 % off 19.99 is 17.49125: 17.49 to the penny, half-up; 17.50 up to 0.05.
    const lists = [percentage(1, 125_000)];
    expect(resolvePrice(facts({ productPriceUnits: 199_900, lists }), 1, NOW)).toMatchObject({ priceUnits: 174_900, unroundedPriceUnits: 174_913 });
    const nickel: ListFacts = { ...percentage(1, 125_000), rounding: { incrementUnits: 500, mode: 'up' } };
    expect(resolvePrice(facts({ productPriceUnits: 199_900, lists: [nickel] }), 1, NOW)).toMatchObject({ priceUnits: 175_000, unroundedPriceUnits: 174_913 });
    const explained = explainPrice(facts({ productPriceUnits: 199_900, lists: [nickel] }), 1, NOW);
    expect(explained.candidates).toEqual([expect.objectContaining({ price: 17.5, unroundedPrice: 17.4913, applies: true })]);
    expect(resolvePrice(facts({ tradeRules: [rule(1, 12_345)] }), 1, NOW)).toMatchObject({ priceUnits: 12_345, unroundedPriceUnits: null });
    // Never above the catalog price: 10 % off 0.50 rounded up to a whole unit would be 1.
    const whole: ListFacts = { ...percentage(1, 100_000), rounding: { incrementUnits: 10_000, mode: 'up' } };
    expect(resolvePrice(facts({ productPriceUnits: 5_000, lists: [whole] }), 1, NOW)).toMatchObject({ priceUnits: 5_000, unroundedPriceUnits: 4_500 });
  });
});

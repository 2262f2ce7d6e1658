import { describe, expect, it } from 'vitest';
import type { TradePrice } from '../../contract/trade-prices.js';
import { diffPrices } from './price-diff.js';
import type { NewTradePrice } from './trade-price-repository.js';

const base: NewTradePrice = { customerId: 1, productId: 10, sku: 'A', price: 5, minQuantity: 1, validFrom: null, validUntil: null };
const record = (id: number, fields: Partial<NewTradePrice> = {}): TradePrice => ({ id, ...base, ...fields, createdAt: '2026-01-01T00:00:00.000Z' });

describe('diffPrices', () => {
  it('keeps equal records with their ids, creates the new, removes the rest', () => {
    const existing = [record(3, { sku: 'B' }), record(1), record(2, { price: 6 })];
    const desired = [{ ...base, price: 7 }, base, { ...base, sku: 'B' }];
    const diff = diffPrices(existing, desired);
    expect(diff.unchanged.map((r) => r.id)).toEqual([1, 3]);
    expect(diff.create).toEqual([{ ...base, price: 7 }]);
    expect(diff.remove.map((r) => r.id)).toEqual([2]);
  });

  it('matches one record to one price: duplicates are counted, the oldest kept', () => {
    const existing = [record(5), record(4), record(6)];
    expect(diffPrices(existing, [base, base])).toMatchObject({ unchanged: [{ id: 4 }, { id: 5 }], remove: [{ id: 6 }], create: [] });
    expect(diffPrices([record(1)], [base, base, base])).toMatchObject({ unchanged: [{ id: 1 }], create: [base, base] });
  });

  it('tells apart every field a client sets', () => {
    const variants: Array<Partial<NewTradePrice>> = [
      { productId: 11 },
      { sku: 'a' },
      { price: 5.0001 },
      { minQuantity: 2 },
      { validFrom: '2026-01-01T00:00:00.000Z' },
      { validUntil: '2027-01-01T00:00:00.000Z' },
    ];
    for (const variant of variants) {
      expect(diffPrices([record(1)], [{ ...base, ...variant }])).toMatchObject({ unchanged: [], create: [{ ...base, ...variant }], remove: [{ id: 1 }] });
    }
    expect(diffPrices([record(1, { price: 12.5 })], [{ ...base, price: 12.5 }]).unchanged).toHaveLength(1);
  });

  it('compares prices in ten-thousandths, as they are stored: 12.5 is 12.50000001, not 12.5001', () => {
    // Below a ten-thousandth, two prices are one stored price: replacing one with the other
    // would delete a record and create its copy. (Validation refuses more than 4 places, so
    // such a difference only comes from arithmetic on doubles, like 0.1 + 0.2.)
    const sameStored: Array<[number, number]> = [
      [12.5, 12.50000001],
      [12.5, 12.49999999],
      [0.3, 0.1 + 0.2],
    ];
    for (const [stored, sent] of sameStored) {
      expect(sent).not.toBe(stored);
      expect(diffPrices([record(1, { price: stored })], [{ ...base, price: sent }])).toMatchObject({
        unchanged: [{ id: 1, price: stored }],
        create: [],
        remove: [],
      });
    }
    // A ten-thousandth apart is another price, either way.
    for (const [stored, sent] of [
      [12.5, 12.5001],
      [12.5001, 12.5],
      [12.5, 12.4999],
    ] as const) {
      expect(diffPrices([record(1, { price: stored })], [{ ...base, price: sent }])).toMatchObject({
        unchanged: [],
        create: [{ price: sent }],
        remove: [{ id: 1 }],
      });
    }
  });

  it('makes nothing to do out of a set equal to what is there', () => {
    const existing = [record(1), record(2, { sku: 'B', minQuantity: 10 })];
    const diff = diffPrices(existing, [{ ...base, sku: 'B', minQuantity: 10 }, base]);
    expect(diff).toMatchObject({ create: [], remove: [] });
    // Each desired price's match, in the order of the desired prices.
    expect(diff.matches.map((match) => match?.id)).toEqual([2, 1]);
    expect(diffPrices([], [])).toEqual({ create: [], remove: [], unchanged: [], matches: [] });
    expect(diffPrices([record(1)], [{ ...base, price: 99 }, base]).matches.map((match) => match?.id)).toEqual([undefined, 1]);
  });
});

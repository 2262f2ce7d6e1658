import { describe, expect, it } from 'vitest';
import type { TradePrice } from '../../contract/trade-prices.js';
import { diffPrices } from '../trade-prices/price-diff.js';
import type { NewTradePrice } from '../trade-prices/trade-price-repository.js';
import { changesOfDiff, DryRunChanges } from './dry-run-changes.js';

const record = (id: number, fields: Partial<TradePrice>): TradePrice => ({
  id,
  customerId: 7,
  productId: 1,
  sku: 'BOLT',
  price: 1,
  minQuantity: 1,
  validFrom: null,
  validUntil: null,
  createdAt: '2027-01-01T00:00:00.000Z',
  ...fields,
});
const wanted = (fields: Partial<NewTradePrice>): NewTradePrice => ({
  customerId: 7,
  productId: 1,
  sku: 'BOLT',
  price: 1,
  minQuantity: 1,
  validFrom: null,
  validUntil: null,
  ...fields,
});

describe('a replace dry run’s changes', () => {
  it('pairs a record and a new price of the same product, SKU, break and window as changed; any other difference is a deletion and a creation', () => {
    const existing = [
      record(1, { price: 4 }),
      record(2, { minQuantity: 10, price: 3 }),
      record(3, { sku: 'NUT', price: 2 }),
      // The same place, but recorded against another product (the SKU moved): not a change of price.
      record(4, { sku: 'WASHER', productId: 9, price: 5 }),
    ];
    const desired = [
      wanted({ price: 4.5 }),
      wanted({ minQuantity: 10, price: 3 }),
      wanted({ sku: 'NUT', price: 2, validFrom: '2027-02-01T00:00:00.000Z' }),
      wanted({ sku: 'WASHER', productId: 2, price: 5 }),
    ];
    const changes = changesOfDiff(diffPrices(existing, desired));
    expect(changes.map(({ kind, sku, before, after, tradePriceId }) => [kind, sku, before, after, tradePriceId])).toEqual([
      ['changed', 'BOLT', 4, 4.5, 1],
      ['created', 'NUT', null, 2, null],
      ['created', 'WASHER', null, 5, null],
      ['deleted', 'NUT', 2, null, 3],
      ['deleted', 'WASHER', 5, null, 4],
    ]);
  });

  it('numbers changes in order and keeps no more than 10 000', () => {
    const changes = new DryRunChanges();
    const one = changesOfDiff(diffPrices([], [wanted({})]));
    expect(changes.number(one).map((change) => change.seq)).toEqual([1]);
    const many = Array.from({ length: 10_500 }, () => one[0]!);
    const kept = changes.number(many);
    expect(kept).toHaveLength(9_999);
    expect(kept.at(-1)!.seq).toBe(10_000);
    expect(changes.number(one)).toEqual([]);
    expect(changes.room).toBe(0);
  });
});

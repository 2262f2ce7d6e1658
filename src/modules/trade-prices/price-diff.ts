import type { TradePrice } from '../../contract/trade-prices.js';
import { toPriceUnits } from '../money.js';
import type { NewTradePrice } from './trade-price-repository.js';

/** What making a customer's prices exactly `desired` takes. */
export interface PriceDiff {
  /** The desired prices no record matches, in their order. */
  create: NewTradePrice[];
  /** The records no desired price matches, by id. */
  remove: TradePrice[];
  /** Records that match a desired price: they stay as they are, with their ids. */
  unchanged: TradePrice[];
}

/**
 * Matches desired prices to existing records equal in every field a client sets (product,
 * SKU, price, minQuantity, validFrom, validUntil), one record for one price: two equal prices
 * need two equal records, and a third equal record goes. Among equal records the oldest are
 * kept. The customer is the caller's to choose: `existing` are that customer's records.
 */
export function diffPrices(existing: readonly TradePrice[], desired: readonly NewTradePrice[]): PriceDiff {
  const waiting = new Map<string, TradePrice[]>();
  for (const record of [...existing].sort((a, b) => a.id - b.id)) {
    const key = keyOf(record);
    const same = waiting.get(key);
    if (same === undefined) waiting.set(key, [record]);
    else same.push(record);
  }
  const create: NewTradePrice[] = [];
  const unchanged: TradePrice[] = [];
  for (const price of desired) {
    const match = waiting.get(keyOf(price))?.shift();
    if (match === undefined) create.push(price);
    else unchanged.push(match);
  }
  const remove = [...waiting.values()].flat().sort((a, b) => a.id - b.id);
  return { create, remove, unchanged };
}

function keyOf(price: Pick<NewTradePrice, 'productId' | 'sku' | 'price' | 'minQuantity' | 'validFrom' | 'validUntil'>): string {
  return JSON.stringify([price.productId, price.sku, toPriceUnits(price.price), price.minQuantity, price.validFrom, price.validUntil]);
}

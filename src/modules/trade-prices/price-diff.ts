import type { QuantityRule } from '../../contract/quantity-rules.js';
import type { PricedSku, TradePrice } from '../../contract/trade-prices.js';
import { toPriceUnits } from '../shared/money.js';
import type { NewTradePrice } from './trade-price-repository.js';

/** What making a customer's prices (or a list's entries) exactly `desired` takes. */
export interface PriceDiff<Stored extends PricedSku & { id: number } = TradePrice, Desired extends PricedSku = NewTradePrice> {
  /** The desired prices no record matches, in their order. */
  create: Desired[];
  /** The records no desired price matches, by id. */
  remove: Stored[];
  /** Records that match a desired price: they stay as they are, with their ids. */
  unchanged: Stored[];
  /** For each desired price, in order, the record that matches it; undefined for one to create. */
  matches: Array<Stored | undefined>;
}

/**
 * Matches desired prices to existing records equal in every field a client sets (product,
 * SKU, price, minQuantity, validFrom, validUntil, a list entry's quantity rule), one record for one price: two equal prices
 * need two equal records, and a third equal record goes. Among equal records the oldest are
 * kept. The customer is the caller's to choose: `existing` are that customer's records.
 */
export function diffPrices<Stored extends PricedSku & { id: number }, Desired extends PricedSku>(
  existing: readonly Stored[],
  desired: readonly Desired[],
): PriceDiff<Stored, Desired> {
  const waiting = new Map<string, Stored[]>();
  for (const record of [...existing].sort((a, b) => a.id - b.id)) {
    const key = keyOf(record);
    const same = waiting.get(key);
    if (same === undefined) waiting.set(key, [record]);
    else same.push(record);
  }
  const create: Desired[] = [];
  const unchanged: Stored[] = [];
  const matches: Array<Stored | undefined> = [];
  for (const price of desired) {
    const match = waiting.get(keyOf(price))?.shift();
    if (match === undefined) create.push(price);
    else unchanged.push(match);
    matches.push(match);
  }
  const remove = [...waiting.values()].flat().sort((a, b) => a.id - b.id);
  return { create, remove, unchanged, matches };
}

/** Every field a client sets; a list entry's quantity rule too (a trade price has none). */
function keyOf(price: PricedSku & { quantityRule?: QuantityRule | null }): string {
  const rule = price.quantityRule ?? null;
  return JSON.stringify([
    price.productId,
    price.sku,
    toPriceUnits(price.price),
    price.minQuantity,
    price.validFrom,
    price.validUntil,
    rule && [rule.minimum, rule.maximum, rule.increment],
  ]);
}

import { type ImportChange, MAX_IMPORT_CHANGES } from '../../contract/imports.js';
import type { TradePrice } from '../../contract/trade-prices.js';
import type { PriceDiff } from '../trade-prices/price-diff.js';
import type { NewTradePrice } from '../trade-prices/trade-price-repository.js';
import type { NumberedChange } from './import-repository.js';

/**
 * What a dry run would change, kept as it is found (`GET /v1/imports/{id}/changes`): each
 * change numbered in order, the first MAX_IMPORT_CHANGES kept, the rest only counted by the
 * import's `result`.
 */
export class DryRunChanges {
  private kept = 0;

  /** The changes still to be kept, numbered: none once MAX_IMPORT_CHANGES are. */
  number(changes: readonly ImportChange[]): NumberedChange[] {
    return changes.slice(0, MAX_IMPORT_CHANGES - this.kept).map((change) => ({ ...change, seq: ++this.kept }));
  }

  /** Room for this many more. */
  get room(): number {
    return MAX_IMPORT_CHANGES - this.kept;
  }
}

/** Prices of the file with no record like them. */
export function createdChanges(prices: readonly NewTradePrice[]): ImportChange[] {
  return prices.map((price) => ({ kind: 'created', ...slotOf(price), before: null, after: price.price, tradePriceId: null }));
}

/** Records the file does not keep. */
export function deletedChanges(records: readonly TradePrice[]): ImportChange[] {
  return records.map((record) => ({ kind: 'deleted', ...slotOf(record), before: record.price, after: null, tradePriceId: record.id }));
}

/**
 * A replace's diff of one customer's prices as changes: a record removed and a price created
 * for the same product, SKU, break and window are one price `changed` (old → new); the others
 * are created or deleted as they are.
 */
export function changesOfDiff(diff: PriceDiff): ImportChange[] {
  const removed = new Map<string, TradePrice[]>();
  for (const record of diff.remove) {
    const key = slotKey(record);
    removed.set(key, [...(removed.get(key) ?? []), record]);
  }
  const changes: ImportChange[] = [];
  for (const price of diff.create) {
    const replaced = removed.get(slotKey(price))?.shift();
    if (replaced === undefined) changes.push(...createdChanges([price]));
    else changes.push({ kind: 'changed', ...slotOf(price), before: replaced.price, after: price.price, tradePriceId: replaced.id });
  }
  changes.push(...deletedChanges([...removed.values()].flat()));
  return changes;
}

type Slot = Pick<ImportChange, 'customerId' | 'sku' | 'minQuantity' | 'validFrom' | 'validUntil'>;

function slotOf(price: Slot): Slot {
  const { customerId, sku, minQuantity, validFrom, validUntil } = price;
  return { customerId, sku, minQuantity, validFrom, validUntil };
}

/** A price's place: a record and a price of the file in the same place differ only in price. */
function slotKey(price: Slot & { productId: number }): string {
  return JSON.stringify([price.productId, price.sku, price.minQuantity, price.validFrom, price.validUntil]);
}

import type { CustomerGroup } from '../../contract/customer-groups.js';
import type { Customer } from '../../contract/customers.js';
import type { PriceList, PriceListPrice } from '../../contract/price-lists.js';
import type { Product } from '../../contract/products.js';
import type { TradePrice } from '../../contract/trade-prices.js';
import type { Variation } from '../../contract/variations.js';
import { sameRule } from '../quantity-rules/quantity-rule.js';
import type { ChangeOrigin, HistoryChange, HistoryRecord, HistoryResource } from './history-entry.js';

/*
 * The history records of each kind of change (docs/history.md, "What is recorded"): `before`
 * and `after` are the record as the API shows it, and the filter columns are filled from it.
 * Builders only: the writers append them in the transaction of the change.
 */

/** Who changed something when no request did: the demo store `serve` seeds, and other commands run on the server's machine. */
export const CLI_ORIGIN: ChangeOrigin = { actor: { type: 'key', id: 0, name: 'cli' }, source: 'api', sourceId: null, requestId: null };

/** `created` (before null), `deleted` (after null) or `updated` (both). */
function changeOf(before: object | null, after: object | null): HistoryChange {
  if (before === null) return 'created';
  return after === null ? 'deleted' : 'updated';
}

/** What the history's filters find a record by; a kind fills only those it has. */
type RecordFilters = Pick<HistoryRecord, 'customerId' | 'productId' | 'priceListId' | 'sku'>;

const NO_FILTERS: RecordFilters = { customerId: null, productId: null, priceListId: null, sku: null };

/** The record of a change to `before` or `after` (the one that is not null, `after` first), filled with the filters it has. */
function recordOf<T extends { id: number }>(
  resource: HistoryResource,
  before: T | null,
  after: T | null,
  filtersOf: (record: T) => Partial<RecordFilters>,
): HistoryRecord {
  const record = after ?? before;
  if (record === null) throw new Error('a history record needs a before or an after');
  return { resource, resourceId: record.id, change: changeOf(before, after), before, after, ...NO_FILTERS, ...filtersOf(record) };
}

export function tradePriceRecord(before: TradePrice | null, after: TradePrice | null): HistoryRecord {
  return recordOf('trade_price', before, after, (price) => ({ customerId: price.customerId, productId: price.productId, sku: price.sku }));
}

export function listEntryRecord(before: PriceListPrice | null, after: PriceListPrice | null): HistoryRecord {
  return recordOf('price_list_entry', before, after, (entry) => ({ productId: entry.productId, priceListId: entry.priceListId, sku: entry.sku }));
}

export function priceListRecord(before: PriceList | null, after: PriceList | null): HistoryRecord {
  return recordOf('price_list', before, after, (list) => ({ priceListId: list.id }));
}

export function customerRecord(before: Customer | null, after: Customer | null): HistoryRecord {
  return recordOf('customer', before, after, (customer) => ({ customerId: customer.id }));
}

export function customerGroupRecord(before: CustomerGroup | null, after: CustomerGroup | null): HistoryRecord {
  return recordOf('customer_group', before, after, () => ({}));
}

/** A product's own record: `variations` inside it are recorded on their own (`variationRecord`). */
export function productRecord(before: Product | null, after: Product | null): HistoryRecord {
  return recordOf('product', before, after, (product) => ({ productId: product.id, sku: product.sku }));
}

export function variationRecord(before: Variation | null, after: Variation | null): HistoryRecord {
  return recordOf('variation', before, after, (variation) => ({ productId: variation.productId, sku: variation.sku }));
}

/** What a change set's entry shows of it: a step of its workflow (docs/change-sets.md, "States"). */
export interface ChangeSetStep {
  id: number;
  name: string;
  state: string;
  revision: number;
  operations: number;
  applyAt: string | null;
}

/** A change set created (before null) or moved from one state to another. */
export function changeSetRecord(before: ChangeSetStep | null, after: ChangeSetStep): HistoryRecord {
  return { resource: 'change_set', resourceId: after.id, change: before === null ? 'created' : 'updated', before, after, ...NO_FILTERS };
}

/** Whether an update changes what a customer would pay: a customer's lists, trade flag or active flag. */
export function customerPricingChanged(before: Customer, after: Customer): boolean {
  return (
    before.trade !== after.trade ||
    before.active !== after.active ||
    before.priceListIds.join(',') !== after.priceListIds.join(',') ||
    before.customerGroupId !== after.customerGroupId
  );
}

/** A group's name or lists. */
export function customerGroupChanged(before: CustomerGroup, after: CustomerGroup): boolean {
  return before.name !== after.name || before.policy !== after.policy || before.priceListIds.join(',') !== after.priceListIds.join(',');
}

/** The same for a product (its own price, SKU, active flag or quantity rule) or a variation (price, SKU or quantity rule). */
export function productPricingChanged(before: Product, after: Product): boolean {
  return before.price !== after.price || before.sku !== after.sku || before.active !== after.active || !sameRule(before.quantityRule, after.quantityRule);
}

export function variationPricingChanged(before: Variation, after: Variation): boolean {
  return before.price !== after.price || before.sku !== after.sku || !sameRule(before.quantityRule, after.quantityRule);
}

/** A list's name or percentage. */
export function priceListChanged(before: PriceList, after: PriceList): boolean {
  return (
    before.name !== after.name ||
    before.percentage !== after.percentage ||
    before.policy !== after.policy ||
    before.rounding?.increment !== after.rounding?.increment ||
    before.rounding?.mode !== after.rounding?.mode
  );
}

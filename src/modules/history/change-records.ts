import type { CustomerGroup } from '../../contract/customer-groups.js';
import type { Customer } from '../../contract/customers.js';
import type { PriceList, PriceListPrice } from '../../contract/price-lists.js';
import type { Product } from '../../contract/products.js';
import type { TradePrice } from '../../contract/trade-prices.js';
import type { Variation } from '../../contract/variations.js';
import { sameRule } from '../quantity-rules/quantity-rule.js';
import type { ChangeOrigin, HistoryChange, HistoryRecord } from './history-entry.js';

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

function either<T>(before: T | null, after: T | null): T {
  const record = after ?? before;
  if (record === null) throw new Error('a history record needs a before or an after');
  return record;
}

export function tradePriceRecord(before: TradePrice | null, after: TradePrice | null): HistoryRecord {
  const price = either(before, after);
  return {
    resource: 'trade_price',
    resourceId: price.id,
    change: changeOf(before, after),
    before,
    after,
    customerId: price.customerId,
    productId: price.productId,
    priceListId: null,
    sku: price.sku,
  };
}

export function listEntryRecord(before: PriceListPrice | null, after: PriceListPrice | null): HistoryRecord {
  const entry = either(before, after);
  return {
    resource: 'price_list_entry',
    resourceId: entry.id,
    change: changeOf(before, after),
    before,
    after,
    customerId: null,
    productId: entry.productId,
    priceListId: entry.priceListId,
    sku: entry.sku,
  };
}

export function priceListRecord(before: PriceList | null, after: PriceList | null): HistoryRecord {
  const list = either(before, after);
  return {
    resource: 'price_list',
    resourceId: list.id,
    change: changeOf(before, after),
    before,
    after,
    customerId: null,
    productId: null,
    priceListId: list.id,
    sku: null,
  };
}

export function customerRecord(before: Customer | null, after: Customer | null): HistoryRecord {
  const customer = either(before, after);
  return {
    resource: 'customer',
    resourceId: customer.id,
    change: changeOf(before, after),
    before,
    after,
    customerId: customer.id,
    productId: null,
    priceListId: null,
    sku: null,
  };
}

export function customerGroupRecord(before: CustomerGroup | null, after: CustomerGroup | null): HistoryRecord {
  const group = either(before, after);
  return {
    resource: 'customer_group',
    resourceId: group.id,
    change: changeOf(before, after),
    before,
    after,
    customerId: null,
    productId: null,
    priceListId: null,
    sku: null,
  };
}

/** A product's own record: `variations` inside it are recorded on their own (`variationRecord`). */
export function productRecord(before: Product | null, after: Product | null): HistoryRecord {
  const product = either(before, after);
  return {
    resource: 'product',
    resourceId: product.id,
    change: changeOf(before, after),
    before,
    after,
    customerId: null,
    productId: product.id,
    priceListId: null,
    sku: product.sku,
  };
}

export function variationRecord(before: Variation | null, after: Variation | null): HistoryRecord {
  const variation = either(before, after);
  return {
    resource: 'variation',
    resourceId: variation.id,
    change: changeOf(before, after),
    before,
    after,
    customerId: null,
    productId: variation.productId,
    priceListId: null,
    sku: variation.sku,
  };
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
  return {
    resource: 'change_set',
    resourceId: after.id,
    change: before === null ? 'created' : 'updated',
    before,
    after,
    customerId: null,
    productId: null,
    priceListId: null,
    sku: null,
  };
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

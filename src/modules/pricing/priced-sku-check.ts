import type { PricedSkuInput } from '../../contract/priced-sku.js';
import type { PricedSku } from '../../contract/trade-prices.js';
import type { FieldProblem } from '../../contract/errors.js';
import { refusedBy } from '../shared/errors.js';
import type { Repositories } from '../shared/unit-of-work.js';
import { ruleFieldsOf } from './price-rule-input.js';
import { customerProblem } from './trade-customer.js';
import { longWork } from '../shared/long-work.js';

/** An item of a trade prices' bulk create (with its customer), of a replace or of a list's bulk create (without). */
export type PricedItemInput = PricedSkuInput & { customerId?: number };

/**
 * The one check of a batch of priced items against the store (bulk creates of trade prices and
 * of list entries, replace), in three queries however many: each customer named must be a trade
 * customer of the store, each product the store's, each SKU the product's own or one of its
 * variations', each window well formed.
 *
 * Every problem of the batch comes back at once: the schema's (`shapeProblems`, an item's with
 * its `index`) and the store's for every field the schema passed, so an item whose price is
 * malformed still hears that its SKU is unknown. A field the schema refused, or an item it
 * refused whole, is not looked at. Inside a transaction the SKUs found stay registered to their
 * products until it ends (`TradePriceRepository.findReferences`).
 *
 * `checked` holds every item as it will be stored, in order, when there are no problems.
 * `customers` says what a customer named must be: a trade customer (the default), or only the
 * store's (a deleted record put back as it was: `TradePriceService.restore`).
 */
export async function checkPricedItems(
  repos: Repositories,
  storeId: number,
  items: readonly PricedItemInput[],
  shapeProblems: readonly FieldProblem[],
  customers: { trade: boolean } = { trade: true },
): Promise<{ checked: PricedSku[]; problems: FieldProblem[] }> {
  const refused = refusedBy(shapeProblems);
  const passed = (index: number, field: string) => !refused(index, field);
  const customerIds = new Set<number>();
  const productIds = new Set<number>();
  const skus = new Set<string>();
  items.forEach((item, index) => {
    if (refused(index, null)) return;
    if (item.customerId !== undefined && passed(index, 'customerId')) customerIds.add(item.customerId);
    if (passed(index, 'productId')) productIds.add(item.productId);
    if (passed(index, 'sku')) skus.add(item.sku);
  });
  const references = await repos.tradePrices.findReferences(storeId, [...customerIds], [...productIds], [...skus]);

  const problems: FieldProblem[] = [...shapeProblems];
  const checked: PricedSku[] = [];
  // A replace checks up to 10 000 items: long work.
  for await (const [index, item] of longWork().each(items.entries())) {
    if (refused(index, null)) continue;
    if (item.customerId !== undefined && passed(index, 'customerId')) {
      const message = customerProblem(`Customer ${item.customerId}`, references.customers.get(item.customerId), customers);
      if (message !== undefined) problems.push({ index, field: 'customerId', message });
    }
    const owner = passed(index, 'sku') ? references.skuOwners.get(item.sku) : undefined;
    if (passed(index, 'productId')) {
      if (!references.productIds.has(item.productId))
        problems.push({ index, field: 'productId', message: `Product ${item.productId} does not exist in this store` });
      else if (passed(index, 'sku') && owner !== item.productId)
        problems.push({ index, field: 'sku', message: `SKU '${item.sku}' does not belong to product ${item.productId}` });
    } else if (passed(index, 'sku') && owner === undefined) {
      problems.push({ index, field: 'sku', message: `SKU '${item.sku}' does not exist in this store` });
    }
    const rule = ruleFieldsOf(item, index, (field) => passed(index, field));
    problems.push(...rule.problems);
    checked.push({ productId: item.productId, sku: item.sku, price: item.price, ...rule.fields });
  }
  return { checked, problems };
}

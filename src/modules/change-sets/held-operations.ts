import type { ChangeSetOperation } from '../../contract/change-sets.js';
import type { Repositories } from '../shared/unit-of-work.js';
import { longWork } from '../shared/long-work.js';

/** Records looked up per query while finding whose prices the operations name. */
const LOOKUP_BATCH = 1000;

/**
 * Of the operations a set holds, the ones new operations must be tried after for their
 * check to be what the apply will meet (docs/change-sets.md, "What an add checks"), in
 * the set's order; often none.
 *
 * No operation changes what the others are checked against but for the records, lists and
 * percentages they name: none creates or deletes a customer, a product, a SKU or a list, nor
 * changes a trade flag or a list's kind, and a creation is never refused for one like it. So
 * only these new operations depend on the set's own:
 *
 * - a trade price's deletion or restore: whether the record is live after the set's
 *   operations. They change it by naming it, or by a replace of its customer (of its SKU, for
 *   scope `skus`), which keeps, of the customer's records equal to a price, the oldest: which
 *   of them that is depends on the other records of that customer and SKU the set deletes or
 *   restores (records it creates are newer than any, so they never decide it). Those are taken.
 * - a list entry's deletion or restore: the set's deletions and restores of that entry.
 * - a customer's lists set with `expectedPriceListIds`, a percentage set with
 *   `expectedPercentage`: the set's own changes of that customer's lists, of that list.
 */
export async function heldOperationsConcerning(
  repos: Repositories,
  storeId: number,
  added: readonly ChangeSetOperation[],
  readHeld: () => Promise<ChangeSetOperation[]>,
): Promise<ChangeSetOperation[]> {
  const priceIds = new Set<number>();
  const entries = new Set<string>();
  const customers = new Set<number>();
  const lists = new Set<number>();
  for (const operation of added) {
    if (operation.type === 'trade_price.delete' || operation.type === 'trade_price.restore') priceIds.add(operation.id);
    else if (operation.type === 'price_list_entry.delete' || operation.type === 'price_list_entry.restore')
      entries.add(entryKey(operation.priceListId, operation.id));
    else if (operation.type === 'customer.set_price_lists' && operation.expectedPriceListIds !== undefined) customers.add(operation.customerId);
    else if (operation.type === 'price_list.set_percentage' && operation.expectedPercentage !== undefined) lists.add(operation.priceListId);
  }
  if (priceIds.size === 0 && entries.size === 0 && customers.size === 0 && lists.size === 0) return [];

  const held = await readHeld();
  // The customer and SKU of each trade price named, and those of them a held replace may change.
  const named = await ownersOf(repos, storeId, [...priceIds]);
  const namedKeys = new Set<string>();
  const namedOf = new Map<number, string[]>();
  for (const record of named.values()) {
    if (namedKeys.has(record.key)) continue;
    namedKeys.add(record.key);
    namedOf.set(record.customerId, [...(namedOf.get(record.customerId) ?? []), record.key]);
  }
  const replaces = (operation: Extract<ChangeSetOperation, { type: 'trade_prices.replace' }>): string[] =>
    operation.scope === 'customer'
      ? (namedOf.get(operation.customerId) ?? [])
      : operation.prices.map((price) => priceKey(operation.customerId, price.sku)).filter((key) => namedKeys.has(key));
  const replaced = new Set(held.flatMap((operation) => (operation.type === 'trade_prices.replace' ? replaces(operation) : [])));
  // Then the held deletions and restores of the other records of those customers and SKUs.
  const others =
    replaced.size === 0
      ? new Map<number, { customerId: number; key: string }>()
      : await ownersOf(
          repos,
          storeId,
          held.flatMap((operation) =>
            (operation.type === 'trade_price.delete' || operation.type === 'trade_price.restore') && !priceIds.has(operation.id) ? [operation.id] : [],
          ),
        );
  return held.filter((operation) => {
    switch (operation.type) {
      case 'trade_price.delete':
      case 'trade_price.restore':
        return priceIds.has(operation.id) || replaced.has(others.get(operation.id)?.key ?? '');
      case 'trade_prices.replace':
        return replaces(operation).length > 0;
      case 'price_list_entry.delete':
      case 'price_list_entry.restore':
        return entries.has(entryKey(operation.priceListId, operation.id));
      case 'customer.set_price_lists':
        return customers.has(operation.customerId);
      case 'price_list.set_percentage':
        return lists.has(operation.priceListId);
      case 'trade_price.create':
      case 'price_list_entry.create':
        return false;
    }
  });
}

/** Each of these trade prices' customer, and its customer and SKU (`priceKey`), live or deleted; an id the store never had is left out. */
async function ownersOf(repos: Repositories, storeId: number, ids: readonly number[]): Promise<Map<number, { customerId: number; key: string }>> {
  const owners = new Map<number, { customerId: number; key: string }>();
  const work = longWork();
  for (let start = 0; start < ids.length; start += LOOKUP_BATCH) {
    const batch = ids.slice(start, start + LOOKUP_BATCH);
    for (const record of [...(await repos.tradePrices.lastDeleted(storeId, batch)), ...(await repos.tradePrices.findMany(storeId, batch))]) {
      owners.set(record.id, { customerId: record.customerId, key: priceKey(record.customerId, record.sku) });
    }
    await work.step();
  }
  return owners;
}

function priceKey(customerId: number, sku: string): string {
  return `${customerId}\u0000${sku}`;
}

function entryKey(priceListId: number, id: number): string {
  return `${priceListId}:${id}`;
}

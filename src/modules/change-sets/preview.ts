import { MAX_PREVIEW_PAIRS, type PreviewRow } from '../../contract/change-sets.js';
import { MAX_CUSTOMER_GROUPS } from '../../contract/customer-groups.js';
import { fromPriceUnits } from '../money.js';
import type { PricingService } from '../pricing/pricing-service.js';
import type { Repositories } from '../unit-of-work.js';
import type { Execution } from './apply-operations.js';

/** The SKUs whose prices a set may change, by customer: at most MAX_PREVIEW_PAIRS pairs, and whether that was all of them. */
export interface AffectedPairs {
  skusOf: Map<number, Set<string>>;
  complete: boolean;
}

/** Customers read per query while finding a list's holders. */
const HOLDERS_BATCH = 1000;

/**
 * Which customers and SKUs the carried-out operations touch, read inside the rehearsal (the
 * book as the set leaves it): a trade price's customer and SKU; a list entry's SKU for every
 * customer holding the list (itself or through its group); for a customer's new lists, the SKUs of the fixed lists it held
 * or holds (every SKU of the store when a percentage list is among them); for a percentage
 * changed, every SKU for every customer holding the list.
 */
export async function affectedPairs(repos: Repositories, storeId: number, execution: Execution): Promise<AffectedPairs> {
  const skusOf = new Map<number, Set<string>>();
  let pairs = 0;
  let complete = true;
  const add = (customerId: number, skus: Iterable<string>) => {
    let held = skusOf.get(customerId);
    for (const sku of skus) {
      if (held?.has(sku) === true) continue;
      if (pairs >= MAX_PREVIEW_PAIRS) {
        complete = false;
        return;
      }
      if (held === undefined) skusOf.set(customerId, (held = new Set()));
      held.add(sku);
      pairs++;
    }
  };
  // A list's holders: the customers that have it themselves, then those of each group that has it.
  const holders = async (priceListId: number): Promise<number[]> => {
    const ids = new Set<number>();
    const take = async (batchOf: (after: number) => Promise<number[]>) => {
      for (let after = 0; ids.size <= MAX_PREVIEW_PAIRS; ) {
        const batch = await batchOf(after);
        for (const id of batch) ids.add(id);
        if (batch.length < HOLDERS_BATCH) break;
        after = batch.at(-1)!;
      }
    };
    await take((after) => repos.customers.withPriceListBatch(storeId, priceListId, after, HOLDERS_BATCH));
    for (const group of await repos.customerGroups.list(storeId, { priceListId }, { offset: 0, count: MAX_CUSTOMER_GROUPS })) {
      if (ids.size > MAX_PREVIEW_PAIRS) break;
      await take((after) => repos.customers.inGroupBatch(storeId, group.id, after, HOLDERS_BATCH));
    }
    return [...ids];
  };
  let catalogSkus: string[] | undefined;
  const everySku = async () => (catalogSkus ??= await repos.skus.firstSkus(storeId, MAX_PREVIEW_PAIRS + 1));
  const skusOfList = async (priceListId: number): Promise<string[] | 'all'> => {
    const list = await repos.priceLists.find(storeId, priceListId);
    if (list === undefined) return [];
    if (list.kind === 'percentage') return 'all';
    const entries = await repos.priceLists.listPrices(storeId, priceListId, {}, { count: MAX_PREVIEW_PAIRS + 1, offset: 0 });
    return entries.map((entry) => entry.sku);
  };

  for (const { resource, record } of [...execution.created, ...execution.deleted]) {
    if (!complete) break;
    if (resource === 'trade_price') add(record.customerId, [record.sku]);
    else for (const customerId of await holders(record.priceListId)) add(customerId, [record.sku]);
  }
  for (const update of execution.updated) {
    if (!complete) break;
    if (update.resource === 'customer') {
      const lists = new Set([...update.before.priceListIds, ...update.after.priceListIds]);
      for (const priceListId of lists) {
        const skus = await skusOfList(priceListId);
        add(update.after.id, skus === 'all' ? await everySku() : skus);
      }
    } else {
      const skus = await everySku();
      for (const customerId of await holders(update.after.id)) add(customerId, skus);
    }
  }
  return { skusOf, complete };
}

/** Each pair's price from each quantity break on, as the book is read (in a rehearsal: as the set leaves it). */
export async function pairPrices(pricing: PricingService, storeId: number, pairs: AffectedPairs, at: string): Promise<Map<string, Array<{ minQuantity: number; priceUnits: number }>>> {
  const prices = new Map<string, Array<{ minQuantity: number; priceUnits: number }>>();
  for (const [customerId, skus] of pairs.skusOf) {
    const all = [...skus];
    for (let start = 0; start < all.length; start += 1000) {
      for (const [sku, breaks] of await pricing.breakPrices(storeId, customerId, all.slice(start, start + 1000), at)) prices.set(`${customerId}\u0000${sku}`, breaks);
    }
  }
  return prices;
}

/** The rows of a preview: records created, deleted, updated, then each pair's prices by break, before → after. */
export function previewRows(execution: Execution, pairs: AffectedPairs, before: ReadonlyMap<string, Array<{ minQuantity: number; priceUnits: number }>>, after: ReadonlyMap<string, Array<{ minQuantity: number; priceUnits: number }>>): PreviewRow[] {
  const rows: PreviewRow[] = [];
  const recordRow = (kind: 'created' | 'deleted', resource: string, record: { sku: string }, customerId: number | null): PreviewRow => ({
    kind,
    resource,
    record: { ...record },
    customerId,
    sku: record.sku,
    minQuantity: null,
    before: null,
    after: null,
  });
  // A created record's id and moment are the apply's to give (a restored one keeps its id).
  for (const { resource, record, restored } of execution.created) {
    const shownRecord = { ...record, id: restored === true ? record.id : null, createdAt: null };
    rows.push(recordRow('created', resource, shownRecord, 'customerId' in record ? record.customerId : null));
  }
  for (const { resource, record } of execution.deleted) rows.push(recordRow('deleted', resource, record, 'customerId' in record ? record.customerId : null));
  for (const update of execution.updated) {
    const change =
      update.resource === 'customer'
        ? { id: update.after.id, priceListIds: { before: update.before.priceListIds, after: update.after.priceListIds } }
        : { id: update.after.id, percentage: { before: update.before.percentage, after: update.after.percentage } };
    rows.push({ kind: 'updated', resource: update.resource, record: change, customerId: update.resource === 'customer' ? update.after.id : null, sku: null, minQuantity: null, before: null, after: null });
  }
  const customers = [...pairs.skusOf.keys()].sort((a, b) => a - b);
  for (const customerId of customers) {
    for (const sku of [...pairs.skusOf.get(customerId)!].sort()) {
      const key = `${customerId}\u0000${sku}`;
      const was = before.get(key) ?? [];
      const is = after.get(key) ?? [];
      const breaks = [...new Set([...was, ...is].map((price) => price.minQuantity))].sort((a, b) => a - b);
      for (const minQuantity of breaks) {
        rows.push({ kind: 'price', resource: null, record: null, customerId, sku, minQuantity, before: priceAt(was, minQuantity), after: priceAt(is, minQuantity) });
      }
    }
  }
  return rows;
}

/** The price from the highest break at or below `quantity` (prices change only at breaks); null when there is none. */
function priceAt(breaks: ReadonlyArray<{ minQuantity: number; priceUnits: number }>, quantity: number): number | null {
  let price: number | null = null;
  for (const step of breaks) if (step.minQuantity <= quantity) price = fromPriceUnits(step.priceUnits);
  return price;
}

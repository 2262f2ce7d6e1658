import { MAX_PREVIEW_PAIRS, type PreviewRow } from '../../contract/change-sets.js';
import { MAX_CUSTOMER_GROUPS } from '../../contract/customer-groups.js';
import { fromPriceUnits } from '../shared/money.js';
import type { PricingService } from '../pricing/pricing-service.js';
import type { Repositories } from '../shared/unit-of-work.js';
import { longWork, nextTurn } from '../shared/long-work.js';
import type { Execution } from './apply-operations.js';

/** The SKUs whose prices a set may change, by customer: at most MAX_PREVIEW_PAIRS pairs, and whether that was all of them. */
export interface AffectedPairs {
  skusOf: Map<number, Set<string>>;
  complete: boolean;
}

/** Customers read per query while finding a list's holders. */
const HOLDERS_BATCH = 1000;
/**
 * SKUs of one customer priced per call: a call reads their facts in a few queries and weighs
 * them, one stretch of work (on SQLite, 1000 at once held the event loop past 50 ms).
 */
const PRICED_PER_CALL = 250;

/** A pair's price from each quantity break on, breaks ascending. */
type Breaks = ReadonlyArray<{ minQuantity: number; priceUnits: number }>;

/**
 * Which customers and SKUs the carried-out operations touch, read inside the rehearsal (the
 * book as the set leaves it) and from what the operations met (the book before it): a trade
 * price's customer and SKU; a list entry's SKU for every customer holding the list, itself or
 * through its group, before the set or after it; for a customer's new lists, the SKUs of the
 * fixed lists it held or holds, those it leaves them with and those the set deleted from them
 * (every SKU of the store when a percentage list is among them); for a percentage changed,
 * every SKU for every customer holding the list before or after. So a price that differs
 * before and after is among them, whatever the mix of operations: it can differ only through
 * the customer's trade prices, its lists, or their entries and percentages.
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
  // The lists of each customer the set changes, before its first change of them: the book before
  // the set for them (no operation changes a group's lists or a customer's group).
  const listsBefore = new Map<number, readonly number[]>();
  for (const update of execution.updated)
    if (update.resource === 'customer' && !listsBefore.has(update.before.id)) listsBefore.set(update.before.id, update.before.priceListIds);
  // The SKUs of the entries the set deleted, by list: entries of the book before it.
  const deletedSkus = new Map<number, string[]>();
  for (const { resource, record } of execution.deleted) {
    if (resource !== 'price_list_entry') continue;
    const skus = deletedSkus.get(record.priceListId);
    if (skus === undefined) deletedSkus.set(record.priceListId, [record.sku]);
    else skus.push(record.sku);
  }
  // A list's holders: the customers that had it before the set, then those that have it
  // themselves after it, then those of each group that has it.
  const holders = async (priceListId: number): Promise<number[]> => {
    const ids = new Set<number>();
    for (const [customerId, lists] of listsBefore) if (lists.includes(priceListId)) ids.add(customerId);
    const take = async (batchOf: (after: number) => Promise<number[]>) => {
      const work = longWork();
      for (let after = 0; ids.size <= MAX_PREVIEW_PAIRS;) {
        const batch = await batchOf(after);
        for (const id of batch) ids.add(id);
        if (batch.length < HOLDERS_BATCH) break;
        after = batch.at(-1)!;
        await work.step();
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
  // Each list's SKUs read once, however many customers' lists the set changes.
  const listSkus = new Map<number, string[] | 'all'>();
  const skusOfList = async (priceListId: number): Promise<string[]> => {
    let skus = listSkus.get(priceListId);
    if (skus === undefined) {
      const list = await repos.priceLists.find(storeId, priceListId);
      if (list === undefined) skus = [];
      else if (list.kind === 'percentage') skus = 'all';
      else {
        const entries = await repos.priceLists.listPrices(storeId, priceListId, {}, { count: MAX_PREVIEW_PAIRS + 1, offset: 0 });
        skus = [...entries.map((entry) => entry.sku), ...(deletedSkus.get(priceListId) ?? [])];
        await nextTurn();
      }
      listSkus.set(priceListId, skus);
    }
    return skus === 'all' ? everySku() : skus;
  };

  // Each list's holders once, however many of its entries the set creates or deletes.
  const entrySkus = new Map<number, Set<string>>();
  for (const { resource, record } of [...execution.created, ...execution.deleted]) {
    if (!complete) break;
    if (resource === 'trade_price') add(record.customerId, [record.sku]);
    else entrySkus.set(record.priceListId, (entrySkus.get(record.priceListId) ?? new Set()).add(record.sku));
  }
  for (const [priceListId, skus] of entrySkus) {
    if (!complete) break;
    for (const customerId of await holders(priceListId)) add(customerId, skus);
  }
  // Each customer once with every list it held or holds along the set, each percentage list once.
  const listsOf = new Map<number, Set<number>>();
  const percentages = new Set<number>();
  for (const update of execution.updated) {
    if (update.resource === 'price_list') percentages.add(update.after.id);
    else {
      const lists = listsOf.get(update.after.id) ?? new Set();
      for (const priceListId of [...update.before.priceListIds, ...update.after.priceListIds]) lists.add(priceListId);
      listsOf.set(update.after.id, lists);
    }
  }
  for (const [customerId, lists] of listsOf) {
    for (const priceListId of lists) {
      if (!complete) break;
      add(customerId, await skusOfList(priceListId));
    }
  }
  for (const priceListId of percentages) {
    if (!complete) break;
    const skus = await everySku();
    for (const customerId of await holders(priceListId)) add(customerId, skus);
  }
  return { skusOf, complete };
}

/**
 * Each pair's price from each quantity break on, as the book is read (in a rehearsal: as the set
 * leaves it), PRICED_PER_CALL SKUs at a time, as long work: inside the rehearsal, on SQLite,
 * other writes wait for it, so its steps are turns, not pauses.
 */
export async function pairPrices(pricing: PricingService, storeId: number, pairs: AffectedPairs, at: string): Promise<Map<string, Breaks>> {
  const prices = new Map<string, Breaks>();
  const work = longWork();
  for (const [customerId, skus] of pairs.skusOf) {
    const all = [...skus];
    for (let start = 0; start < all.length; start += PRICED_PER_CALL) {
      for (const [sku, breaks] of await pricing.breakPrices(storeId, customerId, all.slice(start, start + PRICED_PER_CALL), at))
        prices.set(`${customerId}\u0000${sku}`, breaks);
      await work.step();
    }
  }
  return prices;
}

/** The first of these moments after `moment` (ISO 8601, canonical), or null when none is. */
export function firstBoundAfter(moment: string, bounds: ReadonlyArray<string | null>): string | null {
  let first: string | null = null;
  for (const bound of bounds) if (bound !== null && bound > moment && (first === null || bound < first)) first = bound;
  return first;
}

/**
 * The rows of a preview: records created, deleted, updated, then each pair's prices by break,
 * before → after; made as long work (a turn of the event loop between rows once its budget has passed).
 */
export async function previewRows(
  execution: Execution,
  pairs: AffectedPairs,
  before: ReadonlyMap<string, Breaks>,
  after: ReadonlyMap<string, Breaks>,
): Promise<PreviewRow[]> {
  const rows: PreviewRow[] = [];
  const work = longWork();
  const push = (row: PreviewRow) => {
    rows.push(row);
    return work.step();
  };
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
    await push(recordRow('created', resource, shownRecord, 'customerId' in record ? record.customerId : null));
  }
  for (const { resource, record } of execution.deleted) await push(recordRow('deleted', resource, record, 'customerId' in record ? record.customerId : null));
  for (const update of execution.updated) {
    const change =
      update.resource === 'customer'
        ? { id: update.after.id, priceListIds: { before: update.before.priceListIds, after: update.after.priceListIds } }
        : { id: update.after.id, percentage: { before: update.before.percentage, after: update.after.percentage } };
    await push({
      kind: 'updated',
      resource: update.resource,
      record: change,
      customerId: update.resource === 'customer' ? update.after.id : null,
      sku: null,
      minQuantity: null,
      before: null,
      after: null,
    });
  }
  const customers = [...pairs.skusOf.keys()].sort((a, b) => a - b);
  for (const customerId of customers) {
    for (const sku of [...pairs.skusOf.get(customerId)!].sort()) {
      const key = `${customerId}\u0000${sku}`;
      const was = before.get(key) ?? [];
      const is = after.get(key) ?? [];
      const breaks = [...new Set([...was, ...is].map((price) => price.minQuantity))].sort((a, b) => a - b);
      const priceBefore = pricesFrom(was);
      const priceAfter = pricesFrom(is);
      for (const minQuantity of breaks) {
        await push({
          kind: 'price',
          resource: null,
          record: null,
          customerId,
          sku,
          minQuantity,
          before: priceBefore(minQuantity),
          after: priceAfter(minQuantity),
        });
      }
    }
  }
  return rows;
}

/**
 * A pair's price from each quantity on, asked in ascending order: that of the highest break at
 * or below it (prices change only at breaks), null below the first. One pass over `breaks`
 * (ascending, as `breakPrices` answers them) for all the quantities asked.
 */
function pricesFrom(breaks: Breaks): (quantity: number) => number | null {
  let next = 0;
  let price: number | null = null;
  return (quantity) => {
    for (; next < breaks.length && breaks[next]!.minQuantity <= quantity; next++) price = fromPriceUnits(breaks[next]!.priceUnits);
    return price;
  };
}

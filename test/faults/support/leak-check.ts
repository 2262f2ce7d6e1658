import type { StoreSnapshot } from '../../support/store-snapshot.js';

/**
 * Whether an answer to the fuzzing store shows a record of the victim store, by its id.
 *
 * Ids are unique per table, not across tables (customer 7 and product 7 may belong to different
 * stores), so every id in an answer is read with its kind: a record's own `id` takes the kind
 * of the route that answered it (or of the key it is embedded under), and references take the
 * kind their name says (`customerId`, `categoryIds`, an event's `subjectId` by its topic …). An
 * id of a kind that the victim has a record of with that id is a leak: the fuzzing store cannot
 * own it too. This sees every kind of record, those without any free text (variations, trade
 * prices, orders, events) included.
 */
export type IdKind =
  'stores' | 'customers' | 'products' | 'variations' | 'categories' | 'prices' | 'priceLists' | 'priceListPrices' | 'orders' | 'webhooks' | 'events';

/** A store's ids, per kind. */
export type StoreIds = ReadonlyMap<IdKind, ReadonlySet<number>>;

/** The table behind each kind. */
const TABLES: Record<IdKind, string> = {
  stores: 'stores',
  customers: 'customers',
  products: 'products',
  variations: 'product_variations',
  categories: 'categories',
  prices: 'trade_prices',
  priceLists: 'price_lists',
  priceListPrices: 'price_list_prices',
  orders: 'orders',
  webhooks: 'webhooks',
  events: 'events',
};

/** The ids of every kind in a snapshot of a store's rows. */
export function idsOf(snapshot: StoreSnapshot): StoreIds {
  const ids = new Map<IdKind, Set<number>>();
  for (const [kind, table] of Object.entries(TABLES) as Array<[IdKind, string]>) {
    const rows = snapshot[table];
    if (rows === undefined) throw new Error(`the snapshot has no table ${table}`);
    ids.set(kind, new Set(rows.map((row) => Number((JSON.parse(row) as { id: unknown }).id))));
  }
  return ids;
}

/** Ids in a store's rows: how many the check compares against. */
export function idCount(ids: StoreIds): number {
  return [...ids.values()].reduce((sum, set) => sum + set.size, 0);
}

/** The first path segment after `/v1/` (and a product's `variations`) → the kind of the records it answers. */
const ROUTES: Record<string, IdKind> = {
  customers: 'customers',
  products: 'products',
  categories: 'categories',
  'trade-customer-product-prices': 'prices',
  'price-lists': 'priceLists',
  orders: 'orders',
  webhooks: 'webhooks',
  events: 'events',
};

/** Keys whose value is a record (or a list of records) of a kind. */
const EMBEDDED: Record<string, IdKind> = { customer: 'customers', product: 'products', variations: 'variations' };

/** Keys whose value is the id (or a list of ids) of a record of a kind. */
const REFERENCES: Record<string, IdKind> = {
  storeId: 'stores',
  customerId: 'customers',
  productId: 'products',
  variationId: 'variations',
  parentId: 'categories',
  categoryId: 'categories',
  categoryIds: 'categories',
  tradePriceId: 'prices',
  shadowedTradePriceIds: 'prices',
  priceListId: 'priceLists',
  priceListIds: 'priceLists',
  priceListPriceId: 'priceListPrices',
};

/** An event topic's first part → the kind of its subject. */
const TOPICS: Record<string, IdKind> = {
  customer: 'customers',
  product: 'products',
  category: 'categories',
  trade_customer_product_price: 'prices',
  order: 'orders',
  price_list: 'priceLists',
  price_list_price: 'priceListPrices',
};

/**
 * The kind of record a URL answers with, if any (`/v1/products/5/variations` → variations). The
 * path is read as the client sends it (dot segments resolved, as the URL parser does) and as the
 * server routes it (percent-decoded).
 */
export function kindOfRoute(url: string): IdKind | undefined {
  const segments = new URL(url, 'https://127.0.0.1').pathname.split('/').map((segment) => {
    try {
      return decodeURIComponent(segment);
    } catch {
      return segment;
    }
  });
  if (segments[1] !== 'v1') return undefined;
  if (segments[2] === 'products' && segments[4] === 'variations') return 'variations';
  if (segments[2] === 'price-lists' && segments[4] === 'prices') return 'priceListPrices';
  return ROUTES[segments[2] ?? ''];
}

/** Every id of the victim's (`victim`) that `body`, answered to `url`, shows: `prices 12`, `customers 3` … */
export function victimIdsIn(url: string, body: unknown, victim: StoreIds): string[] {
  const found: string[] = [];
  const see = (kind: IdKind | undefined, value: unknown) => {
    if (kind !== undefined && typeof value === 'number' && victim.get(kind)?.has(value) === true) found.push(`${kind} ${value}`);
  };
  const walk = (value: unknown, kind: IdKind | undefined): void => {
    if (Array.isArray(value)) {
      for (const item of value) walk(item, kind);
      return;
    }
    if (typeof value !== 'object' || value === null) return;
    const record = value as Record<string, unknown>;
    const topicKind = typeof record.topic === 'string' ? TOPICS[record.topic.split('.')[0]!] : undefined;
    for (const [key, field] of Object.entries(record)) {
      if (key === 'id') see(kind, field);
      else if (key === 'subjectId') see(topicKind, field);
      else if (key === 'data') walk(field, topicKind);
      else if (REFERENCES[key] !== undefined) for (const id of Array.isArray(field) ? field : [field]) see(REFERENCES[key], id);
      else walk(field, EMBEDDED[key]);
    }
  };
  walk(body, kindOfRoute(url));
  return found;
}

import type { PricedSku, TradePrice } from '../../contract/trade-prices.js';
import type { Page } from '../shared/page.js';

export interface TradePriceFilter {
  customerId?: number;
  productId?: number;
  sku?: string;
  /** Only SKUs containing this text, the letters A–Z in either case. */
  skuContains?: string;
  /** Canonical timestamp: only records valid then. */
  validAt?: string;
}

/** The order of a list page: a field, ascending or descending; ties by id the same way. */
export interface TradePriceOrder {
  field: 'id' | 'sku' | 'productId' | 'price' | 'minQuantity' | 'validFrom' | 'validUntil';
  descending: boolean;
}

/** A trade price to insert: a customer's price for one SKU. */
export type NewTradePrice = PricedSku & Pick<TradePrice, 'customerId'>;

/** What a bulk create refers to, looked up for the whole batch at once. */
export interface BatchReferences {
  /** Customers of the store among those asked for, with their trade flag. */
  customers: ReadonlyMap<number, { trade: boolean }>;
  /** Products of the store among those asked for. */
  productIds: ReadonlySet<number>;
  /** The product owning each SKU of the store among those asked for. */
  skuOwners: ReadonlyMap<string, number>;
}

/**
 * A customer's records by SKU range, in the database's order of SKUs: above `after` (from the
 * first when null), up to and including `upTo` (to the last when null), leaving out `except`.
 */
export interface SkuRange {
  after: string | null;
  upTo: string | null;
  except: readonly string[];
}

/** Whose trade prices a cascade removes: a customer's, a product's, or those of one SKU of a product. */
export type TradePriceOwner = { customerId: number } | { productId: number; sku?: string };

/** The records that still price one SKU of a product: how many, and the first few (lowest ids). */
export interface RecordsOfSku<T> {
  count: number;
  lowest: T[];
}

export interface TradePriceRepository {
  /** Multi-row inserts (as few as the engine's parameter limit allows); the records come back in the order given. */
  insertMany(storeId: number, items: readonly NewTradePrice[], createdAt: string): Promise<TradePrice[]>;
  /** A page in `order` (default: by id, ascending). */
  list(storeId: number, filter: TradePriceFilter, page: Page, order?: TradePriceOrder): Promise<TradePrice[]>;
  count(storeId: number, filter: TradePriceFilter): Promise<number>;
  find(storeId: number, id: number): Promise<TradePrice | undefined>;
  /** Those of these ids that are live records of the store, by id. */
  findMany(storeId: number, ids: readonly number[]): Promise<TradePrice[]>;
  /** Of these ids, the deleted records of the store as they were when they last went (none for an id never deleted). */
  lastDeleted(storeId: number, ids: readonly number[]): Promise<TradePrice[]>;
  /** Puts deleted records back with their own ids and every field as it was, `createdAt` the moment they come back. */
  restore(storeId: number, records: readonly TradePrice[], createdAt: string): Promise<TradePrice[]>;
  /** The deleted record, or undefined when there was none. */
  delete(storeId: number, id: number, deletedAt: string): Promise<TradePrice | undefined>;
  /** Every record of the customer (of these SKUs only, when given), by id. */
  allOf(storeId: number, customerId: number, skus?: readonly string[]): Promise<TradePrice[]>;
  /** Deletes these records of the store. */
  deleteMany(storeId: number, ids: readonly number[], deletedAt: string): Promise<void>;
  /** Up to `limit` records of the customer in the SKU range, by SKU (an import's replace walks a customer's records this way). */
  customerRange(storeId: number, customerId: number, range: SkuRange, limit: number): Promise<TradePrice[]>;
  /** How many records of the customer the SKU range holds. */
  countCustomerRange(storeId: number, customerId: number, range: SkuRange): Promise<number>;
  /**
   * Deletes the `limit` lowest-id trade prices of the customer or product with an id above
   * `afterId` (all of them when fewer) and returns them in id order: a large cascade goes in
   * bounded batches, each starting where the last ended.
   */
  deleteBatchOf(storeId: number, owner: TradePriceOwner, afterId: number, limit: number, deletedAt: string): Promise<TradePrice[]>;
  /** The records recorded for this product and SKU: a count and at most `shown` lowest ids, never every row. */
  recordsOfSku(storeId: number, productId: number, sku: string, shown: number): Promise<RecordsOfSku<{ id: number }>>;
  /**
   * Three set-based queries, however large the batch. Inside a transaction, where the engine
   * locks rows, the SKUs found stay registered to their products until it ends: a rename or a
   * variation's deletion waits for it, and then sees the prices it wrote.
   */
  findReferences(storeId: number, customerIds: readonly number[], productIds: readonly number[], skus: readonly string[]): Promise<BatchReferences>;
}

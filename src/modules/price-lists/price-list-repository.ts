import type { PriceList, PriceListKind, PriceListPolicy, PriceListPrice } from '../../contract/price-lists.js';
import type { QuantityRule } from '../../contract/quantity-rules.js';
import type { PricedSku } from '../../contract/trade-prices.js';
import type { Rounding } from '../currency/rounding.js';
import type { Page } from '../shared/page.js';
import type { RecordsOfSku } from '../trade-prices/trade-price-repository.js';

/** An entry as it is stored, checked, before it has an id: a priced SKU and its own quantity rule. */
export type PricedEntry = PricedSku & { quantityRule: QuantityRule | null };

export interface PriceListFilter {
  kind?: PriceListKind;
}

export interface PriceListPriceFilter {
  productId?: number;
  sku?: string;
  /** Canonical timestamp: only entries valid then. */
  validAt?: string;
}

/** Which of a list's entries a read in key order takes: of a product, of one SKU, of any of these SKUs. */
export interface KeyOrderFilter {
  productId?: number;
  sku?: string;
  skus?: readonly string[];
}

/** A list as stored: the percentage in ten-thousandths of a percent. */
export interface NewPriceList {
  name: string;
  kind: PriceListKind;
  percentage: number | null;
  policy: PriceListPolicy;
  /** A percentage list's own rounding; null: the store's. */
  rounding: Rounding | null;
}

/** Whose entries a cascade removes: a list's, a product's, or those of one SKU of a product. */
export type PriceListPriceOwner = { priceListId: number } | { productId: number; sku?: string };

export interface PriceListRepository {
  list(storeId: number, filter: PriceListFilter, page: Page): Promise<PriceList[]>;
  count(storeId: number, filter: PriceListFilter): Promise<number>;
  find(storeId: number, id: number): Promise<PriceList | undefined>;
  /** Those of these ids that are lists of the store. */
  existingIds(storeId: number, ids: readonly number[]): Promise<Set<number>>;
  insert(storeId: number, list: NewPriceList, createdAt: string): Promise<PriceList>;
  update(storeId: number, id: number, patch: Partial<Pick<NewPriceList, 'name' | 'percentage' | 'policy' | 'rounding'>>): Promise<PriceList | undefined>;
  delete(storeId: number, id: number): Promise<boolean>;

  /** One multi-row insert; the entries come back in the order given. */
  insertPrices(storeId: number, priceListId: number, items: readonly PricedEntry[], createdAt: string): Promise<PriceListPrice[]>;
  listPrices(storeId: number, priceListId: number, filter: PriceListPriceFilter, page: Page): Promise<PriceListPrice[]>;
  countPrices(storeId: number, priceListId: number, filter: PriceListPriceFilter): Promise<number>;
  findPrice(storeId: number, priceListId: number, id: number): Promise<PriceListPrice | undefined>;
  /** Of these ids, the deleted entries of the store as they were when they last went. */
  lastDeletedPrices(storeId: number, ids: readonly number[]): Promise<PriceListPrice[]>;
  /** Puts deleted entries back with their own ids and every field as it was, `createdAt` the moment they come back. */
  restorePrices(storeId: number, entries: readonly PriceListPrice[], createdAt: string): Promise<PriceListPrice[]>;
  /** Deletes these entries of the list (a replace's leftovers), each kept as deleted. */
  deletePrices(storeId: number, priceListId: number, ids: readonly number[], deletedAt: string): Promise<void>;
  /** The deleted entry, or undefined when there was none. */
  deletePrice(storeId: number, priceListId: number, id: number, deletedAt: string): Promise<PriceListPrice | undefined>;
  /** Deletes the `limit` lowest-id entries of a list or product above `afterId`, returned in id order. */
  deletePriceBatchOf(storeId: number, owner: PriceListPriceOwner, afterId: number, limit: number, deletedAt: string): Promise<PriceListPrice[]>;
  /**
   * The list's entries in key order (SKU, product, quantity break; within a key by id, in the
   * order the engine's index holds them), the `limit` that follow `after` (an entry read last;
   * undefined: from the first): the overlaps' and a replace's read, along the list's pricing index.
   */
  pricesInKeyOrder(storeId: number, priceListId: number, filter: KeyOrderFilter, after: PriceListPrice | undefined, limit: number): Promise<PriceListPrice[]>;
  /** The entries, of any list, recorded for this product and SKU: a count and at most `shown` lowest ids with their lists. */
  entriesOfSku(storeId: number, productId: number, sku: string, shown: number): Promise<RecordsOfSku<{ id: number; priceListId: number }>>;
}

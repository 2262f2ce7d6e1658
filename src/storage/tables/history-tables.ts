import type { Generated, Selectable } from 'kysely';
import type { TradePricesTable, PriceListPricesTable } from './price-tables.js';

/* The price history: its entries, each store's chain head and checkpoint, and the deleted priced records kept for reads of the past. */

/** One change to what a customer would pay (migration 015; docs/history.md). Append-only. */
export interface PriceHistoryTable {
  id: Generated<number>;
  store_id: number;
  /** The entry's place in its store's chain: 1, 2, 3… without gaps. */
  seq: number;
  at: string;
  /** `trade_price`, `price_list_entry`, `price_list`, `customer`, `product` or `variation`. */
  resource: string;
  resource_id: number;
  /** `created`, `updated` or `deleted`. */
  change: string;
  /** The record before and after the change as the API shows it, JSON; null when there was none. */
  before: string | null;
  after: string | null;
  customer_id: number | null;
  product_id: number | null;
  price_list_id: number | null;
  sku: string | null;
  /** `key` or `staff`. */
  actor_type: string;
  actor_id: number;
  actor_name: string;
  /** `api`, `admin`, `import` or `changeset`; `source_id` the import's or change set's id. */
  source: string;
  source_id: number | null;
  request_id: string | null;
  prev_hash: string;
  hash: string;
}

/** Each store's chain head: its last entry's `seq` and `hash`. Its row lock orders appends. */
export interface PriceHistoryHeadsTable {
  store_id: number;
  seq: number;
  hash: string;
}

/** Where a store's chain starts after a retention cut (migration 018): the last entry cut, signed. */
export interface PriceHistoryCheckpointsTable {
  store_id: number;
  seq: number;
  hash: string;
  /** The `at` of the last entry cut. */
  last_cut_at: string;
  cut_at: string;
  /** HMAC-SHA256 under the history key, hex (modules/history/checkpoint-signature.ts). */
  signature: string;
}

/**
 * A row deleted from a live table, kept in its `…_deleted` twin (migration 015): the row as it
 * was, every column plain (an id or a default is copied, not generated), and when it went.
 */
export type DeletedRow<Live> = Selectable<Live> & { deleted_at: string };

/** A trade price deleted. */
export type TradePricesDeletedTable = DeletedRow<TradePricesTable>;

/** A price list entry deleted. */
export type PriceListPricesDeletedTable = DeletedRow<PriceListPricesTable>;

/** Price history and the deleted rows of live price tables: this area's tables, by name (composed into `Tables`). */
export interface HistoryTables {
  price_history: PriceHistoryTable;
  price_history_heads: PriceHistoryHeadsTable;
  price_history_checkpoints: PriceHistoryCheckpointsTable;
  trade_prices_deleted: TradePricesDeletedTable;
  price_list_prices_deleted: PriceListPricesDeletedTable;
}

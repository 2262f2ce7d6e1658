import type { PriceListPrice } from '../../contract/price-lists.js';
import type { TradePrice } from '../../contract/trade-prices.js';
import type { Page } from '../shared/page.js';
import type { Actor, ChangeOrigin, HistoryEntry, HistoryRecord, HistoryResource } from './history-entry.js';

/** What `GET /v1/price-history` narrows by; every field left out matches all. */
export interface HistoryFilter {
  customerId?: number;
  sku?: string;
  productId?: number;
  priceListId?: number;
  actorType?: Actor['type'];
  actorId?: number;
  resource?: HistoryResource;
  /** `from ≤ at < until`, ISO 8601 UTC. */
  from?: string;
  until?: string;
}

/** Where a walk of the chain stands: after the row `id` of seq `seq` ({0, 0}: at the start). */
export interface ChainCursor {
  seq: number;
  id: number;
}

/** A store's last entry: what the head row holds. */
export interface ChainHead {
  seq: number;
  hash: string;
}

/**
 * Where a store's chain starts once retention has cut its oldest entries: the `seq` and `hash`
 * of the last entry cut, when, and an HMAC-SHA256 under the server's history key over those
 * (modules/history/checkpoint-signature.ts), so what remains still verifies.
 */
export interface HistoryCheckpoint {
  storeId: number;
  seq: number;
  hash: string;
  /** When the cut was made. */
  cutAt: string;
  /** The `at` of the last entry cut: as-of reads before it answer with what is left. */
  lastCutAt: string;
  signature: string;
}

/** The records kept in tables of their own beside the history, which as-of reads use: `pricebook history verify` checks them against it. */
export type KeptResource = 'trade_price' | 'price_list_entry';

/** A trade price or list entry as its table holds it. */
export interface KeptRecord {
  resource: KeptResource;
  /** As the API shows it. */
  record: TradePrice | PriceListPrice;
  /** null: live (`trade_prices`, `price_list_prices`); else the moment this stretch of its life ended (its `…_deleted` row). */
  deletedAt: string | null;
}

/** Where a walk of a table of kept records stands: before the first, `KEPT_START`. What it holds is the repository's. */
export interface KeptCursor {
  readonly position: readonly [number, number, string];
}

export const KEPT_START: KeptCursor = { position: [0, 0, ''] };

/**
 * The price history's storage. Append-only: nothing here changes or removes an entry, but for
 * a retention cut, which removes the oldest stretch of a chain and leaves a signed checkpoint.
 */
export interface HistoryRepository {
  /**
   * Takes the store's chain lock until the transaction ends (on an engine that locks rows;
   * SQLite's write transaction already holds the database). Every transaction that will
   * append takes it before its first write, so price writers queue on it in one order and
   * never wait on each other's row locks while holding it.
   */
  lockChain(storeId: number): Promise<void>;
  /** Appends the records, in order, at the store's chain head: each gets the next `seq` and its `hash`. */
  append(storeId: number, at: string, origin: ChangeOrigin, records: readonly HistoryRecord[]): Promise<void>;

  /** A page of the store's entries matching the filter, newest (highest seq) first. */
  list(storeId: number, filter: HistoryFilter, page: Page): Promise<HistoryEntry[]>;
  count(storeId: number, filter: HistoryFilter): Promise<number>;
  /**
   * Up to `limit` of the store's entries after `after` in (seq, row id) order: the chain's walk.
   * The row id only matters to a chain tampered with: two rows of one seq both come out.
   */
  chain(storeId: number, after: ChainCursor, limit: number): Promise<HistoryEntry[]>;
  /** The store's head row as stored; undefined when it has none (it never appended). Takes no lock. */
  readHead(storeId: number): Promise<ChainHead | undefined>;
  checkpoint(storeId: number): Promise<HistoryCheckpoint | undefined>;
  /** Deletes the store's entries up to `checkpoint.seq` and makes `checkpoint` the store's one checkpoint; answers how many went. */
  cut(checkpoint: HistoryCheckpoint): Promise<number>;

  /**
   * Up to `limit` of the store's live (`deleted` false) or deleted records of `resource` after
   * `after`, in an order of the table's index, and the cursor after the last. Reads for
   * `pricebook history verify`.
   */
  keptRecords(
    storeId: number,
    resource: KeptResource,
    deleted: boolean,
    after: KeptCursor,
    limit: number,
  ): Promise<{ records: KeptRecord[]; next: KeptCursor }>;
  /** Every live and deleted row of these ids (at most 1000). */
  keptRecordsOf(storeId: number, resource: KeptResource, ids: readonly number[]): Promise<KeptRecord[]>;
  /** The entries that created or deleted these records (at most 1000 ids), in seq order. */
  entriesOf(storeId: number, resource: KeptResource, ids: readonly number[]): Promise<HistoryEntry[]>;
  /** When the history began (its migration ran): records created before have no entry of their creation. Null when unknown. */
  startedAt(): Promise<string | null>;
}

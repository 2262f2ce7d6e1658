import type { TradePrice } from '../../contract/trade-prices.js';
import { deleteInBatches } from '../batched-delete.js';
import { eventOf, eventsOf } from '../events/events.js';
import { tradePriceRecord } from '../history/change-records.js';
import type { ChangeOrigin, HistoryRecord } from '../history/history-entry.js';
import type { Repositories } from '../unit-of-work.js';
import { nextTurn } from '../yield-to-other-work.js';
import type { PriceDiff } from './price-diff.js';
import type { NewTradePrice, TradePriceOwner } from './trade-price-repository.js';

/**
 * Records written, with their events, per batch: a batch of 500 (a cascade's) kept SQLite busy
 * for 12 to 25 ms on a loaded 2-core machine; 250 leaves room within the 50 ms a turn may take.
 */
export const WRITE_BATCH = 250;

export interface TradePriceWritesOptions {
  /** Records per batch; default WRITE_BATCH. */
  batch?: number;
  /** Between batches (and after the last creation, so a commit gets a turn of its own); default a turn of the event loop. */
  pace?: () => Promise<void>;
  /** Before each batch is created, inside the transaction: throws to refuse it (an import checks its SKUs again). */
  beforeCreate?: (batch: readonly NewTradePrice[]) => Promise<void>;
}

/**
 * The one way trade prices change. Every writer goes through it inside its own transaction:
 * bulk create, replace, imports, a single delete, and the cascades of a customer's, a
 * product's or a SKU's deletion. Each record created or deleted gets its event here and
 * nowhere else, in the order of the writes, and its price history entry (`origin` says who
 * made it and how) right after, in the same transaction: no writer can bypass either.
 * The store's history chain is locked before the first write (its callers lock it first of
 * all, at the start of their transaction; taking it again costs nothing).
 *
 * Work is bounded: records go in batches (`batch`), each followed by `pace`, which by default
 * is a turn of the event loop, not a pause: the transaction holds SQLite's one writer, and a
 * pause would be time other writes wait.
 */
export class TradePriceWrites {
  private readonly batch: number;
  private readonly pace: () => Promise<void>;
  private locked = false;

  constructor(
    private readonly repos: Repositories,
    private readonly storeId: number,
    /** Who makes the changes and how: every history entry written here carries it. */
    private readonly origin: ChangeOrigin,
    /** When the changes happen: the records' `createdAt` and their events'. */
    private readonly changedAt: string,
    private readonly options: TradePriceWritesOptions = {},
  ) {
    this.batch = options.batch ?? WRITE_BATCH;
    this.pace = options.pace ?? nextTurn;
  }

  /** Creates the prices, each with a `trade_customer_product_price.created` event; the records come back in the order given. */
  async create(prices: readonly NewTradePrice[]): Promise<TradePrice[]> {
    const created: TradePrice[] = [];
    for (let start = 0; start < prices.length; start += this.batch) {
      const batch = prices.slice(start, start + this.batch);
      await this.lock();
      await this.options.beforeCreate?.(batch);
      const records = await this.repos.tradePrices.insertMany(this.storeId, batch, this.changedAt);
      await this.repos.events.append(eventsOf(this.storeId, 'trade_customer_product_price.created', records), this.changedAt);
      // The rows, then their history, each a stretch of work of its own (on SQLite, a batch's
      // statements run on the event loop: together they held it past 50 ms).
      await this.pace();
      await this.record(records.map((record) => tradePriceRecord(null, record)));
      created.push(...records);
      await this.pace();
    }
    return created;
  }

  /** Deletes these records, each with a `trade_customer_product_price.deleted` event, in the order given. */
  async remove(records: readonly TradePrice[]): Promise<void> {
    for (let start = 0; start < records.length; start += this.batch) {
      const batch = records.slice(start, start + this.batch);
      await this.lock();
      await this.repos.tradePrices.deleteMany(
        this.storeId,
        batch.map((record) => record.id),
        this.changedAt,
      );
      await this.repos.events.append(eventsOf(this.storeId, 'trade_customer_product_price.deleted', batch), this.changedAt);
      await this.pace();
      await this.record(batch.map((record) => tradePriceRecord(record, null)));
      await this.pace();
    }
  }

  /**
   * Puts deleted records back as they were, with their own ids (a change set's revert): each
   * with a `trade_customer_product_price.created` event and a `created` history entry, the
   * record's `createdAt` the moment it comes back. An id keeps its place in the tie rule.
   */
  async restore(records: readonly TradePrice[]): Promise<TradePrice[]> {
    const restored: TradePrice[] = [];
    for (let start = 0; start < records.length; start += this.batch) {
      await this.lock();
      const batch = await this.repos.tradePrices.restore(this.storeId, records.slice(start, start + this.batch), this.changedAt);
      await this.repos.events.append(eventsOf(this.storeId, 'trade_customer_product_price.created', batch), this.changedAt);
      await this.record(batch.map((record) => tradePriceRecord(null, record)));
      restored.push(...batch);
      await this.pace();
    }
    return restored;
  }

  /** A diff made real: its removals first, then its creations (so the feed reads as one write would make it); the created records in `diff.create`'s order. */
  async apply(diff: Pick<PriceDiff, 'create' | 'remove'>): Promise<TradePrice[]> {
    await this.remove(diff.remove);
    return this.create(diff.create);
  }

  /** Deletes one record with its event; undefined when the store has no record `id`. */
  async removeById(id: number): Promise<TradePrice | undefined> {
    await this.lock();
    const deleted = await this.repos.tradePrices.delete(this.storeId, id, this.changedAt);
    if (deleted !== undefined) {
      await this.repos.events.append([eventOf(this.storeId, 'trade_customer_product_price.deleted', deleted)], this.changedAt);
      await this.record([tradePriceRecord(deleted, null)]);
    }
    return deleted;
  }

  /** Deletes every record of a customer, a product or one SKU of a product (a cascade), in id order, in bounded batches with their events. */
  async removeAllOf(owner: TradePriceOwner): Promise<void> {
    await this.lock();
    await deleteInBatches(
      (afterId, limit) => this.repos.tradePrices.deleteBatchOf(this.storeId, owner, afterId, limit, this.changedAt),
      async (batch) => {
        await this.repos.events.append(eventsOf(this.storeId, 'trade_customer_product_price.deleted', batch), this.changedAt);
        await this.record(batch.map((record) => tradePriceRecord(record, null)));
      },
    );
  }

  /** The store's history chain, locked once before the first write (rule: lock before writing). */
  private async lock(): Promise<void> {
    if (this.locked) return;
    await this.repos.history.lockChain(this.storeId);
    this.locked = true;
  }

  private record(records: readonly HistoryRecord[]): Promise<void> {
    return this.repos.history.append(this.storeId, this.changedAt, this.origin, records);
  }
}

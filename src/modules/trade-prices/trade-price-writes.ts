import type { TradePrice } from '../../contract/trade-prices.js';
import { deleteInBatches } from '../batched-delete.js';
import { eventOf, eventsOf } from '../events/events.js';
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
 * nowhere else, in the order of the writes; a record of every change (a price history, a
 * change set's rollback) belongs here too, so that no writer can bypass it.
 *
 * Work is bounded: records go in batches (`batch`), each followed by `pace`, which by default
 * is a turn of the event loop, not a pause: the transaction holds SQLite's one writer, and a
 * pause would be time other writes wait.
 */
export class TradePriceWrites {
  private readonly batch: number;
  private readonly pace: () => Promise<void>;

  constructor(
    private readonly repos: Repositories,
    private readonly storeId: number,
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
      await this.options.beforeCreate?.(batch);
      const records = await this.repos.tradePrices.insertMany(this.storeId, batch, this.changedAt);
      await this.repos.events.append(eventsOf(this.storeId, 'trade_customer_product_price.created', records), this.changedAt);
      created.push(...records);
      await this.pace();
    }
    return created;
  }

  /** Deletes these records, each with a `trade_customer_product_price.deleted` event, in the order given. */
  async remove(records: readonly TradePrice[]): Promise<void> {
    for (let start = 0; start < records.length; start += this.batch) {
      const batch = records.slice(start, start + this.batch);
      await this.repos.tradePrices.deleteMany(
        this.storeId,
        batch.map((record) => record.id),
        this.changedAt,
      );
      await this.repos.events.append(eventsOf(this.storeId, 'trade_customer_product_price.deleted', batch), this.changedAt);
      await this.pace();
    }
  }

  /** A diff made real: its removals first, then its creations (so the feed reads as one write would make it); the created records in `diff.create`'s order. */
  async apply(diff: Pick<PriceDiff, 'create' | 'remove'>): Promise<TradePrice[]> {
    await this.remove(diff.remove);
    return this.create(diff.create);
  }

  /** Deletes one record with its event; undefined when the store has no record `id`. */
  async removeById(id: number): Promise<TradePrice | undefined> {
    const deleted = await this.repos.tradePrices.delete(this.storeId, id, this.changedAt);
    if (deleted !== undefined) await this.repos.events.append([eventOf(this.storeId, 'trade_customer_product_price.deleted', deleted)], this.changedAt);
    return deleted;
  }

  /** Deletes every record of a customer, a product or one SKU of a product (a cascade), in id order, in bounded batches with their events. */
  removeAllOf(owner: TradePriceOwner): Promise<void> {
    return deleteInBatches(
      (afterId, limit) => this.repos.tradePrices.deleteBatchOf(this.storeId, owner, afterId, limit, this.changedAt),
      (batch) => this.repos.events.append(eventsOf(this.storeId, 'trade_customer_product_price.deleted', batch), this.changedAt),
    );
  }
}

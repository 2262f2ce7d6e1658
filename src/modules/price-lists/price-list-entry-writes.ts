import type { PriceListPrice } from '../../contract/price-lists.js';
import { deleteInBatches } from '../batched-delete.js';
import { eventOf, eventsOf } from '../events/events.js';
import { listEntryRecord } from '../history/change-records.js';
import type { ChangeOrigin, HistoryRecord } from '../history/history-entry.js';
import type { Repositories } from '../unit-of-work.js';
import type { PriceDiff } from '../trade-prices/price-diff.js';
import type { PricedEntry, PriceListPriceOwner } from './price-list-repository.js';

export interface PriceListEntryWritesOptions {
  /** Entries created or deleted per statement; default 1000 (a bulk create's, in one statement). */
  batch?: number;
  /** After each batch; default nothing (a replace gives other requests a turn, `nextTurn`). */
  pace?: () => Promise<void>;
}

/**
 * The one way price list entries change, the twin of `TradePriceWrites`: the bulk create, a
 * single delete, and the cascades of a list's, a product's or a SKU's deletion all go through
 * it inside their transaction, and each entry created or deleted gets its event and its price
 * history entry (carrying `origin`) here and nowhere else. The store's history chain is locked
 * before the first write.
 */
export class PriceListEntryWrites {
  private locked = false;
  private readonly batch: number;
  private readonly pace: () => Promise<void>;

  constructor(
    private readonly repos: Repositories,
    private readonly storeId: number,
    /** Who makes the changes and how: every history entry written here carries it. */
    private readonly origin: ChangeOrigin,
    /** When the changes happen: the entries' `createdAt` and their events'. */
    private readonly changedAt: string,
    options: PriceListEntryWritesOptions = {},
  ) {
    this.batch = options.batch ?? 1000;
    this.pace = options.pace ?? (async () => undefined);
  }

  /** Adds entries to a fixed list, `batch` a statement, each with a `price_list_price.created` event; the entries come back in the order given. */
  async create(priceListId: number, entries: readonly PricedEntry[]): Promise<PriceListPrice[]> {
    await this.lock();
    const created: PriceListPrice[] = [];
    for (let start = 0; start < entries.length; start += this.batch) {
      const batch = await this.repos.priceLists.insertPrices(this.storeId, priceListId, entries.slice(start, start + this.batch), this.changedAt);
      await this.repos.events.append(eventsOf(this.storeId, 'price_list_price.created', batch), this.changedAt);
      // The rows, then their history, each a stretch of work of its own (as `TradePriceWrites` does).
      await this.pace();
      await this.record(batch.map((entry) => listEntryRecord(null, entry)));
      created.push(...batch);
      await this.pace();
    }
    return created;
  }

  /** Deletes these entries of a list, `batch` a statement, each with a `price_list_price.deleted` event, in the order given. */
  async remove(priceListId: number, entries: readonly PriceListPrice[]): Promise<void> {
    await this.lock();
    for (let start = 0; start < entries.length; start += this.batch) {
      const batch = entries.slice(start, start + this.batch);
      await this.repos.priceLists.deletePrices(
        this.storeId,
        priceListId,
        batch.map((entry) => entry.id),
        this.changedAt,
      );
      await this.repos.events.append(eventsOf(this.storeId, 'price_list_price.deleted', batch), this.changedAt);
      await this.pace();
      await this.record(batch.map((entry) => listEntryRecord(entry, null)));
      await this.pace();
    }
  }

  /** A replace's diff made real: its removals first, then its creations; the created entries in `diff.create`'s order. */
  async apply(priceListId: number, diff: Pick<PriceDiff<PriceListPrice, PricedEntry>, 'create' | 'remove'>): Promise<PriceListPrice[]> {
    await this.remove(priceListId, diff.remove);
    return this.create(priceListId, diff.create);
  }

  /** Puts deleted entries back as they were, with their own ids (a change set's revert), each with its `price_list_price.created` event. */
  async restore(entries: readonly PriceListPrice[]): Promise<PriceListPrice[]> {
    await this.lock();
    const restored = await this.repos.priceLists.restorePrices(this.storeId, entries, this.changedAt);
    await this.repos.events.append(eventsOf(this.storeId, 'price_list_price.created', restored), this.changedAt);
    await this.record(restored.map((entry) => listEntryRecord(null, entry)));
    return restored;
  }

  /** Deletes one entry of a list with its event; undefined when the list has no entry `id`. */
  async removeById(priceListId: number, id: number): Promise<PriceListPrice | undefined> {
    await this.lock();
    const deleted = await this.repos.priceLists.deletePrice(this.storeId, priceListId, id, this.changedAt);
    if (deleted !== undefined) {
      await this.repos.events.append([eventOf(this.storeId, 'price_list_price.deleted', deleted)], this.changedAt);
      await this.record([listEntryRecord(deleted, null)]);
    }
    return deleted;
  }

  /** Deletes every entry of a list, a product or one SKU of a product (a cascade), in id order, in bounded batches with their events. */
  async removeAllOf(owner: PriceListPriceOwner): Promise<void> {
    await this.lock();
    await deleteInBatches(
      (afterId, limit) => this.repos.priceLists.deletePriceBatchOf(this.storeId, owner, afterId, limit, this.changedAt),
      async (batch) => {
        await this.repos.events.append(eventsOf(this.storeId, 'price_list_price.deleted', batch), this.changedAt);
        await this.record(batch.map((entry) => listEntryRecord(entry, null)));
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

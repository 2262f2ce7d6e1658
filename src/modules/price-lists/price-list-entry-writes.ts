import type { PriceListPrice } from '../../contract/price-lists.js';
import type { PricedSku } from '../../contract/trade-prices.js';
import { deleteInBatches } from '../batched-delete.js';
import { eventOf, eventsOf } from '../events/events.js';
import { listEntryRecord } from '../history/change-records.js';
import type { ChangeOrigin, HistoryRecord } from '../history/history-entry.js';
import type { Repositories } from '../unit-of-work.js';
import type { PriceListPriceOwner } from './price-list-repository.js';

/**
 * The one way price list entries change, the twin of `TradePriceWrites`: the bulk create, a
 * single delete, and the cascades of a list's, a product's or a SKU's deletion all go through
 * it inside their transaction, and each entry created or deleted gets its event and its price
 * history entry (carrying `origin`) here and nowhere else. The store's history chain is locked
 * before the first write.
 */
export class PriceListEntryWrites {
  private locked = false;

  constructor(
    private readonly repos: Repositories,
    private readonly storeId: number,
    /** Who makes the changes and how: every history entry written here carries it. */
    private readonly origin: ChangeOrigin,
    /** When the changes happen: the entries' `createdAt` and their events'. */
    private readonly changedAt: string,
  ) {}

  /** Adds entries to a fixed list (at most a bulk create's 1000, in one statement), each with a `price_list_price.created` event. */
  async create(priceListId: number, entries: readonly PricedSku[]): Promise<PriceListPrice[]> {
    await this.lock();
    const created = await this.repos.priceLists.insertPrices(this.storeId, priceListId, entries, this.changedAt);
    await this.repos.events.append(eventsOf(this.storeId, 'price_list_price.created', created), this.changedAt);
    await this.record(created.map((entry) => listEntryRecord(null, entry)));
    return created;
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

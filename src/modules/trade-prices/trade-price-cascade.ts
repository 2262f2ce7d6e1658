import { eventsOf } from '../events/events.js';
import type { Repositories } from '../unit-of-work.js';
import { batchStart, yieldToOtherWork } from '../yield-to-other-work.js';
import type { TradePriceOwner } from './trade-price-repository.js';

/** Trade prices removed, and their events written, per batch of a cascade. */
export const CASCADE_BATCH = 500;

/**
 * Deletes every trade price of a customer or product inside the caller's transaction, with a
 * `trade_customer_product_price.deleted` event for each (in id order), a batch at a time:
 * memory holds one batch whatever the count, and between batches the event loop serves
 * other requests (reads do not wait for this transaction; see the SQLite dialect).
 */
export async function deleteTradePricesOf(repos: Repositories, storeId: number, owner: TradePriceOwner, createdAt: string): Promise<void> {
  for (let afterId = 0; ; ) {
    const started = batchStart();
    const batch = await repos.tradePrices.deleteBatchOf(storeId, owner, afterId, CASCADE_BATCH);
    await repos.events.append(eventsOf(storeId, 'trade_customer_product_price.deleted', batch), createdAt);
    // A short batch was the last; each full one removed rows, so the loop ends.
    if (batch.length < CASCADE_BATCH) return;
    afterId = batch[batch.length - 1]!.id;
    await yieldToOtherWork(started);
  }
}

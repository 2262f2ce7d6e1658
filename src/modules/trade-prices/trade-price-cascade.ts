import { deleteInBatches } from '../batched-delete.js';
import { eventsOf } from '../events/events.js';
import type { Repositories } from '../unit-of-work.js';
import type { TradePriceOwner } from './trade-price-repository.js';

export { CASCADE_BATCH } from '../batched-delete.js';

/**
 * Deletes every trade price of a customer or product inside the caller's transaction, with a
 * `trade_customer_product_price.deleted` event for each (in id order), in bounded batches.
 */
export function deleteTradePricesOf(repos: Repositories, storeId: number, owner: TradePriceOwner, createdAt: string): Promise<void> {
  return deleteInBatches(
    (afterId, limit) => repos.tradePrices.deleteBatchOf(storeId, owner, afterId, limit),
    (batch) => repos.events.append(eventsOf(storeId, 'trade_customer_product_price.deleted', batch), createdAt),
  );
}

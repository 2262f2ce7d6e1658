import { AppError } from '../shared/errors.js';
import type { ChangeOrigin } from '../history/history-entry.js';
import { PriceListEntryWrites } from '../price-lists/price-list-entry-writes.js';
import { TradePriceWrites } from '../trade-prices/trade-price-writes.js';
import type { Repositories } from '../shared/unit-of-work.js';

/**
 * A trade price or price list entry belongs to the product it was recorded for, under one of
 * that product's SKUs (docs/pricing.md, "A price belongs to its product"). When a SKU leaves its
 * product, its prices must not stay behind to price whichever product takes the SKU next: a
 * rename is refused while they exist, a deleted variation takes them with it.
 *
 * Both functions expect the caller to have released the SKU in its transaction first: from
 * then on no other writer can register it or write a price checked against it.
 */

/** Ids named in a refusal, of each kind of record. */
export const SKU_PRICE_IDS_SHOWN = 5;

/**
 * Refuses (409, `in_use`) to take `sku` away from product `productId` while trade prices or
 * price list entries recorded for them remain. The message counts them and names the first
 * few; the work is two bounded queries per kind whatever their number.
 */
export async function refuseWhilePriced(repos: Repositories, storeId: number, productId: number, sku: string, change: 'renaming' | 'removing'): Promise<void> {
  const trade = await repos.tradePrices.recordsOfSku(storeId, productId, sku, SKU_PRICE_IDS_SHOWN);
  const entries = await repos.priceLists.entriesOfSku(storeId, productId, sku, SKU_PRICE_IDS_SHOWN);
  if (trade.count === 0 && entries.count === 0) return;
  const parts: string[] = [];
  if (trade.count > 0)
    parts.push(
      counted(
        trade.count,
        'trade price',
        'trade prices',
        trade.lowest.map((record) => String(record.id)),
      ),
    );
  if (entries.count > 0) {
    parts.push(
      counted(
        entries.count,
        'price list entry',
        'price list entries',
        entries.lowest.map((entry) => `${entry.id} of list ${entry.priceListId}`),
      ),
    );
  }
  const them = trade.count + entries.count === 1 ? 'it' : 'them';
  throw new AppError('in_use', `SKU '${sku}' has ${parts.join(' and ')}: delete ${them} before ${change} the SKU`);
}

/**
 * Deletes the trade prices and price list entries of a product, or of one SKU of it (a
 * variation's deletion): in bounded batches, each record with its `…deleted` event, trade
 * prices first.
 */
export async function deletePricesOf(
  repos: Repositories,
  storeId: number,
  origin: ChangeOrigin,
  owner: { productId: number; sku?: string },
  deletedAt: string,
): Promise<void> {
  await new TradePriceWrites(repos, storeId, origin, deletedAt).removeAllOf(owner);
  await new PriceListEntryWrites(repos, storeId, origin, deletedAt).removeAllOf(owner);
}

/** "3 trade prices (ids 4, 9, 12)", "1 trade price (id 4)", "12 trade prices (ids 1, 2, 3, 4, 5, …)". */
function counted(count: number, one: string, many: string, shown: readonly string[]): string {
  const more = count > shown.length ? ', …' : '';
  return `${count} ${count === 1 ? one : many} (${count === 1 ? 'id' : 'ids'} ${shown.join(', ')}${more})`;
}

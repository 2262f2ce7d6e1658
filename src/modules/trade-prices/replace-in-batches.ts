import type { TradePrice } from '../../contract/trade-prices.js';
import { eventsOf } from '../events/events.js';
import type { Repositories } from '../unit-of-work.js';
import { nextTurn } from '../yield-to-other-work.js';
import { diffPrices, type PriceDiff } from './price-diff.js';
import type { NewTradePrice } from './trade-price-repository.js';

/*
 * A replace at its maximum (10 000 prices over 10 000 others: 10 000 deleted, 10 000 created,
 * 20 000 events, one transaction) held the process for about 0.6 s in one piece on SQLite, whose
 * calls are synchronous. It now goes in steps, each followed by a turn of the event loop for
 * other requests: reading the customer's records, the diff, batches of REPLACE_BATCH records
 * with their events, the commit, the answer. A turn, not a pause (as a cascade takes): the
 * transaction holds SQLite's one writer, and every pause would be time other writes wait.
 */

/**
 * Records written, with their events, per batch: a batch of 500 (a cascade's) kept SQLite busy
 * for 12 to 25 ms on a loaded 2-core machine; 250 leaves room within the 50 ms a turn may take.
 */
const REPLACE_BATCH = 250;

/** The diff between the customer's stored prices (of `skus` only, when given) and `desired`. */
export async function diffWithStored(repos: Repositories, storeId: number, customerId: number, skus: readonly string[] | undefined, desired: readonly NewTradePrice[]): Promise<PriceDiff> {
  // The checks of the request's items come before: the read gets a turn of its own, and so does the diff.
  await nextTurn();
  const existing = await repos.tradePrices.allOf(storeId, customerId, skus);
  await nextTurn();
  return diffPrices(existing, desired);
}

/**
 * Writes a diff inside the caller's transaction: the removals, then the creations, in batches of
 * REPLACE_BATCH records, each with its events (so the feed is in the order one write would make
 * it). Returns the created records, in `diff.create`'s order.
 */
export async function applyPriceDiff(repos: Repositories, storeId: number, diff: Pick<PriceDiff, 'create' | 'remove'>, changedAt: string): Promise<TradePrice[]> {
  for (let start = 0; start < diff.remove.length; start += REPLACE_BATCH) {
    const batch = diff.remove.slice(start, start + REPLACE_BATCH);
    await repos.tradePrices.deleteMany(
      storeId,
      batch.map((record) => record.id),
    );
    await repos.events.append(eventsOf(storeId, 'trade_customer_product_price.deleted', batch), changedAt);
    await nextTurn();
  }
  const created: TradePrice[] = [];
  for (let start = 0; start < diff.create.length; start += REPLACE_BATCH) {
    const batch = await repos.tradePrices.insertMany(storeId, diff.create.slice(start, start + REPLACE_BATCH), changedAt);
    await repos.events.append(eventsOf(storeId, 'trade_customer_product_price.created', batch), changedAt);
    created.push(...batch);
    // After the last batch too: the commit that follows gets a turn of its own.
    await nextTurn();
  }
  return created;
}

/** `result` a turn of the event loop later: a long commit and the answer's serialising do not share one. */
export async function onNextTurn<T>(result: T): Promise<T> {
  await nextTurn();
  return result;
}

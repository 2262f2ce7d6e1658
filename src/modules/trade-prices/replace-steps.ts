import type { Repositories } from '../shared/unit-of-work.js';
import { nextTurn } from '../shared/long-work.js';
import { diffPrices, type PriceDiff } from './price-diff.js';
import type { NewTradePrice } from './trade-price-repository.js';

/*
 * A replace at its maximum (10 000 prices over 10 000 others: 10 000 deleted, 10 000 created,
 * 20 000 events, one transaction) held the process for about 0.6 s in one piece on SQLite, whose
 * calls are synchronous. It now goes in steps, each followed by a turn of the event loop for
 * other requests: reading the customer's records, the diff, the writes in batches
 * (`TradePriceWrites`), the commit, the answer.
 */

/** The diff between the customer's stored prices (of `skus` only, when given) and `desired`. */
export async function diffWithStored(
  repos: Repositories,
  storeId: number,
  customerId: number,
  skus: readonly string[] | undefined,
  desired: readonly NewTradePrice[],
): Promise<PriceDiff> {
  // The checks of the request's items come before: the read gets a turn of its own, and so does the diff.
  await nextTurn();
  const existing = await repos.tradePrices.allOf(storeId, customerId, skus);
  await nextTurn();
  return diffPrices(existing, desired);
}

export { onNextTurn } from '../shared/long-work.js';

import type { Caller } from './api-caller.js';
import { type IterateQuery, offsetPages } from './pages.js';
import type { CountResult, PriceHistoryCountQuery, PriceHistoryEntry, PriceHistoryHead, PriceHistoryListQuery } from './types.js';

/**
 * `/v1/price-history`: who changed which price, when, and what it was before, newest first
 * (docs/history.md). Read-only: nothing changes or deletes history.
 */
export class PriceHistoryResource {
  constructor(private readonly api: Caller) {}

  list(query: PriceHistoryListQuery = {}): Promise<PriceHistoryEntry[]> {
    return this.api.call('priceHistory.list', { query });
  }
  /** Every entry the query finds, newest first, page by page. Entries appended meanwhile shift the pages: read from a `until` for a fixed set. */
  iterate(query: IterateQuery<PriceHistoryListQuery> = {}): AsyncGenerator<PriceHistoryEntry, void, undefined> {
    return offsetPages((page) => this.list({ ...query, ...page }));
  }
  async count(query: PriceHistoryCountQuery = {}): Promise<number> {
    return (await this.api.call<CountResult>('priceHistory.count', { query })).count;
  }
  /** The store's last entry (`seq`, `hash`, `at`): an anchor to keep where the database's writers cannot reach, for `pricebook history verify --expect-head`. */
  head(): Promise<PriceHistoryHead> {
    return this.api.call('priceHistory.head', {});
  }
}

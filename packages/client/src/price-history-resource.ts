import type { Caller } from './api-caller.js';
import { type IterateQuery, offsetPages } from './pages.js';
import type { CountResult, PriceHistoryCountQuery, PriceHistoryEntry, PriceHistoryListQuery } from './types.js';

/** `GET /v1/price-history`: who changed which price, when, and from what (docs/history.md); newest first. */
export class PriceHistoryResource {
  constructor(private readonly api: Caller) {}

  list(query: PriceHistoryListQuery = {}): Promise<PriceHistoryEntry[]> {
    return this.api.call('priceHistory.list', { query });
  }
  /** Every entry the query selects, newest first, page after page. */
  iterate(query: IterateQuery<PriceHistoryListQuery> = {}): AsyncGenerator<PriceHistoryEntry, void, undefined> {
    return offsetPages((page) => this.list({ ...query, ...page }));
  }
  async count(query: PriceHistoryCountQuery = {}): Promise<number> {
    return (await this.api.call<CountResult>('priceHistory.count', { query })).count;
  }
}

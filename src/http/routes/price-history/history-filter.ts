import type { PriceHistoryCountQuery } from '../../../contract/price-history.js';
import type { HistoryFilter } from '../../../modules/history/history-repository.js';

/** The filters of a list or count query (the query parser has made `from` and `until` canonical UTC, which compare as text). */
export function filterOf(query: PriceHistoryCountQuery): HistoryFilter {
  const { customerId, sku, productId, priceListId, actorType, actorId, resource, from, until } = query;
  return { customerId, sku, productId, priceListId, actorType, actorId, resource, from, until };
}

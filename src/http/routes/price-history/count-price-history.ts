import { CountResponse } from '../../../contract/common.js';
import { PriceHistoryCountQuery } from '../../../contract/price-history.js';
import type { HistoryService } from '../../../modules/history/history-service.js';
import { type App, storeIdOf } from '../../plugins/app-types.js';
import { readErrors } from '../docs.js';
import { filterOf } from './history-filter.js';

export function countPriceHistory(app: App, history: HistoryService): void {
  app.get(
    '/v1/price-history/count',
    {
      schema: {
        operationId: 'priceHistory.count',
        tags: ['price history'],
        summary: 'Count price history entries',
        querystring: PriceHistoryCountQuery,
        response: { 200: CountResponse, ...readErrors },
      },
      config: { scope: 'trade_prices:read' },
    },
    async (request) => ({ count: await history.count(storeIdOf(request), filterOf(request.query)) }),
  );
}

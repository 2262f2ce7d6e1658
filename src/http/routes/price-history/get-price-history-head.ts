import { PriceHistoryHead, PriceHistoryHeadQuery } from '../../../contract/price-history.js';
import type { HistoryService } from '../../../modules/history/history-service.js';
import { type App, storeIdOf } from '../../plugins/app-types.js';
import { readErrors } from '../docs.js';

export function getPriceHistoryHead(app: App, history: HistoryService): void {
  app.get(
    '/v1/price-history/head',
    {
      schema: {
        operationId: 'priceHistory.head',
        tags: ['price history'],
        summary: 'The last entry of the store’s history chain: an anchor to keep elsewhere',
        description:
          'The `seq`, `hash` and `at` of the store’s newest entry. Kept where the database’s writers cannot reach, it lets `pricebook history verify --expect-head SEQ:HASH` show a chain cut short or written again since (docs/history.md, "Anchors").',
        querystring: PriceHistoryHeadQuery,
        response: { 200: PriceHistoryHead, ...readErrors },
      },
      config: { scope: 'trade_prices:read' },
    },
    (request) => history.head(storeIdOf(request)),
  );
}

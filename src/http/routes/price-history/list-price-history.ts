import { Type } from '@sinclair/typebox';
import { PriceHistoryEntry, PriceHistoryListQuery } from '../../../contract/price-history.js';
import type { HistoryService } from '../../../modules/history/history-service.js';
import { type App, pageOf, principalOf, storeIdOf } from '../../plugins/app-types.js';
import { readErrors } from '../docs.js';
import { filterOf } from './history-filter.js';

export function listPriceHistory(app: App, history: HistoryService): void {
  app.get(
    '/v1/price-history',
    {
      schema: {
        operationId: 'priceHistory.list',
        tags: ['price history'],
        summary: 'The price history: every change to what a customer would pay, newest first',
        description:
          'Entries by `id` (their place in the store’s chain) descending: newest first, unlike other lists. Append-only; nothing changes or deletes an entry. ' +
          'Entries about customers show their email, firstName, lastName and companyName only to a credential that also has `catalog:read`. docs/history.md has the details.',
        querystring: PriceHistoryListQuery,
        response: { 200: Type.Array(PriceHistoryEntry), ...readErrors },
      },
      config: { scope: 'trade_prices:read' },
    },
    async (request) => {
      const personal = principalOf(request).scopes.has('catalog:read');
      return history.list(storeIdOf(request), filterOf(request.query), pageOf(request.query), { personal });
    },
  );
}

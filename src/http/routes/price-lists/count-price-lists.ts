import { CountResponse } from '../../../contract/common.js';
import { PriceListCountQuery } from '../../../contract/price-lists.js';
import type { PriceListService } from '../../../modules/price-lists/price-list-service.js';
import { type App, storeIdOf } from '../../plugins/app-types.js';
import { readErrors } from '../docs.js';

export function countPriceLists(app: App, priceLists: PriceListService): void {
  app.get(
    '/v1/price-lists/count',
    {
      schema: {
        operationId: 'priceLists.count',
        tags: ['price lists'],
        summary: 'Count price lists',
        querystring: PriceListCountQuery,
        response: { 200: CountResponse, ...readErrors },
      },
      config: { scope: 'trade_prices:read' },
    },
    async (request) => ({ count: await priceLists.count(storeIdOf(request), { kind: request.query.kind }) }),
  );
}

import { IdParams } from '../../../contract/common.js';
import { PriceList, PriceListGetQuery } from '../../../contract/price-lists.js';
import type { PriceListService } from '../../../modules/price-lists/price-list-service.js';
import { type App, storeIdOf } from '../../plugins/app-types.js';
import { readErrors } from '../docs.js';

export function getPriceList(app: App, priceLists: PriceListService): void {
  app.get(
    '/v1/price-lists/:id',
    {
      schema: {
        operationId: 'priceLists.get',
        tags: ['price lists'],
        summary: 'Get a price list',
        params: IdParams,
        querystring: PriceListGetQuery,
        response: { 200: PriceList, ...readErrors },
      },
      config: { scope: 'trade_prices:read' },
    },
    async (request) => priceLists.get(storeIdOf(request), request.params.id),
  );
}

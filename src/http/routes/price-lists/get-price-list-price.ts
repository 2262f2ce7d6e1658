import { PriceListGetQuery, PriceListPrice, PriceListPriceParams } from '../../../contract/price-lists.js';
import type { PriceListService } from '../../../modules/price-lists/price-list-service.js';
import { type App, storeIdOf } from '../../plugins/app-types.js';
import { readErrors } from '../docs.js';

export function getPriceListPrice(app: App, priceLists: PriceListService): void {
  app.get(
    '/v1/price-lists/:id/prices/:priceId',
    {
      schema: {
        operationId: 'priceLists.prices.get',
        tags: ['price lists'],
        summary: 'Get an entry of a price list',
        params: PriceListPriceParams,
        querystring: PriceListGetQuery,
        response: { 200: PriceListPrice, ...readErrors },
      },
      config: { scope: 'trade_prices:read' },
    },
    async (request) => priceLists.getPrice(storeIdOf(request), request.params.id, request.params.priceId),
  );
}

import { CountResponse, IdParams } from '../../../contract/common.js';
import { PriceListPriceCountQuery } from '../../../contract/price-lists.js';
import type { PriceListService } from '../../../modules/price-lists/price-list-service.js';
import { type App, storeIdOf } from '../../plugins/app-types.js';
import { readErrors } from '../docs.js';

export function countPriceListPrices(app: App, priceLists: PriceListService): void {
  app.get(
    '/v1/price-lists/:id/prices/count',
    {
      schema: {
        operationId: 'priceLists.prices.count',
        tags: ['price lists'],
        summary: 'Count the entries of a price list',
        params: IdParams,
        querystring: PriceListPriceCountQuery,
        response: { 200: CountResponse, ...readErrors },
      },
      config: { scope: 'trade_prices:read' },
    },
    async (request) => {
      const { productId, sku, validAt } = request.query;
      return { count: await priceLists.countPrices(storeIdOf(request), request.params.id, { productId, sku, validAt }) };
    },
  );
}

import { Type } from '@sinclair/typebox';
import { IdParams } from '../../../contract/common.js';
import { PriceListPrice, PriceListPriceListQuery } from '../../../contract/price-lists.js';
import type { PriceListService } from '../../../modules/price-lists/price-list-service.js';
import { type App, pageOf, storeIdOf } from '../../plugins/app-types.js';
import { readErrors } from '../docs.js';

export function listPriceListPrices(app: App, priceLists: PriceListService): void {
  app.get(
    '/v1/price-lists/:id/prices',
    {
      schema: {
        operationId: 'priceLists.prices.list',
        tags: ['price lists'],
        summary: 'List the entries of a price list',
        params: IdParams,
        querystring: PriceListPriceListQuery,
        response: { 200: Type.Array(PriceListPrice), ...readErrors },
      },
      config: { scope: 'trade_prices:read' },
    },
    async (request) => {
      const { productId, sku, validAt } = request.query;
      return priceLists.listPrices(storeIdOf(request), request.params.id, { productId, sku, validAt }, pageOf(request.query));
    },
  );
}

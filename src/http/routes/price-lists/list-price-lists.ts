import { Type } from '@sinclair/typebox';
import { PriceList, PriceListListQuery } from '../../../contract/price-lists.js';
import type { PriceListService } from '../../../modules/price-lists/price-list-service.js';
import { type App, pageOf, storeIdOf } from '../../plugins/app-types.js';
import { readErrors } from '../docs.js';

export function listPriceLists(app: App, priceLists: PriceListService): void {
  app.get(
    '/v1/price-lists',
    {
      schema: {
        operationId: 'priceLists.list',
        tags: ['price lists'],
        summary: 'List price lists',
        querystring: PriceListListQuery,
        response: { 200: Type.Array(PriceList), ...readErrors },
      },
      config: { scope: 'trade_prices:read' },
    },
    async (request) => priceLists.list(storeIdOf(request), { kind: request.query.kind }, pageOf(request.query)),
  );
}

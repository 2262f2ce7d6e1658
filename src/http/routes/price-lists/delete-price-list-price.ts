import { PriceListPriceParams } from '../../../contract/price-lists.js';
import type { PriceListService } from '../../../modules/price-lists/price-list-service.js';
import { type App, originOf, storeIdOf } from '../../plugins/app-types.js';
import { NoContent, readErrors } from '../docs.js';

export function deletePriceListPrice(app: App, priceLists: PriceListService): void {
  app.delete(
    '/v1/price-lists/:id/prices/:priceId',
    {
      schema: {
        operationId: 'priceLists.prices.delete',
        tags: ['price lists'],
        summary: 'Delete an entry of a price list',
        params: PriceListPriceParams,
        response: { 204: NoContent, ...readErrors },
      },
      config: { scope: 'trade_prices:write', priceChange: 'always' },
    },
    async (request, reply) => {
      await priceLists.removePrice(storeIdOf(request), originOf(request), request.params.id, request.params.priceId);
      return reply.code(204).send(null);
    },
  );
}

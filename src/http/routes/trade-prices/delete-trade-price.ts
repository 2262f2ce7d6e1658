import { IdParams } from '../../../contract/common.js';
import type { TradePriceService } from '../../../modules/trade-prices/trade-price-service.js';
import { type App, originOf, storeIdOf } from '../../plugins/app-types.js';
import { NoContent, deleteErrors } from '../docs.js';

export function deleteTradePrice(app: App, tradePrices: TradePriceService): void {
  app.delete(
    '/v1/trade-customer-product-prices/:id',
    {
      schema: {
        operationId: 'tradePrices.delete',
        tags: ['trade prices'],
        summary: 'Delete a trade price',
        params: IdParams,
        response: { 204: NoContent, ...deleteErrors },
      },
      config: { scope: 'trade_prices:write', priceChange: 'always' },
    },
    async (request, reply) => {
      await tradePrices.remove(storeIdOf(request), originOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
}

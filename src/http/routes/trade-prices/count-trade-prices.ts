import { CountResponse } from '../../../contract/common.js';
import { TradePriceCountQuery } from '../../../contract/trade-prices.js';
import type { TradePriceService } from '../../../modules/trade-prices/trade-price-service.js';
import { type App, storeIdOf } from '../../plugins/app-types.js';
import { readErrors } from '../docs.js';

export function countTradePrices(app: App, tradePrices: TradePriceService): void {
  app.get(
    '/v1/trade-customer-product-prices/count',
    {
      schema: {
        operationId: 'tradePrices.count',
        tags: ['trade prices'],
        summary: 'Count trade prices',
        querystring: TradePriceCountQuery,
        response: { 200: CountResponse, ...readErrors },
      },
      config: { scope: 'trade_prices:read' },
    },
    async (request) => {
      const { customerId, productId, sku, skuContains, validAt } = request.query;
      return { count: await tradePrices.count(storeIdOf(request), { customerId, productId, sku, skuContains, validAt }) };
    },
  );
}

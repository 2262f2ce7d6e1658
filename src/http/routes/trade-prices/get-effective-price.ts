import { EffectivePrice, EffectivePriceQuery } from '../../../contract/trade-prices.js';
import type { EffectivePriceService } from '../../../modules/trade-prices/effective-price-service.js';
import { type App, storeIdOf } from '../../app-types.js';
import { readErrors } from '../docs.js';

export function getEffectivePrice(app: App, effectivePrices: EffectivePriceService): void {
  app.get(
    '/v1/trade-customer-product-prices/effective',
    {
      schema: {
        tags: ['trade prices'],
        summary: 'Which price a customer pays for a SKU, and why',
        description: 'The newest trade price while the customer is a trade customer; otherwise the variation’s price, else the product’s.',
        querystring: EffectivePriceQuery,
        response: { 200: EffectivePrice, ...readErrors },
      },
      config: { scope: 'trade_prices:read' },
    },
    async (request) => effectivePrices.explain(storeIdOf(request), request.query.customerId, request.query.sku),
  );
}

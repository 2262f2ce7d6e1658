import { EffectivePrice, EffectivePriceQuery } from '../../../contract/trade-prices.js';
import type { PricingService } from '../../../modules/pricing/pricing-service.js';
import { type App, storeIdOf } from '../../app-types.js';
import { readErrors } from '../docs.js';

export function getEffectivePrice(app: App, pricing: PricingService): void {
  app.get(
    '/v1/trade-customer-product-prices/effective',
    {
      schema: {
        tags: ['trade prices'],
        summary: 'Which price a customer pays for a SKU, and why',
        description:
          'By the resolution rule, for `quantity` units (default 1) at `at` (default now): the customer’s own trade prices while they are a trade customer (valid then, with minQuantity ≤ quantity; the highest break wins, then the newest), ' +
          'else their price lists in order (the first fixed list with such an entry, or the first percentage list), else the variation’s price, else the product’s. ' +
          '`candidates` lists every trade price, list entry and percentage list considered, with the reason each does not apply; `nextChangeAt` is when this answer next changes. See docs/pricing.md.',
        querystring: EffectivePriceQuery,
        response: { 200: EffectivePrice, ...readErrors },
      },
      config: { scope: ['trade_prices:read', 'catalog:read'] },
    },
    async (request) => pricing.explain(storeIdOf(request), request.query.customerId, request.query.sku, request.query.quantity ?? 1, request.query.at),
  );
}

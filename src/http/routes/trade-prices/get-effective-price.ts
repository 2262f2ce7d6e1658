import { EffectivePrice, EffectivePriceQuery, MAX_CANDIDATES } from '../../../contract/trade-prices.js';
import type { PricingService } from '../../../modules/pricing/pricing-service.js';
import { type App, storeIdOf } from '../../plugins/app-types.js';
import { readErrors } from '../docs.js';

export function getEffectivePrice(app: App, pricing: PricingService): void {
  app.get(
    '/v1/trade-customer-product-prices/effective',
    {
      schema: {
        operationId: 'tradePrices.effective',
        tags: ['trade prices'],
        summary: 'Which price a customer pays for a SKU, and why',
        description:
          'By the resolution rule, for `quantity` units (default 1) at `at` (default now): the customer’s own trade prices while they are a trade customer (valid then, with minQuantity ≤ quantity; the highest break wins, then the newest), ' +
          'else their price lists in order (the first fixed list with such an entry, or the first percentage list), else the variation’s price, else the product’s. ' +
          '`candidates` lists the trade prices, list entries and percentage lists considered, with the reason each does not apply: `candidatesCount` of them (1–100, default 100) from `candidatesOffset` (default 0), and `candidateCount` says how many there are in all. ' +
          '`nextChangeAt` is when this answer next changes. See docs/pricing.md.',
        querystring: EffectivePriceQuery,
        response: { 200: EffectivePrice, ...readErrors },
      },
      config: { scope: ['trade_prices:read', 'catalog:read'] },
    },
    async (request) => {
      const { customerId, sku, quantity, at, candidatesOffset, candidatesCount } = request.query;
      return pricing.explain(storeIdOf(request), customerId, sku, quantity ?? 1, at, {
        offset: candidatesOffset ?? 0,
        count: candidatesCount ?? MAX_CANDIDATES,
      });
    },
  );
}

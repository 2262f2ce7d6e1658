import { ReplaceTradePricesRequest, ReplaceTradePricesResult } from '../../../contract/trade-prices.js';
import type { TradePriceService } from '../../../modules/trade-prices/trade-price-service.js';
import { type App, originOf, storeIdOf } from '../../plugins/app-types.js';
import { itemShapeProblems } from '../../plugins/bulk-shape-problems.js';
import { createErrors } from '../docs.js';

export function replaceTradePrices(app: App, tradePrices: TradePriceService): void {
  app.post(
    '/v1/trade-customer-product-prices/replace',
    {
      schema: {
        operationId: 'tradePrices.replace',
        tags: ['trade prices'],
        summary: 'Replace a customer’s prices in one transaction, or see what that would change',
        description:
          '`scope: "customer"` makes the customer’s prices exactly `prices`; `scope: "skus"` replaces only the prices of the SKUs named. ' +
          'A price equal in every field to a record already there keeps that record and its id (no event); the others are created, and the records left over deleted, each with its event. ' +
          'All or nothing: a 422 lists every invalid item with its `index` and `field`, as a bulk create does. `dryRun: true` answers the same and changes nothing. ' +
          'Up to 10 000 prices (within the 1 MiB body limit); an `Idempotency-Key` replays the first answer.',
        body: ReplaceTradePricesRequest,
        response: { 200: ReplaceTradePricesResult, ...createErrors },
      },
      config: { scope: ['trade_prices:write', 'trade_prices:read'], priceChange: { unless: ['dryRun: true'] } },
      attachValidation: true,
    },
    async (request, reply) => {
      const shapeProblems = itemShapeProblems(request.validationError, 'prices');
      const storeId = storeIdOf(request);
      return reply.sendIdempotent(200, () => tradePrices.replace(storeId, originOf(request), request.body, shapeProblems));
    },
  );
}

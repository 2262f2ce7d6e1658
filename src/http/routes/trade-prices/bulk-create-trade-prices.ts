import { Type } from '@sinclair/typebox';
import { BulkTradePriceRequest, TradePrice, type TradePriceInput } from '../../../contract/trade-prices.js';
import type { TradePriceService } from '../../../modules/trade-prices/trade-price-service.js';
import { type App, originOf, storeIdOf } from '../../plugins/app-types.js';
import { bulkShapeProblems } from '../../plugins/bulk-shape-problems.js';
import { createErrors } from '../docs.js';

export function bulkCreateTradePrices(app: App, tradePrices: TradePriceService): void {
  app.post(
    '/v1/trade-customer-product-prices/bulk',
    {
      schema: {
        operationId: 'tradePrices.createMany',
        tags: ['trade prices'],
        summary: 'Create 1–1000 trade prices, all or none',
        description:
          'Only creates: never checks, replaces, removes or de-duplicates existing records. A 422 lists every invalid item with its `index` and `field`. ' +
          'Besides the four fields, an item may carry `minQuantity` (a quantity break, default 1), `validFrom` and `validUntil` (a validity window, default always); see docs/pricing.md.',
        body: BulkTradePriceRequest,
        response: { 201: Type.Array(TradePrice), ...createErrors },
      },
      config: { scope: 'trade_prices:write', priceChange: 'always' },
      // Items the schema refuses are reported together with those the store refuses.
      attachValidation: true,
    },
    async (request, reply) => {
      const shapeProblems = bulkShapeProblems(request.validationError);
      const items = request.body as TradePriceInput[];
      return reply.sendCreated(() => tradePrices.bulkCreate(storeIdOf(request), originOf(request), items, shapeProblems));
    },
  );
}

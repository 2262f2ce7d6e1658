import { Type } from '@sinclair/typebox';
import { IdParams } from '../../../contract/common.js';
import { BulkPriceListPriceRequest, PriceListPrice, type PriceListPriceInput } from '../../../contract/price-lists.js';
import type { PriceListService } from '../../../modules/price-lists/price-list-service.js';
import { type App, originOf, storeIdOf } from '../../plugins/app-types.js';
import { bulkShapeProblems } from '../../plugins/bulk-shape-problems.js';
import { createErrors } from '../docs.js';

export function bulkCreatePriceListPrices(app: App, priceLists: PriceListService): void {
  app.post(
    '/v1/price-lists/:id/prices/bulk',
    {
      schema: {
        operationId: 'priceLists.prices.bulkCreate',
        tags: ['price lists'],
        summary: 'Add 1–1000 entries to a fixed price list, all or none',
        description:
          'Each entry: `productId`, `sku` (the product’s or one of its variations’), `price`, and optionally `minQuantity`, `validFrom`, `validUntil`. Never replaces or de-duplicates: the resolution rule’s tie break decides. A 422 lists every invalid item with its `index` and `field`.',
        params: IdParams,
        body: BulkPriceListPriceRequest,
        response: { 201: Type.Array(PriceListPrice), ...createErrors },
      },
      config: { scope: 'trade_prices:write', priceChange: 'always' },
      attachValidation: true,
    },
    async (request, reply) => {
      const shapeProblems = bulkShapeProblems(request.validationError);
      const storeId = storeIdOf(request);
      return reply.sendCreated(() =>
        priceLists.bulkCreatePrices(storeId, originOf(request), request.params.id, request.body as PriceListPriceInput[], shapeProblems),
      );
    },
  );
}

import { IdParams } from '../../../contract/common.js';
import { MAX_LIST_REPLACE_ITEMS, MAX_LIST_REPLACE_STORED, ReplacePriceListPricesRequest, ReplacePriceListPricesResult } from '../../../contract/price-lists.js';
import type { PriceListService } from '../../../modules/price-lists/price-list-service.js';
import { type App, originOf, storeIdOf } from '../../plugins/app-types.js';
import { itemShapeProblems } from '../../plugins/bulk-shape-problems.js';
import { createErrors } from '../docs.js';

export function replacePriceListPrices(app: App, priceLists: PriceListService): void {
  app.post(
    '/v1/price-lists/:id/prices/replace',
    {
      schema: {
        operationId: 'priceLists.prices.replace',
        tags: ['price lists'],
        summary: 'Replace a fixed list’s entries in one transaction, or see what that would change',
        description:
          '`scope: "list"` makes the list’s entries exactly `prices`; `scope: "skus"` replaces only the entries of the SKUs named. ' +
          'An entry equal in every field to one already there keeps it and its id (no event); the others are created, and the entries left over deleted, each with its event. ' +
          'All or nothing: a 422 lists every invalid item with its `index` and `field`, as a bulk create does. `dryRun: true` answers the same and changes nothing. ' +
          '`overlaps` says where the entries left overlap (docs/pricing.md, "Overlaps"). ' +
          `Up to ${MAX_LIST_REPLACE_ITEMS} prices, over at most ${MAX_LIST_REPLACE_STORED} stored entries (the list’s, or those of the SKUs named). An \`Idempotency-Key\` replays the first answer.`,
        params: IdParams,
        body: ReplacePriceListPricesRequest,
        response: { 200: ReplacePriceListPricesResult, ...createErrors },
      },
      config: { scope: ['trade_prices:write', 'trade_prices:read'], priceChange: { unless: ['dryRun: true'] } },
      attachValidation: true,
    },
    async (request, reply) => {
      const shapeProblems = itemShapeProblems(request.validationError, 'prices');
      const storeId = storeIdOf(request);
      return reply.sendIdempotent(200, () => priceLists.replacePrices(storeId, originOf(request), request.params.id, request.body, shapeProblems));
    },
  );
}

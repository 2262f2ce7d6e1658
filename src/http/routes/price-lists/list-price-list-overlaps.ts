import { Type } from '@sinclair/typebox';
import { IdParams } from '../../../contract/common.js';
import { PriceListEntryOverlap, PriceListOverlapQuery } from '../../../contract/price-lists.js';
import type { PriceListService } from '../../../modules/price-lists/price-list-service.js';
import { type App, pageOf, storeIdOf } from '../../plugins/app-types.js';
import { boundedReadErrors } from '../docs.js';

export function listPriceListOverlaps(app: App, priceLists: PriceListService): void {
  app.get(
    '/v1/price-lists/:id/overlaps',
    {
      schema: {
        operationId: 'priceLists.overlaps',
        tags: ['price lists'],
        summary: 'Entries of a list the tie rule decides between',
        description:
          'Entries of the same SKU, product and quantity break whose windows meet, grouped, newest first: at each moment the newest entry valid then applies. In order of SKU, product, break and start (docs/pricing.md, "Overlaps").',
        params: IdParams,
        querystring: PriceListOverlapQuery,
        response: { 200: Type.Array(PriceListEntryOverlap), ...boundedReadErrors },
      },
      config: { scope: 'trade_prices:read' },
    },
    async (request) => {
      const { productId, sku } = request.query;
      return priceLists.overlaps(storeIdOf(request), request.params.id, { productId, sku }, pageOf(request.query));
    },
  );
}

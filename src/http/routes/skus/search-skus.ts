import { Type } from '@sinclair/typebox';
import { SkuSearchItem, SkuSearchQuery } from '../../../contract/skus.js';
import type { SkuLookupService } from '../../../modules/catalog/sku-lookup-service.js';
import { type App, storeIdOf } from '../../plugins/app-types.js';
import { readErrors } from '../docs.js';

export function searchSkus(app: App, skus: SkuLookupService): void {
  app.get(
    '/v1/skus',
    {
      schema: {
        operationId: 'skus.search',
        tags: ['products'],
        summary: 'Find SKUs by part of them',
        description:
          'The store’s SKUs (of products and variations) that contain `contains`, the letters A–Z in either case, in order of their characters’ code points, ' +
          'each with its product id, variation id (null for a product’s own SKU), the product’s title and the catalog price: for picking a SKU as it is typed. ' +
          'Prices match SKUs exactly, as everywhere.',
        querystring: SkuSearchQuery,
        response: { 200: Type.Array(SkuSearchItem), ...readErrors },
      },
      config: { scope: 'catalog:read' },
    },
    async (request) => skus.search(storeIdOf(request), request.query.contains, request.query.count ?? 20),
  );
}

import { SkuLookupRequest, SkuLookupResult, MAX_LOOKUP_SKUS } from '../../../contract/skus.js';
import type { SkuLookupService } from '../../../modules/catalog/sku-lookup-service.js';
import { type App, storeIdOf } from '../../plugins/app-types.js';
import { writeErrors } from '../docs.js';

export function lookupSkus(app: App, skus: SkuLookupService): void {
  app.post(
    '/v1/skus/lookup',
    {
      schema: {
        operationId: 'skus.lookup',
        tags: ['products'],
        summary: `Find the products and variations of 1–${MAX_LOOKUP_SKUS} SKUs`,
        description:
          'A read sent as a POST (the SKUs do not fit a query string): changes nothing, and ignores an `Idempotency-Key` header. ' +
          'Each SKU of the store is answered with its product id, its variation id (null for a product’s own SKU) and its catalog price; ' +
          'SKUs the store does not have are listed in `unknown`. SKUs are compared exactly, as everywhere; other stores’ SKUs are unknown. ' +
          'Both lists keep the request’s order; a SKU sent twice is answered once.',
        body: SkuLookupRequest,
        response: { 200: SkuLookupResult, ...writeErrors },
      },
      config: { scope: 'catalog:read', priceChange: 'never' },
    },
    async (request) => skus.lookup(storeIdOf(request), request.body.skus),
  );
}

import { IdParams } from '../../../contract/common.js';
import { Product, ProductUpdate } from '../../../contract/products.js';
import type { ProductService } from '../../../modules/catalog/product-service.js';
import { type App, storeIdOf } from '../../app-types.js';
import { writeErrors } from '../docs.js';

export function updateProduct(app: App, products: ProductService): void {
  app.put(
    '/v1/products/:id',
    {
      schema: {
        tags: ['products'],
        summary: 'Update some fields of a product',
        description:
          '`variations` replaces the list, matched by sku: a kept sku keeps its variation id and takes the new price and stock ' +
          '(omitted: null), a new sku creates a variation, a missing one deletes it. `categoryIds` replaces the set.',
        params: IdParams,
        body: ProductUpdate,
        response: { 200: Product, ...writeErrors },
      },
      config: { scope: ['catalog:write', 'catalog:read'] },
    },
    async (request) => products.update(storeIdOf(request), request.params.id, request.body),
  );
}

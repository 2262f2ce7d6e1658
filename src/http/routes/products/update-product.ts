import { IdParams } from '../../../contract/common.js';
import { Product, ProductUpdate } from '../../../contract/products.js';
import type { ProductService } from '../../../modules/catalog/product-service.js';
import { type App, originOf, storeIdOf } from '../../plugins/app-types.js';
import { inUseWriteErrors } from '../docs.js';

export function updateProduct(app: App, products: ProductService): void {
  app.put(
    '/v1/products/:id',
    {
      schema: {
        operationId: 'products.update',
        tags: ['products'],
        summary: 'Update some fields of a product',
        description:
          '`variations` replaces the list, matched by sku: a kept sku keeps its variation id and takes the new price and stock ' +
          '(omitted: null), a new sku creates a variation, a missing one deletes it with its trade prices and price list entries. ' +
          '`categoryIds` replaces the set. Changing the product’s own sku (or setting it to null) while trade prices or price list ' +
          'entries of the old sku remain is refused: 409, code 15, naming them.',
        params: IdParams,
        body: ProductUpdate,
        response: { 200: Product, ...inUseWriteErrors },
      },
      // A SKU renamed, or variations replaced, moves or drops the prices of a SKU another product may take.
      config: { scope: ['catalog:write', 'catalog:read'], priceChange: { whenSent: ['price', 'sku', 'variations'] satisfies Array<keyof ProductUpdate> } },
    },
    async (request) => products.update(storeIdOf(request), originOf(request), request.params.id, request.body),
  );
}

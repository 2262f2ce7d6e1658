import { FieldsOnlyQuery, IdParams } from '../../../contract/common.js';
import { Product } from '../../../contract/products.js';
import type { ProductService } from '../../../modules/catalog/product-service.js';
import { type App, storeIdOf } from '../../plugins/app-types.js';
import { readErrors } from '../docs.js';

export function getProduct(app: App, products: ProductService): void {
  app.get(
    '/v1/products/:id',
    {
      schema: {
        operationId: 'products.get',
        tags: ['products'],
        summary: 'Get a product with its variations',
        params: IdParams,
        querystring: FieldsOnlyQuery,
        response: { 200: Product, ...readErrors },
      },
      config: { scope: 'catalog:read' },
    },
    async (request) => products.get(storeIdOf(request), request.params.id),
  );
}

import { CountResponse } from '../../../contract/common.js';
import { ProductCountQuery } from '../../../contract/products.js';
import type { ProductService } from '../../../modules/catalog/product-service.js';
import { type App, storeIdOf } from '../../plugins/app-types.js';
import { readErrors } from '../docs.js';

export function countProducts(app: App, products: ProductService): void {
  app.get(
    '/v1/products/count',
    {
      schema: {
        operationId: 'products.count',
        tags: ['products'],
        summary: 'Count products',
        querystring: ProductCountQuery,
        response: { 200: CountResponse, ...readErrors },
      },
      config: { scope: 'catalog:read' },
    },
    async (request) => ({ count: await products.count(storeIdOf(request), { sku: request.query.sku, categoryId: request.query.categoryId }) }),
  );
}

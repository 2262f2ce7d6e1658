import { Type } from '@sinclair/typebox';
import { Product, ProductListQuery } from '../../../contract/products.js';
import type { ProductService } from '../../../modules/catalog/product-service.js';
import { type App, pageOf, storeIdOf } from '../../plugins/app-types.js';
import { readErrors } from '../docs.js';

export function listProducts(app: App, products: ProductService): void {
  app.get(
    '/v1/products',
    {
      schema: {
        operationId: 'products.list',
        tags: ['products'],
        summary: 'List products with their variations',
        querystring: ProductListQuery,
        response: { 200: Type.Array(Product), ...readErrors },
      },
      config: { scope: 'catalog:read' },
    },
    async (request) => products.list(storeIdOf(request), { sku: request.query.sku, categoryId: request.query.categoryId }, pageOf(request.query)),
  );
}

import { Product, ProductInput } from '../../../contract/products.js';
import type { ProductService } from '../../../modules/catalog/product-service.js';
import { type App, originOf, storeIdOf } from '../../plugins/app-types.js';
import { createErrors } from '../docs.js';

export function createProduct(app: App, products: ProductService): void {
  app.post(
    '/v1/products',
    {
      schema: {
        operationId: 'products.create',
        tags: ['products'],
        summary: 'Create a product with its variations',
        description: 'Every SKU, the product’s and its variations’, must be unused in the store.',
        body: ProductInput,
        response: { 201: Product, ...createErrors },
      },
      config: { scope: 'catalog:write', priceChange: 'never' },
    },
    async (request, reply) => reply.sendCreated(() => products.create(storeIdOf(request), originOf(request), request.body)),
  );
}

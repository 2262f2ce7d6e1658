import { Type } from '@sinclair/typebox';
import { BulkProductRequest, MAX_BULK_PRODUCTS, MAX_BULK_VARIATIONS, Product, type ProductInput } from '../../../contract/products.js';
import type { ProductService } from '../../../modules/catalog/product-service.js';
import { type App, originOf, storeIdOf } from '../../plugins/app-types.js';
import { bulkShapeProblems } from '../../plugins/bulk-shape-problems.js';
import { createErrors } from '../docs.js';

export function bulkCreateProducts(app: App, products: ProductService): void {
  app.post(
    '/v1/products/bulk',
    {
      schema: {
        operationId: 'products.createMany',
        tags: ['products'],
        summary: `Create 1–${MAX_BULK_PRODUCTS} products with their variations, all or none`,
        description:
          `Each item is a product as \`POST /v1/products\` takes it; ${MAX_BULK_VARIATIONS} variations at most in the whole request. ` +
          'Every SKU must be unused in the store and named once in the request. A 422 lists every invalid item with its `index` and `field` ' +
          '(`sku`, `variations[2].sku`, `categoryIds`); nothing is created. Answers the created products in request order; each is a `product.created` event.',
        body: BulkProductRequest,
        response: { 201: Type.Array(Product), ...createErrors },
      },
      config: { scope: 'catalog:write', priceChange: 'never' },
      // Items the schema refuses are reported together with those the store refuses.
      attachValidation: true,
    },
    async (request, reply) => {
      const shapeProblems = bulkShapeProblems(request.validationError);
      const items = request.body as ProductInput[];
      return reply.sendCreated(() => products.bulkCreate(storeIdOf(request), originOf(request), items, shapeProblems));
    },
  );
}

import { IdParams } from '../../../contract/common.js';
import type { ProductService } from '../../../modules/catalog/product-service.js';
import { type App, originOf, storeIdOf } from '../../plugins/app-types.js';
import { NoContent, readErrors } from '../docs.js';

export function deleteProduct(app: App, products: ProductService): void {
  app.delete(
    '/v1/products/:id',
    {
      schema: {
        operationId: 'products.delete',
        tags: ['products'],
        summary: 'Delete a product with its variations, SKUs and trade prices',
        params: IdParams,
        response: { 204: NoContent, ...readErrors },
      },
      config: { scope: 'catalog:write', priceChange: 'always' },
    },
    async (request, reply) => {
      await products.remove(storeIdOf(request), originOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
}

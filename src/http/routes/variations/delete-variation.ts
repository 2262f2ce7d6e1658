import { VariationParams } from '../../../contract/variations.js';
import type { VariationService } from '../../../modules/catalog/variation-service.js';
import { type App, originOf, storeIdOf } from '../../plugins/app-types.js';
import { NoContent, readErrors } from '../docs.js';

export function deleteVariation(app: App, variations: VariationService): void {
  app.delete(
    '/v1/products/:id/variations/:variationId',
    {
      schema: {
        operationId: 'variations.delete',
        tags: ['products'],
        summary: 'Delete a variation with its trade prices and price list entries, and free its sku',
        params: VariationParams,
        response: { 204: NoContent, ...readErrors },
      },
      config: { scope: 'catalog:write', priceChange: 'always' },
    },
    async (request, reply) => {
      await variations.remove(storeIdOf(request), originOf(request), request.params.id, request.params.variationId);
      return reply.code(204).send(null);
    },
  );
}

import { IdParams } from '../../../contract/common.js';
import { Variation, VariationInput } from '../../../contract/variations.js';
import type { VariationService } from '../../../modules/catalog/variation-service.js';
import { type App, originOf, storeIdOf } from '../../plugins/app-types.js';
import { createErrors } from '../docs.js';

export function createVariation(app: App, variations: VariationService): void {
  app.post(
    '/v1/products/:id/variations',
    {
      schema: {
        operationId: 'variations.create',
        tags: ['products'],
        summary: 'Add a variation to a product',
        description: 'The sku must be unused in the store.',
        params: IdParams,
        body: VariationInput,
        response: { 201: Variation, ...createErrors },
      },
      config: { scope: 'catalog:write', priceChange: 'never' },
    },
    async (request, reply) => reply.sendCreated(() => variations.create(storeIdOf(request), originOf(request), request.params.id, request.body)),
  );
}

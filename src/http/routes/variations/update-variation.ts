import { Variation, VariationParams, VariationUpdate } from '../../../contract/variations.js';
import type { VariationService } from '../../../modules/catalog/variation-service.js';
import { type App, storeIdOf } from '../../app-types.js';
import { writeErrors } from '../docs.js';

export function updateVariation(app: App, variations: VariationService): void {
  app.put(
    '/v1/products/:id/variations/:variationId',
    {
      schema: {
        tags: ['products'],
        summary: 'Update some fields of a variation',
        params: VariationParams,
        body: VariationUpdate,
        response: { 200: Variation, ...writeErrors },
      },
      config: { scope: ['catalog:write', 'catalog:read'] },
    },
    async (request) => variations.update(storeIdOf(request), request.params.id, request.params.variationId, request.body),
  );
}

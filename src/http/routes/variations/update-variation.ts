import { Variation, VariationParams, VariationUpdate } from '../../../contract/variations.js';
import type { VariationService } from '../../../modules/catalog/variation-service.js';
import { type App, originOf, storeIdOf } from '../../plugins/app-types.js';
import { inUseWriteErrors } from '../docs.js';

export function updateVariation(app: App, variations: VariationService): void {
  app.put(
    '/v1/products/:id/variations/:variationId',
    {
      schema: {
        operationId: 'variations.update',
        tags: ['products'],
        summary: 'Update some fields of a variation',
        description: 'Changing the sku while trade prices or price list entries of the old sku remain is refused: 409, code 15, naming them.',
        params: VariationParams,
        body: VariationUpdate,
        response: { 200: Variation, ...inUseWriteErrors },
      },
      config: { scope: ['catalog:write', 'catalog:read'], priceChange: { whenSent: ['price', 'sku'] satisfies Array<keyof VariationUpdate> } },
    },
    async (request) => variations.update(storeIdOf(request), originOf(request), request.params.id, request.params.variationId, request.body),
  );
}

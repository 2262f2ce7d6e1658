import { FieldsOnlyQuery } from '../../../contract/common.js';
import { Variation, VariationParams } from '../../../contract/variations.js';
import type { VariationService } from '../../../modules/catalog/variation-service.js';
import { type App, storeIdOf } from '../../plugins/app-types.js';
import { readErrors } from '../docs.js';

export function getVariation(app: App, variations: VariationService): void {
  app.get(
    '/v1/products/:id/variations/:variationId',
    {
      schema: {
        operationId: 'variations.get',
        tags: ['products'],
        summary: 'Get a variation of a product',
        params: VariationParams,
        querystring: FieldsOnlyQuery,
        response: { 200: Variation, ...readErrors },
      },
      config: { scope: 'catalog:read' },
    },
    async (request) => variations.get(storeIdOf(request), request.params.id, request.params.variationId),
  );
}

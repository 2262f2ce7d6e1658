import { Type } from '@sinclair/typebox';
import { IdParams } from '../../../contract/common.js';
import { Variation, VariationListQuery } from '../../../contract/variations.js';
import type { VariationService } from '../../../modules/catalog/variation-service.js';
import { type App, pageOf, storeIdOf } from '../../plugins/app-types.js';
import { readErrors } from '../docs.js';

export function listVariations(app: App, variations: VariationService): void {
  app.get(
    '/v1/products/:id/variations',
    {
      schema: {
        operationId: 'variations.list',
        tags: ['products'],
        summary: 'List the variations of a product',
        params: IdParams,
        querystring: VariationListQuery,
        response: { 200: Type.Array(Variation), ...readErrors },
      },
      config: { scope: 'catalog:read' },
    },
    async (request) => variations.list(storeIdOf(request), request.params.id, pageOf(request.query)),
  );
}

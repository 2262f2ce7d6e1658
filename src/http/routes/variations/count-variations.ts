import { CountResponse, IdParams } from '../../../contract/common.js';
import type { VariationService } from '../../../modules/catalog/variation-service.js';
import { type App, storeIdOf } from '../../plugins/app-types.js';
import { readErrors } from '../docs.js';

export function countVariations(app: App, variations: VariationService): void {
  app.get(
    '/v1/products/:id/variations/count',
    {
      schema: {
        operationId: 'variations.count',
        tags: ['products'],
        summary: 'Count the variations of a product',
        params: IdParams,
        response: { 200: CountResponse, ...readErrors },
      },
      config: { scope: 'catalog:read' },
    },
    async (request) => ({ count: await variations.count(storeIdOf(request), request.params.id) }),
  );
}

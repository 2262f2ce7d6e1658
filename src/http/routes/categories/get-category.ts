import { IdParams } from '../../../contract/common.js';
import { Category, CategoryGetQuery } from '../../../contract/categories.js';
import type { CategoryService } from '../../../modules/catalog/category-service.js';
import { type App, embeds, storeIdOf } from '../../plugins/app-types.js';
import { CATEGORY_EMBED_SCOPES } from '../../plugins/embed-scopes.js';
import { readErrors } from '../docs.js';

export function getCategory(app: App, categories: CategoryService): void {
  app.get(
    '/v1/categories/:id',
    {
      schema: {
        operationId: 'categories.get',
        tags: ['categories'],
        summary: 'Get a category',
        params: IdParams,
        querystring: CategoryGetQuery,
        response: { 200: Category, ...readErrors },
      },
      config: { scope: 'catalog:read', embeds: CATEGORY_EMBED_SCOPES },
    },
    async (request) => categories.get(storeIdOf(request), request.params.id, { parents: embeds(request, 'parents') }),
  );
}

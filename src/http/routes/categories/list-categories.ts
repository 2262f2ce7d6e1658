import { Type } from '@sinclair/typebox';
import { Category, CategoryListQuery } from '../../../contract/categories.js';
import type { CategoryService } from '../../../modules/catalog/category-service.js';
import { type App, embeds, pageOf, storeIdOf } from '../../plugins/app-types.js';
import { CATEGORY_EMBED_SCOPES } from '../../plugins/embed-scopes.js';
import { readErrors } from '../docs.js';

export function listCategories(app: App, categories: CategoryService): void {
  app.get(
    '/v1/categories',
    {
      schema: {
        operationId: 'categories.list',
        tags: ['categories'],
        summary: 'List categories',
        querystring: CategoryListQuery,
        response: { 200: Type.Array(Category), ...readErrors },
      },
      config: { scope: 'catalog:read', embeds: CATEGORY_EMBED_SCOPES },
    },
    async (request) => categories.list(storeIdOf(request), pageOf(request.query), { parents: embeds(request, 'parents') }),
  );
}

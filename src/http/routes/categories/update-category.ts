import { IdParams } from '../../../contract/common.js';
import { Category, CategoryUpdate } from '../../../contract/categories.js';
import type { CategoryService } from '../../../modules/catalog/category-service.js';
import { type App, storeIdOf } from '../../plugins/app-types.js';
import { writeErrors } from '../docs.js';

export function updateCategory(app: App, categories: CategoryService): void {
  app.put(
    '/v1/categories/:id',
    {
      schema: {
        operationId: 'categories.update',
        tags: ['categories'],
        summary: 'Update some fields of a category',
        description: 'A new parent must exist and must be neither the category itself nor one of its subcategories.',
        params: IdParams,
        body: CategoryUpdate,
        response: { 200: Category, ...writeErrors },
      },
      config: { scope: ['catalog:write', 'catalog:read'], priceChange: 'never' },
    },
    async (request) => categories.update(storeIdOf(request), request.params.id, request.body),
  );
}

import { Category, CategoryInput } from '../../../contract/categories.js';
import type { CategoryService } from '../../../modules/catalog/category-service.js';
import { type App, storeIdOf } from '../../plugins/app-types.js';
import { createErrors } from '../docs.js';

export function createCategory(app: App, categories: CategoryService): void {
  app.post(
    '/v1/categories',
    {
      schema: {
        operationId: 'categories.create',
        tags: ['categories'],
        summary: 'Create a category',
        body: CategoryInput,
        response: { 201: Category, ...createErrors },
      },
      config: { scope: 'catalog:write', priceChange: 'never' },
    },
    async (request, reply) => reply.sendCreated(() => categories.create(storeIdOf(request), request.body)),
  );
}

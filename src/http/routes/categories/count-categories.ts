import { CountResponse } from '../../../contract/common.js';
import type { CategoryService } from '../../../modules/catalog/category-service.js';
import { type App, storeIdOf } from '../../plugins/app-types.js';
import { readErrors } from '../docs.js';

export function countCategories(app: App, categories: CategoryService): void {
  app.get(
    '/v1/categories/count',
    {
      schema: { operationId: 'categories.count', tags: ['categories'], summary: 'Count categories', response: { 200: CountResponse, ...readErrors } },
      config: { scope: 'catalog:read' },
    },
    async (request) => ({ count: await categories.count(storeIdOf(request)) }),
  );
}

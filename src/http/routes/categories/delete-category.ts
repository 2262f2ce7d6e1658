import { IdParams } from '../../../contract/common.js';
import type { CategoryService } from '../../../modules/catalog/category-service.js';
import { type App, storeIdOf } from '../../plugins/app-types.js';
import { NoContent, writeErrors } from '../docs.js';

export function deleteCategory(app: App, categories: CategoryService): void {
  app.delete(
    '/v1/categories/:id',
    {
      schema: {
        operationId: 'categories.delete',
        tags: ['categories'],
        summary: 'Delete a category without subcategories',
        description: 'A category with subcategories is refused (422); products lose their link to it.',
        params: IdParams,
        response: { 204: NoContent, ...writeErrors },
      },
      config: { scope: 'catalog:write', priceChange: 'never' },
    },
    async (request, reply) => {
      await categories.remove(storeIdOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
}

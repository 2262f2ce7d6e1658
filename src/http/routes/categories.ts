import { Category, CategoryGetQuery, CategoryInput, CategoryListQuery, CategoryUpdate } from '../../contract/categories.js';
import type { CategoryService } from '../../modules/catalog/category-service.js';
import { type App, embeds, pageOf, storeIdOf } from '../plugins/app-types.js';
import { CATEGORY_EMBED_SCOPES } from '../plugins/embed-scopes.js';
import { countOptions, createOptions, deleteOptions, getOptions, itemPath, listOptions, type Resource, updateOptions } from './resource-routes.js';

const CATEGORIES: Resource = { path: '/v1/categories', tag: 'categories', one: 'a category', many: 'categories' };

/** `/v1/categories`: every operation of the resource, in one file. */
export function registerCategoryRoutes(app: App, categories: CategoryService): void {
  const read = { scope: 'catalog:read', record: Category } as const;
  const write = { scope: 'catalog:write', priceChange: 'never' } as const;

  app.get(CATEGORIES.path, listOptions(CATEGORIES, { ...read, querystring: CategoryListQuery, embeds: CATEGORY_EMBED_SCOPES }), async (request) =>
    categories.list(storeIdOf(request), pageOf(request.query), { parents: embeds(request, 'parents') }),
  );

  app.get(`${CATEGORIES.path}/count`, countOptions(CATEGORIES, { scope: 'catalog:read' }), async (request) => ({
    count: await categories.count(storeIdOf(request)),
  }));

  app.get(itemPath(CATEGORIES), getOptions(CATEGORIES, { ...read, querystring: CategoryGetQuery, embeds: CATEGORY_EMBED_SCOPES }), async (request) =>
    categories.get(storeIdOf(request), request.params.id, { parents: embeds(request, 'parents') }),
  );

  app.post(CATEGORIES.path, createOptions(CATEGORIES, { ...write, body: CategoryInput, record: Category }), async (request, reply) =>
    reply.sendCreated(() => categories.create(storeIdOf(request), request.body)),
  );

  app.put(
    itemPath(CATEGORIES),
    updateOptions(CATEGORIES, {
      ...write,
      scope: ['catalog:write', 'catalog:read'],
      description: 'A new parent must exist and must be neither the category itself nor one of its subcategories.',
      body: CategoryUpdate,
      record: Category,
    }),
    async (request) => categories.update(storeIdOf(request), request.params.id, request.body),
  );

  app.delete(
    itemPath(CATEGORIES),
    deleteOptions(CATEGORIES, {
      ...write,
      summary: 'Delete a category without subcategories',
      description: 'A category with subcategories is refused (422); products lose their link to it.',
    }),
    async (request, reply) => {
      await categories.remove(storeIdOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
}

import { Type } from '@sinclair/typebox';
import { Category, CategoryGetQuery, CategoryInput, CategoryListQuery, CategoryUpdate } from '../../contract/categories.js';
import { CountResponse, IdParams } from '../../contract/common.js';
import type { CategoryService } from '../../modules/catalog/category-service.js';
import { type App, embeds, pageOf, storeIdOf } from '../plugins/app-types.js';
import { CATEGORY_EMBED_SCOPES } from '../plugins/embed-scopes.js';
import { createErrors, NoContent, readErrors, writeErrors } from './docs.js';

/** `/v1/categories`: every operation of the resource, in one file. */
export function registerCategoryRoutes(app: App, categories: CategoryService): void {
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

  app.get(
    '/v1/categories/count',
    {
      schema: { operationId: 'categories.count', tags: ['categories'], summary: 'Count categories', response: { 200: CountResponse, ...readErrors } },
      config: { scope: 'catalog:read' },
    },
    async (request) => ({ count: await categories.count(storeIdOf(request)) }),
  );

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

import { Type } from '@sinclair/typebox';
import { FieldsOnlyQuery } from '../../contract/common.js';
import {
  BulkProductRequest,
  MAX_BULK_PRODUCTS,
  MAX_BULK_VARIATIONS,
  Product,
  ProductCountQuery,
  ProductInput,
  ProductListQuery,
  ProductUpdate,
} from '../../contract/products.js';
import type { ProductService } from '../../modules/catalog/product-service.js';
import { type App, originOf, pageOf, storeIdOf } from '../plugins/app-types.js';
import { bulkShapeProblems } from '../plugins/bulk-shape-problems.js';
import { createErrors, deleteErrors, inUseWriteErrors } from './docs.js';
import { countOptions, createOptions, deleteOptions, getOptions, itemPath, listOptions, type Resource, updateOptions } from './resource-routes.js';

const PRODUCTS: Resource = { path: '/v1/products', tag: 'products', one: 'a product', many: 'products' };

/** `/v1/products`: every operation of the resource, in one file. */
export function registerProductRoutes(app: App, products: ProductService): void {
  const read = { scope: 'catalog:read', record: Product } as const;
  const write = { scope: 'catalog:write', priceChange: 'never' } as const;
  const filterOf = (query: { sku?: string; categoryId?: number }) => ({ sku: query.sku, categoryId: query.categoryId });

  app.get(PRODUCTS.path, listOptions(PRODUCTS, { ...read, summary: 'List products with their variations', querystring: ProductListQuery }), async (request) =>
    products.list(storeIdOf(request), filterOf(request.query), pageOf(request.query)),
  );

  app.get(`${PRODUCTS.path}/count`, countOptions(PRODUCTS, { scope: 'catalog:read', querystring: ProductCountQuery }), async (request) => ({
    count: await products.count(storeIdOf(request), filterOf(request.query)),
  }));

  app.get(itemPath(PRODUCTS), getOptions(PRODUCTS, { ...read, summary: 'Get a product with its variations', querystring: FieldsOnlyQuery }), async (request) =>
    products.get(storeIdOf(request), request.params.id),
  );

  app.post(
    PRODUCTS.path,
    createOptions(PRODUCTS, {
      ...write,
      summary: 'Create a product with its variations',
      description: 'Every SKU, the product’s and its variations’, must be unused in the store.',
      body: ProductInput,
      record: Product,
    }),
    async (request, reply) => reply.sendCreated(() => products.create(storeIdOf(request), originOf(request), request.body)),
  );

  app.post(
    `${PRODUCTS.path}/bulk`,
    {
      schema: {
        operationId: 'products.createMany',
        tags: [PRODUCTS.tag],
        summary: `Create 1–${MAX_BULK_PRODUCTS} products with their variations, all or none`,
        description:
          `Each item is a product as \`POST /v1/products\` takes it; ${MAX_BULK_VARIATIONS} variations at most in the whole request. ` +
          'Every SKU must be unused in the store and named once in the request. A 422 lists every invalid item with its `index` and `field` ' +
          '(`sku`, `variations[2].sku`, `categoryIds`); nothing is created. Answers the created products in request order; each is a `product.created` event.',
        body: BulkProductRequest,
        response: { 201: Type.Array(Product), ...createErrors },
      },
      config: write,
      // Items the schema refuses are reported together with those the store refuses.
      attachValidation: true,
    },
    async (request, reply) => {
      const shapeProblems = bulkShapeProblems(request.validationError);
      const items = request.body as ProductInput[];
      return reply.sendCreated(() => products.bulkCreate(storeIdOf(request), originOf(request), items, shapeProblems));
    },
  );

  app.put(
    itemPath(PRODUCTS),
    updateOptions(PRODUCTS, {
      // A SKU renamed, or variations replaced, moves or drops the prices of a SKU another product may take.
      scope: ['catalog:write', 'catalog:read'],
      priceChange: { whenSent: ['price', 'sku', 'variations'] satisfies Array<keyof ProductUpdate> },
      description:
        '`variations` replaces the list, matched by sku: a kept sku keeps its variation id and takes the new price and stock ' +
        '(omitted: null), a new sku creates a variation, a missing one deletes it with its trade prices and price list entries. ' +
        '`categoryIds` replaces the set. Changing the product’s own sku (or setting it to null) while trade prices or price list ' +
        'entries of the old sku remain is refused: 409, code 15, naming them.',
      body: ProductUpdate,
      record: Product,
      errors: inUseWriteErrors,
    }),
    async (request) => products.update(storeIdOf(request), originOf(request), request.params.id, request.body),
  );

  app.delete(
    itemPath(PRODUCTS),
    deleteOptions(PRODUCTS, {
      scope: 'catalog:write',
      priceChange: 'always',
      summary: 'Delete a product with its variations, SKUs and trade prices',
      errors: deleteErrors,
    }),
    async (request, reply) => {
      await products.remove(storeIdOf(request), originOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
}

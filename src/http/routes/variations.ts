import { FieldsOnlyQuery, IdParams } from '../../contract/common.js';
import { Variation, VariationInput, VariationListQuery, VariationParams, VariationUpdate } from '../../contract/variations.js';
import type { VariationService } from '../../modules/catalog/variation-service.js';
import { type App, originOf, pageOf, storeIdOf } from '../plugins/app-types.js';
import { deleteErrors, inUseWriteErrors } from './docs.js';
import { countOptions, createOptions, deleteOptions, getOptions, itemPath, listOptions, type Resource, updateOptions } from './resource-routes.js';

/** A product's variations: `/v1/products/{id}/variations`, one by `{variationId}`, under the products' tag. */
const VARIATIONS: Resource<typeof IdParams, typeof VariationParams> = {
  path: '/v1/products/:id/variations',
  tag: 'products',
  operations: 'variations',
  one: 'a variation',
  many: 'variations',
  params: IdParams,
  item: { segment: ':variationId', params: VariationParams },
};

/** `/v1/products/{id}/variations`: every operation of the resource, in one file. */
export function registerVariationRoutes(app: App, variations: VariationService): void {
  const read = { scope: 'catalog:read', record: Variation } as const;

  app.get(
    VARIATIONS.path,
    listOptions(VARIATIONS, { ...read, summary: 'List the variations of a product', querystring: VariationListQuery }),
    async (request) => variations.list(storeIdOf(request), request.params.id, pageOf(request.query)),
  );

  app.get(`${VARIATIONS.path}/count`, countOptions(VARIATIONS, { scope: 'catalog:read', summary: 'Count the variations of a product' }), async (request) => ({
    count: await variations.count(storeIdOf(request), request.params.id),
  }));

  app.get(itemPath(VARIATIONS), getOptions(VARIATIONS, { ...read, summary: 'Get a variation of a product', querystring: FieldsOnlyQuery }), async (request) =>
    variations.get(storeIdOf(request), request.params.id, request.params.variationId),
  );

  app.post(
    VARIATIONS.path,
    createOptions(VARIATIONS, {
      scope: 'catalog:write',
      priceChange: 'never',
      summary: 'Add a variation to a product',
      description: 'The sku must be unused in the store.',
      body: VariationInput,
      record: Variation,
    }),
    async (request, reply) => reply.sendCreated(() => variations.create(storeIdOf(request), originOf(request), request.params.id, request.body)),
  );

  app.put(
    itemPath(VARIATIONS),
    updateOptions(VARIATIONS, {
      scope: ['catalog:write', 'catalog:read'],
      priceChange: { whenSent: ['price', 'sku'] satisfies Array<keyof VariationUpdate> },
      description: 'Changing the sku while trade prices or price list entries of the old sku remain is refused: 409, code 15, naming them.',
      body: VariationUpdate,
      record: Variation,
      errors: inUseWriteErrors,
    }),
    async (request) => variations.update(storeIdOf(request), originOf(request), request.params.id, request.params.variationId, request.body),
  );

  app.delete(
    itemPath(VARIATIONS),
    deleteOptions(VARIATIONS, {
      scope: 'catalog:write',
      priceChange: 'always',
      summary: 'Delete a variation with its trade prices and price list entries, and free its sku',
      errors: deleteErrors,
    }),
    async (request, reply) => {
      await variations.remove(storeIdOf(request), originOf(request), request.params.id, request.params.variationId);
      return reply.code(204).send(null);
    },
  );
}

import { PriceList, PriceListCountQuery, PriceListGetQuery, PriceListInput, PriceListListQuery, PriceListUpdate } from '../../../contract/price-lists.js';
import type { PriceListService } from '../../../modules/price-lists/price-list-service.js';
import { type App, originOf, pageOf, storeIdOf } from '../../plugins/app-types.js';
import { deleteErrors } from '../docs.js';
import { countOptions, createOptions, deleteOptions, getOptions, itemPath, listOptions, type Resource, updateOptions } from '../resource-routes.js';

const PRICE_LISTS: Resource = { path: '/v1/price-lists', tag: 'price lists', operations: 'priceLists', one: 'a price list', many: 'price lists' };

/** `/v1/price-lists`: the lists themselves (their entries' operations are in the files beside this one). */
export function registerListRoutes(app: App, priceLists: PriceListService): void {
  const read = { scope: 'trade_prices:read', record: PriceList } as const;

  app.get(PRICE_LISTS.path, listOptions(PRICE_LISTS, { ...read, querystring: PriceListListQuery }), async (request) =>
    priceLists.list(storeIdOf(request), { kind: request.query.kind }, pageOf(request.query)),
  );

  app.get(`${PRICE_LISTS.path}/count`, countOptions(PRICE_LISTS, { scope: 'trade_prices:read', querystring: PriceListCountQuery }), async (request) => ({
    count: await priceLists.count(storeIdOf(request), { kind: request.query.kind }),
  }));

  app.get(itemPath(PRICE_LISTS), getOptions(PRICE_LISTS, { ...read, querystring: PriceListGetQuery }), async (request) =>
    priceLists.get(storeIdOf(request), request.params.id),
  );

  app.post(
    PRICE_LISTS.path,
    createOptions(PRICE_LISTS, {
      scope: 'trade_prices:write',
      priceChange: 'never',
      description:
        "A `fixed` list prices SKUs by its entries (`/v1/price-lists/{id}/prices/bulk`); a `percentage` list takes `percentage` % off every catalog price, rounded to the store's currency (or by the list's own `rounding`). " +
        "A `lowest` list (`policy`) takes no turn among the customer's lists and is paid where it is lower. " +
        'Customers name their lists in order (`priceListIds`); the first that prices a SKU wins. See docs/pricing.md.',
      body: PriceListInput,
      record: PriceList,
    }),
    async (request, reply) => reply.sendCreated(() => priceLists.create(storeIdOf(request), originOf(request), request.body)),
  );

  app.put(
    itemPath(PRICE_LISTS),
    updateOptions(PRICE_LISTS, {
      scope: ['trade_prices:write', 'trade_prices:read'],
      priceChange: { whenSent: ['percentage', 'policy', 'rounding'] satisfies Array<keyof PriceListUpdate> },
      summary: 'Rename a price list or change its percentage',
      description: 'The kind never changes (sending it is allowed only as it is).',
      body: PriceListUpdate,
      record: PriceList,
    }),
    async (request) => priceLists.update(storeIdOf(request), originOf(request), request.params.id, request.body),
  );

  app.delete(
    itemPath(PRICE_LISTS),
    deleteOptions(PRICE_LISTS, {
      scope: 'trade_prices:write',
      priceChange: 'always',
      summary: 'Delete a price list, its entries, and its place in customers’ and groups’ lists',
      description:
        'Events: `price_list_price.deleted` for each entry, `customer.updated` for each customer that had the list, `customer_group.updated` for each group that had it, then `price_list.deleted`.',
      errors: deleteErrors,
    }),
    async (request, reply) => {
      await priceLists.remove(storeIdOf(request), originOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
}

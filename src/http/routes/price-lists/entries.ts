import { IdParams } from '../../../contract/common.js';
import { PriceListGetQuery, PriceListPrice, PriceListPriceCountQuery, PriceListPriceListQuery, PriceListPriceParams } from '../../../contract/price-lists.js';
import type { PriceListService } from '../../../modules/price-lists/price-list-service.js';
import { type App, originOf, pageOf, storeIdOf } from '../../plugins/app-types.js';
import { deleteErrors } from '../docs.js';
import { countOptions, deleteOptions, getOptions, itemPath, listOptions, type Resource } from '../resource-routes.js';

/** A list's entries: `/v1/price-lists/{id}/prices`, one by `{priceId}`. */
const ENTRIES: Resource<typeof IdParams, typeof PriceListPriceParams> = {
  path: '/v1/price-lists/:id/prices',
  tag: 'price lists',
  operations: 'priceLists.prices',
  one: 'an entry of a price list',
  many: 'the entries of a price list',
  params: IdParams,
  item: { segment: ':priceId', params: PriceListPriceParams },
};

/** A list's entries a page at a time, and counted. */
export function listAndCountEntries(app: App, priceLists: PriceListService): void {
  const read = { scope: 'trade_prices:read', record: PriceListPrice } as const;
  const filterOf = ({ productId, sku, validAt }: { productId?: number; sku?: string; validAt?: string }) => ({ productId, sku, validAt });

  app.get(ENTRIES.path, listOptions(ENTRIES, { ...read, querystring: PriceListPriceListQuery }), async (request) =>
    priceLists.listPrices(storeIdOf(request), request.params.id, filterOf(request.query), pageOf(request.query)),
  );

  app.get(`${ENTRIES.path}/count`, countOptions(ENTRIES, { scope: 'trade_prices:read', querystring: PriceListPriceCountQuery }), async (request) => ({
    count: await priceLists.countPrices(storeIdOf(request), request.params.id, filterOf(request.query)),
  }));
}

/** One entry of a list, read or deleted. */
export function getAndDeleteEntry(app: App, priceLists: PriceListService): void {
  app.get(itemPath(ENTRIES), getOptions(ENTRIES, { scope: 'trade_prices:read', record: PriceListPrice, querystring: PriceListGetQuery }), async (request) =>
    priceLists.getPrice(storeIdOf(request), request.params.id, request.params.priceId),
  );

  app.delete(
    itemPath(ENTRIES),
    deleteOptions(ENTRIES, { scope: 'trade_prices:write', priceChange: 'always', summary: 'Delete an entry of a price list', errors: deleteErrors }),
    async (request, reply) => {
      await priceLists.removePrice(storeIdOf(request), originOf(request), request.params.id, request.params.priceId);
      return reply.code(204).send(null);
    },
  );
}

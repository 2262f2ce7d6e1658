import { PriceList, PriceListGetQuery } from '../../../contract/price-lists.js';
import type { PriceListService } from '../../../modules/price-lists/price-list-service.js';
import { type App, storeIdOf } from '../../plugins/app-types.js';
import { getOptions, itemPath, type Resource } from '../resource-routes.js';

export const PRICE_LISTS: Resource = { path: '/v1/price-lists', tag: 'price lists', operations: 'priceLists', one: 'a price list', many: 'price lists' };

export function getPriceList(app: App, priceLists: PriceListService): void {
  app.get(itemPath(PRICE_LISTS), getOptions(PRICE_LISTS, { scope: 'trade_prices:read', querystring: PriceListGetQuery, record: PriceList }), async (request) =>
    priceLists.get(storeIdOf(request), request.params.id),
  );
}

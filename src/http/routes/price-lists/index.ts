import type { PriceListService } from '../../../modules/price-lists/price-list-service.js';
import type { App } from '../../plugins/app-types.js';
import { bulkCreatePriceListPrices } from './bulk-create-price-list-prices.js';
import { getAndDeleteEntry, listAndCountEntries } from './entries.js';
import { importPriceListPrices } from './import-price-list-prices.js';
import { listPriceListOverlaps } from './list-price-list-overlaps.js';
import { registerListRoutes } from './price-lists.js';
import { replacePriceListPrices } from './replace-price-list-prices.js';

/** The lists, then their entries. */
export function registerPriceListRoutes(app: App, priceLists: PriceListService): void {
  for (const register of [
    registerListRoutes,
    bulkCreatePriceListPrices,
    replacePriceListPrices,
    importPriceListPrices,
    listAndCountEntries,
    listPriceListOverlaps,
    getAndDeleteEntry,
  ]) {
    register(app, priceLists);
  }
}

import type { PriceListService } from '../../../modules/price-lists/price-list-service.js';
import type { App } from '../../plugins/app-types.js';
import { bulkCreatePriceListPrices } from './bulk-create-price-list-prices.js';
import { countPriceListPrices } from './count-price-list-prices.js';
import { countPriceLists } from './count-price-lists.js';
import { createPriceList } from './create-price-list.js';
import { deletePriceListPrice } from './delete-price-list-price.js';
import { deletePriceList } from './delete-price-list.js';
import { getPriceListPrice } from './get-price-list-price.js';
import { getPriceList } from './get-price-list.js';
import { importPriceListPrices } from './import-price-list-prices.js';
import { listPriceListOverlaps } from './list-price-list-overlaps.js';
import { listPriceListPrices } from './list-price-list-prices.js';
import { listPriceLists } from './list-price-lists.js';
import { replacePriceListPrices } from './replace-price-list-prices.js';
import { updatePriceList } from './update-price-list.js';

export function registerPriceListRoutes(app: App, priceLists: PriceListService): void {
  for (const register of [
    listPriceLists,
    countPriceLists,
    getPriceList,
    createPriceList,
    updatePriceList,
    deletePriceList,
    bulkCreatePriceListPrices,
    replacePriceListPrices,
    importPriceListPrices,
    listPriceListPrices,
    countPriceListPrices,
    listPriceListOverlaps,
    getPriceListPrice,
    deletePriceListPrice,
  ]) {
    register(app, priceLists);
  }
}

import type { SkuLookupService } from '../../../modules/catalog/sku-lookup-service.js';
import type { App } from '../../plugins/app-types.js';
import { lookupSkus } from './lookup-skus.js';
import { searchSkus } from './search-skus.js';

export function registerSkuRoutes(app: App, skus: SkuLookupService): void {
  lookupSkus(app, skus);
  searchSkus(app, skus);
}

import type { SkuLookupItem, SkuLookupResult } from '../../contract/skus.js';
import { fromPriceUnits } from '../money.js';
import type { UnitOfWork } from '../unit-of-work.js';

/**
 * Finds the products and variations of SKUs, for integrators whose systems know SKUs and not
 * ids: one indexed query for up to 1000 SKUs (the register's key), answered in request order.
 */
export class SkuLookupService {
  constructor(private readonly uow: UnitOfWork) {}

  async lookup(storeId: number, skus: readonly string[]): Promise<SkuLookupResult> {
    const sent = [...new Set(skus)];
    const prices = await this.uow.repos.pricing.skuPrices(storeId, sent);
    const bySku = new Map(prices.map((price) => [price.sku, price]));
    const found: SkuLookupItem[] = [];
    const unknown: string[] = [];
    for (const sku of sent) {
      const price = bySku.get(sku);
      if (price === undefined) {
        unknown.push(sku);
        continue;
      }
      found.push({ sku, productId: price.productId, variationId: price.variationId, price: fromPriceUnits(price.variationPriceUnits ?? price.productPriceUnits) });
    }
    return { found, unknown };
  }
}

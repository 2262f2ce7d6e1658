import type { SkuLookupItem, SkuLookupResult, SkuSearchItem } from '../../contract/skus.js';
import { fromPriceUnits } from '../shared/money.js';
import type { UnitOfWork } from '../shared/unit-of-work.js';

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
      found.push({
        sku,
        productId: price.productId,
        variationId: price.variationId,
        price: fromPriceUnits(price.variationPriceUnits ?? price.productPriceUnits),
      });
    }
    return { found, unknown };
  }

  /** Up to `count` SKUs of the store containing `text` (A–Z in either case), by code point, with the product's title and the catalog price. */
  async search(storeId: number, text: string, count: number): Promise<SkuSearchItem[]> {
    const holders = await this.uow.repos.skus.search(storeId, text, count);
    const prices = new Map(
      (
        await this.uow.repos.pricing.skuPrices(
          storeId,
          holders.map((holder) => holder.sku),
        )
      ).map((price) => [price.sku, price]),
    );
    // A SKU whose product went between the two reads is left out.
    return holders.flatMap((holder) => {
      const price = prices.get(holder.sku);
      return price === undefined ? [] : [{ ...holder, price: fromPriceUnits(price.variationPriceUnits ?? price.productPriceUnits) }];
    });
  }
}

import type { EffectivePrice } from '../../contract/trade-prices.js';
import { found, notFound } from '../errors.js';
import type { UnitOfWork } from '../unit-of-work.js';

/**
 * The price a customer pays for a SKU: their newest trade price while they are a trade
 * customer, else the variation's own price, else the product's.
 */
export class EffectivePriceService {
  constructor(private readonly uow: UnitOfWork) {}

  async explain(storeId: number, customerId: number, sku: string): Promise<EffectivePrice> {
    const customer = found(await this.uow.repos.customers.find(storeId, customerId), `Customer ${customerId}`);
    const prices = await this.resolve(storeId, { id: customer.id, trade: customer.trade }, [sku]);
    const price = prices.get(sku);
    if (price === undefined) throw notFound(`SKU '${sku}'`);
    return price;
  }

  /**
   * Effective prices of several SKUs at once (orders price all their lines with this), in a
   * constant number of queries. Unknown SKUs are absent from the map.
   */
  async resolve(storeId: number, customer: { id: number; trade: boolean }, skus: readonly string[]): Promise<Map<string, EffectivePrice>> {
    const repos = this.uow.repos;
    const distinct = [...new Set(skus)];
    const [catalog, records] = await Promise.all([repos.tradePrices.skuPrices(storeId, distinct), repos.tradePrices.newestFirst(storeId, customer.id, distinct)]);
    const recordsBySku = new Map<string, typeof records>();
    for (const record of records) recordsBySku.set(record.sku, [...(recordsBySku.get(record.sku) ?? []), record]);
    const result = new Map<string, EffectivePrice>();
    for (const entry of catalog) {
      const trade = recordsBySku.get(entry.sku) ?? [];
      const applied = customer.trade ? trade[0] : undefined;
      const base: Pick<EffectivePrice, 'price' | 'source'> =
        applied !== undefined
          ? { price: applied.price, source: 'trade' }
          : entry.variationPrice !== null
            ? { price: entry.variationPrice, source: 'variation' }
            : { price: entry.productPrice, source: 'product' };
      result.set(entry.sku, {
        customerId: customer.id,
        sku: entry.sku,
        productId: entry.productId,
        variationId: entry.variationId,
        ...base,
        tradePriceId: applied?.id ?? null,
        shadowedTradePriceIds: trade.filter((record) => record !== applied).map((record) => record.id),
      });
    }
    return result;
  }
}

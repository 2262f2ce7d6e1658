import { type ExpressionBuilder, type Kysely, sql } from 'kysely';
import type { PriceListKind } from '../../contract/price-lists.js';
import type { PriceRule } from '../../modules/pricing/price-resolution.js';
import type { PriceListTerms, PricingRepository, SkuPrice } from '../../modules/pricing/pricing-repository.js';
import type { Engine } from '../engine.js';
import type { Tables } from '../tables.js';

/** One query each, whatever the number of SKUs or lists. */
export class KyselyPricingRepository implements PricingRepository {
  constructor(
    private readonly db: Kysely<Tables>,
    private readonly engine: Engine,
  ) {}

  async skuPrices(storeId: number, skus: readonly string[]): Promise<SkuPrice[]> {
    if (skus.length === 0) return [];
    const rows = await this.db
      .selectFrom('skus')
      .innerJoin('products', 'products.id', 'skus.product_id')
      .leftJoin('product_variations', 'product_variations.id', 'skus.variation_id')
      .select(['skus.sku', 'skus.product_id', 'skus.variation_id', 'products.price as product_price', 'product_variations.price as variation_price'])
      .where('skus.store_id', '=', storeId)
      .where('skus.sku', 'in', [...skus])
      .execute();
    return rows.map((row) => ({
      sku: row.sku,
      productId: Number(row.product_id),
      variationId: row.variation_id === null ? null : Number(row.variation_id),
      productPriceUnits: Number(row.product_price),
      variationPriceUnits: row.variation_price === null ? null : Number(row.variation_price),
    }));
  }

  async customerLists(storeId: number, customerId: number): Promise<PriceListTerms[]> {
    const rows = await this.db
      .selectFrom('customer_price_lists as c')
      .innerJoin('price_lists as l', 'l.id', 'c.price_list_id')
      .select(['l.id', 'l.kind', 'l.percentage'])
      .where('c.store_id', '=', storeId)
      .where('c.customer_id', '=', customerId)
      .orderBy('c.position')
      .execute();
    return rows.map((row) => ({ id: Number(row.id), kind: row.kind as PriceListKind, percentageUnits: row.percentage === null ? null : Number(row.percentage) }));
  }

  async tradeRules(storeId: number, customerId: number, skus: readonly string[], validAt?: string): Promise<Array<PriceRule & { sku: string }>> {
    if (skus.length === 0) return [];
    const all = this.db
      .selectFrom('trade_prices')
      .select(['id', 'sku', 'price', 'min_quantity', 'valid_from', 'valid_until'])
      .where('store_id', '=', storeId)
      .where('customer_id', '=', customerId)
      .where('sku', 'in', [...skus]);
    // Every record (the rule keeps the newest valid one of each SKU and break; a customer may
    // hold thousands of one SKU, never de-duplicated), unless a socket lies between: then only
    // those, picked by the database along the covering index (migration 010).
    if (validAt === undefined || this.engine.readsRowsInProcess) return (await all.execute()).map(toRule);
    const ranked = all
      .where(validThen(validAt))
      .select(sql<number>`row_number() over (partition by sku, min_quantity order by id desc)`.as('rank'))
      .as('ranked');
    const rows = await this.db.selectFrom(ranked).select(['id', 'sku', 'price', 'min_quantity', 'valid_from', 'valid_until']).where('rank', '=', 1).execute();
    return rows.map(toRule);
  }

  async listRules(storeId: number, priceListIds: readonly number[], skus: readonly string[], validAt?: string): Promise<Array<PriceRule & { sku: string; priceListId: number }>> {
    if (skus.length === 0 || priceListIds.length === 0) return [];
    const all = this.db
      .selectFrom('price_list_prices')
      .select(['id', 'price_list_id', 'sku', 'price', 'min_quantity', 'valid_from', 'valid_until'])
      .where('store_id', '=', storeId)
      .where('price_list_id', 'in', [...priceListIds])
      .where('sku', 'in', [...skus]);
    const rows =
      validAt === undefined || this.engine.readsRowsInProcess
        ? await all.execute()
        : await this.db
            .selectFrom(
              all
                .where(validThen(validAt))
                .select(sql<number>`row_number() over (partition by price_list_id, sku, min_quantity order by id desc)`.as('rank'))
                .as('ranked'),
            )
            .select(['id', 'price_list_id', 'sku', 'price', 'min_quantity', 'valid_from', 'valid_until'])
            .where('rank', '=', 1)
            .execute();
    return rows.map((row) => ({ ...toRule(row), priceListId: Number(row.price_list_id) }));
  }
}

/** validFrom ≤ at < validUntil, a missing bound always met; canonical timestamps compare as text. */
function validThen(at: string) {
  return (eb: ExpressionBuilder<Tables, 'trade_prices' | 'price_list_prices'>) =>
    eb.and([eb.or([eb('valid_from', 'is', null), eb('valid_from', '<=', at)]), eb.or([eb('valid_until', 'is', null), eb('valid_until', '>', at)])]);
}

function toRule(row: { id: number; sku: string; price: number; min_quantity: number; valid_from: string | null; valid_until: string | null }): PriceRule & { sku: string } {
  return {
    id: Number(row.id),
    sku: row.sku,
    priceUnits: Number(row.price),
    minQuantity: Number(row.min_quantity),
    validFrom: row.valid_from,
    validUntil: row.valid_until,
  };
}

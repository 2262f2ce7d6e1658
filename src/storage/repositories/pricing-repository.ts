import { type Kysely, sql } from 'kysely';
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
    const columns = ['t.id', 't.sku', 't.price', 't.min_quantity', 't.valid_from', 't.valid_until'] as const;
    if (validAt !== undefined && !this.engine.bareColumnsFollowMax) {
      // The newest valid record of each SKU, product and break, along the index in its order
      // (no sort), then only those of the product that owns the SKU now.
      const picked = this.db
        .selectFrom('trade_prices as t')
        .select([...columns, 't.product_id'])
        .select(sql<number>`row_number() over (partition by t.sku, t.product_id, t.min_quantity order by t.id desc)`.as('rank'))
        .where('t.store_id', '=', storeId)
        .where('t.customer_id', '=', customerId)
        .where('t.sku', 'in', [...skus])
        .where(validThen('t', validAt))
        .as('picked');
      const rows = await this.db
        .selectFrom(picked)
        .innerJoin('skus as k', (join) => join.on('k.store_id', '=', storeId).onRef('k.sku', '=', 'picked.sku').onRef('k.product_id', '=', 'picked.product_id'))
        .select(['picked.id', 'picked.sku', 'picked.price', 'picked.min_quantity', 'picked.valid_from', 'picked.valid_until'])
        .where('picked.rank', '=', 1)
        .execute();
      return rows.map(toRule);
    }
    // SKU by SKU (`cross join` keeps `skus` first on SQLite), the customer's records of the
    // product that owns the SKU now, along the index.
    const owned = this.db
      .selectFrom('skus as k')
      .crossJoin('trade_prices as t')
      .where('k.store_id', '=', storeId)
      .where('k.sku', 'in', [...skus])
      .whereRef('t.store_id', '=', 'k.store_id')
      .where('t.customer_id', '=', customerId)
      .whereRef('t.sku', '=', 'k.sku')
      .whereRef('t.product_id', '=', 'k.product_id');
    if (validAt === undefined) return (await owned.select(columns).execute()).map(toRule);
    // The newest valid record of each SKU and break: one aggregate, no sort.
    const rows = await owned
      .where(validThen('t', validAt))
      .select((eb) => [eb.fn.max('t.id').as('id'), 'k.sku', 't.price', 't.min_quantity', 't.valid_from', 't.valid_until'])
      .groupBy(['k.sku', 't.min_quantity'])
      .execute();
    return rows.map(toRule);
  }

  async listRules(storeId: number, priceListIds: readonly number[], skus: readonly string[], validAt?: string): Promise<Array<PriceRule & { sku: string; priceListId: number }>> {
    if (skus.length === 0 || priceListIds.length === 0) return [];
    // As for trade prices. The lists are the store's (the caller read them for the customer),
    // and a product belongs to one store, so the entries' own store_id need not be read.
    const columns = ['p.id', 'p.price_list_id', 'p.sku', 'p.price', 'p.min_quantity', 'p.valid_from', 'p.valid_until'] as const;
    let rows;
    if (validAt !== undefined && !this.engine.bareColumnsFollowMax) {
      const picked = this.db
        .selectFrom('price_list_prices as p')
        .select([...columns, 'p.product_id'])
        .select(sql<number>`row_number() over (partition by p.price_list_id, p.sku, p.product_id, p.min_quantity order by p.id desc)`.as('rank'))
        .where('p.price_list_id', 'in', [...priceListIds])
        .where('p.sku', 'in', [...skus])
        .where(validThen('p', validAt))
        .as('picked');
      rows = await this.db
        .selectFrom(picked)
        .innerJoin('skus as k', (join) => join.on('k.store_id', '=', storeId).onRef('k.sku', '=', 'picked.sku').onRef('k.product_id', '=', 'picked.product_id'))
        .select(['picked.id', 'picked.price_list_id', 'picked.sku', 'picked.price', 'picked.min_quantity', 'picked.valid_from', 'picked.valid_until'])
        .where('picked.rank', '=', 1)
        .execute();
    } else {
      const owned = this.db
        .selectFrom('skus as k')
        .crossJoin('price_list_prices as p')
        .where('k.store_id', '=', storeId)
        .where('k.sku', 'in', [...skus])
        .where('p.price_list_id', 'in', [...priceListIds])
        .whereRef('p.sku', '=', 'k.sku')
        .whereRef('p.product_id', '=', 'k.product_id');
      rows =
        validAt === undefined
          ? await owned.select(columns).execute()
          : await owned
              .where(validThen('p', validAt))
              .select((eb) => [eb.fn.max('p.id').as('id'), 'p.price_list_id', 'k.sku', 'p.price', 'p.min_quantity', 'p.valid_from', 'p.valid_until'])
              .groupBy(['p.price_list_id', 'k.sku', 'p.min_quantity'])
              .execute();
    }
    return rows.map((row) => ({ ...toRule(row), priceListId: Number(row.price_list_id) }));
  }
}

/** validFrom ≤ at < validUntil for the rows of `table`, a missing bound always met; canonical timestamps compare as text. */
function validThen(table: 't' | 'p', at: string) {
  const from = sql.ref(`${table}.valid_from`);
  const until = sql.ref(`${table}.valid_until`);
  return sql<boolean>`(${from} is null or ${from} <= ${at}) and (${until} is null or ${until} > ${at})`;
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

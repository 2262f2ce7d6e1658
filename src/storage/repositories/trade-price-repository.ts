import { type Kysely, type Selectable, type SelectQueryBuilder, sql } from 'kysely';
import type { TradePrice } from '../../contract/trade-prices.js';
import { fromPriceUnits, toPriceUnits } from '../../modules/money.js';
import type { Page } from '../../modules/page.js';
import type {
  BatchReferences,
  NewTradePrice,
  SkuPrice,
  TradePriceFilter,
  TradePriceRepository,
} from '../../modules/trade-prices/trade-price-repository.js';
import type { Engine } from '../engine.js';
import type { Tables, TradePricesTable } from '../tables.js';
import { insertFromArrays } from './array-insert.js';
import { fromFlag } from './values.js';

export class KyselyTradePriceRepository implements TradePriceRepository {
  constructor(
    private readonly db: Kysely<Tables>,
    private readonly engine: Engine,
  ) {}

  async insertMany(storeId: number, items: readonly NewTradePrice[], createdAt: string): Promise<TradePrice[]> {
    if (items.length === 0) return [];
    const rows = this.engine.insertsRowsFromArrays
      ? (
          await sql<{ id: number }>`${insertFromArrays('trade_prices', {
            store_id: { type: 'bigint', values: items.map(() => storeId) },
            customer_id: { type: 'bigint', values: items.map((item) => item.customerId) },
            product_id: { type: 'bigint', values: items.map((item) => item.productId) },
            sku: { type: 'text', values: items.map((item) => item.sku) },
            price: { type: 'bigint', values: items.map((item) => toPriceUnits(item.price)) },
            created_at: { type: 'text', values: items.map(() => createdAt) },
          })} returning id`.execute(this.db)
        ).rows
      : await this.db
          .insertInto('trade_prices')
          .values(items.map((item) => ({ store_id: storeId, customer_id: item.customerId, product_id: item.productId, sku: item.sku, price: toPriceUnits(item.price), created_at: createdAt })))
          .returning('id')
          .execute();
    // Ids of one statement are assigned in the order of its rows; RETURNING's order is not promised.
    const ids = rows.map((row) => Number(row.id)).sort((a, b) => a - b);
    return items.map((item, index) => ({ id: ids[index]!, customerId: item.customerId, productId: item.productId, sku: item.sku, price: item.price, createdAt }));
  }

  async list(storeId: number, filter: TradePriceFilter, page: Page): Promise<TradePrice[]> {
    const rows = await this.filtered(storeId, filter).selectAll().orderBy('id').limit(page.count).offset(page.offset).execute();
    return rows.map(toTradePrice);
  }

  async count(storeId: number, filter: TradePriceFilter): Promise<number> {
    const row = await this.filtered(storeId, filter).select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
    return Number(row.count);
  }

  async find(storeId: number, id: number): Promise<TradePrice | undefined> {
    const row = await this.db.selectFrom('trade_prices').selectAll().where('store_id', '=', storeId).where('id', '=', id).executeTakeFirst();
    return row && toTradePrice(row);
  }

  async delete(storeId: number, id: number): Promise<TradePrice | undefined> {
    const row = await this.db.deleteFrom('trade_prices').where('store_id', '=', storeId).where('id', '=', id).returningAll().executeTakeFirst();
    return row && toTradePrice(row);
  }

  async deleteForCustomer(storeId: number, customerId: number): Promise<TradePrice[]> {
    const rows = await this.db.deleteFrom('trade_prices').where('store_id', '=', storeId).where('customer_id', '=', customerId).returningAll().execute();
    return rows.map(toTradePrice).sort((a, b) => a.id - b.id);
  }

  async deleteForProduct(storeId: number, productId: number): Promise<TradePrice[]> {
    const rows = await this.db.deleteFrom('trade_prices').where('store_id', '=', storeId).where('product_id', '=', productId).returningAll().execute();
    return rows.map(toTradePrice).sort((a, b) => a.id - b.id);
  }

  async findReferences(storeId: number, customerIds: readonly number[], productIds: readonly number[], skus: readonly string[]): Promise<BatchReferences> {
    const [customers, products, owners] = await Promise.all([
      customerIds.length === 0 ? [] : this.db.selectFrom('customers').select(['id', 'trade']).where('store_id', '=', storeId).where('id', 'in', [...customerIds]).execute(),
      productIds.length === 0 ? [] : this.db.selectFrom('products').select('id').where('store_id', '=', storeId).where('id', 'in', [...productIds]).execute(),
      skus.length === 0 ? [] : this.db.selectFrom('skus').select(['sku', 'product_id']).where('store_id', '=', storeId).where('sku', 'in', [...skus]).execute(),
    ]);
    return {
      customers: new Map(customers.map((row) => [Number(row.id), { trade: fromFlag(row.trade) }])),
      productIds: new Set(products.map((row) => Number(row.id))),
      skuOwners: new Map(owners.map((row) => [row.sku, Number(row.product_id)])),
    };
  }

  async newestFirst(storeId: number, customerId: number, skus: readonly string[]): Promise<TradePrice[]> {
    if (skus.length === 0) return [];
    const rows = await this.db
      .selectFrom('trade_prices')
      .selectAll()
      .where('store_id', '=', storeId)
      .where('customer_id', '=', customerId)
      .where('sku', 'in', [...skus])
      .orderBy('id', 'desc')
      .execute();
    return rows.map(toTradePrice);
  }

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
      productPrice: fromPriceUnits(row.product_price),
      variationPrice: row.variation_price === null ? null : fromPriceUnits(row.variation_price),
    }));
  }

  private filtered(storeId: number, filter: TradePriceFilter): SelectQueryBuilder<Tables, 'trade_prices', object> {
    let query = this.db.selectFrom('trade_prices').where('store_id', '=', storeId);
    if (filter.customerId !== undefined) query = query.where('customer_id', '=', filter.customerId);
    if (filter.productId !== undefined) query = query.where('product_id', '=', filter.productId);
    if (filter.sku !== undefined) query = query.where('sku', '=', filter.sku);
    return query;
  }
}

function toTradePrice(row: Selectable<TradePricesTable>): TradePrice {
  return {
    id: Number(row.id),
    customerId: Number(row.customer_id),
    productId: Number(row.product_id),
    sku: row.sku,
    price: fromPriceUnits(row.price),
    createdAt: row.created_at,
  };
}

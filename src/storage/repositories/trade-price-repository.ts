import { type Kysely, type Selectable, sql } from 'kysely';
import type { TradePrice } from '../../contract/trade-prices.js';
import { toPriceUnits } from '../../modules/shared/money.js';
import type { Page } from '../../modules/shared/page.js';
import type {
  BatchReferences,
  NewTradePrice,
  RecordsOfSku,
  SkuRange,
  TradePriceFilter,
  TradePriceOrder,
  TradePriceOwner,
  TradePriceRepository,
} from '../../modules/trade-prices/trade-price-repository.js';
import type { Engine } from '../engine.js';
import type { Tables } from '../tables.js';
import type { TradePricesTable } from '../tables/price-tables.js';
import { IDS_PER_DELETE, keepDeletedTradePrices } from './deleted-rows.js';
import { insertPricedSkuRows, pricedSkuOfRow } from './priced-sku-rows.js';
import type { HotReads } from './hot-reads.js';
import { byCodePoint, containsIgnoringAsciiCase, fromFlag } from './values.js';

/** The interface's order: by id, ascending. */
const BY_ID: TradePriceOrder = { field: 'id', descending: false };

export class KyselyTradePriceRepository implements TradePriceRepository {
  constructor(
    private readonly db: Kysely<Tables>,
    private readonly engine: Engine,
    private readonly hotReads: HotReads,
  ) {}

  async insertMany(storeId: number, items: readonly NewTradePrice[], createdAt: string): Promise<TradePrice[]> {
    const ids = await insertPricedSkuRows(
      this.db,
      this.engine,
      'trade_prices',
      storeId,
      items.map((item) => ({ ...item, owner: item.customerId })),
      createdAt,
    );
    return items.map((item, index) => ({
      id: ids[index]!,
      customerId: item.customerId,
      productId: item.productId,
      sku: item.sku,
      price: item.price,
      minQuantity: item.minQuantity,
      validFrom: item.validFrom,
      validUntil: item.validUntil,
      createdAt,
    }));
  }

  async list(storeId: number, filter: TradePriceFilter, page: Page, order: TradePriceOrder = BY_ID): Promise<TradePrice[]> {
    if (filter.skuContains === undefined && order.field === 'id' && !order.descending) {
      const rows = await this.hotReads.tradePricePage(filter).execute(this.db, { ...filter, storeId, count: page.count, offset: page.offset });
      return rows.map(toTradePrice);
    }
    // Another order, or a search: a query of its own, read like a count (every record the
    // filters select), the page the first `offset + count` of them in that order. The sort
    // carries ids only (a customer's 40 000 prices sorted whole rows held SQLite's synchronous
    // call 70 ms), then the page's records are read by id.
    const direction = order.descending ? 'desc' : 'asc';
    let query = this.filtered(storeId, filter).select('id');
    if (order.field === 'validFrom' || order.field === 'validUntil') {
      // No start is the earliest start; no end the latest end.
      const column = order.field === 'validFrom' ? 'valid_from' : 'valid_until';
      const missing = order.field === 'validFrom' ? 0 : 1;
      query = query
        .orderBy(sql`case when ${sql.ref(column)} is null then ${sql.lit(missing)} else ${sql.lit(1 - missing)} end`, direction)
        .orderBy(byCodePoint(this.engine, column), direction);
    } else if (order.field === 'sku') {
      query = query.orderBy(byCodePoint(this.engine, 'sku'), direction);
    } else if (order.field !== 'id') {
      query = query.orderBy(order.field === 'price' ? 'price' : order.field === 'productId' ? 'product_id' : 'min_quantity', direction);
    }
    const ids = (await query.orderBy('id', direction).limit(page.count).offset(page.offset).execute()).map((row) => row.id);
    if (ids.length === 0) return [];
    const rows = await this.db.selectFrom('trade_prices').selectAll().where('store_id', '=', storeId).where('id', 'in', ids).execute();
    const byId = new Map(rows.map((row) => [Number(row.id), row]));
    return ids.flatMap((id) => {
      const row = byId.get(Number(id));
      return row === undefined ? [] : [toTradePrice(row)];
    });
  }

  async count(storeId: number, filter: TradePriceFilter): Promise<number> {
    if (filter.skuContains !== undefined) {
      const row = await this.filtered(storeId, filter)
        .select((eb) => eb.fn.countAll<number | string>().as('count'))
        .executeTakeFirstOrThrow();
      return Number(row.count);
    }
    const [row] = await this.hotReads.tradePriceCount(filter).execute(this.db, { ...filter, storeId });
    return Number(row?.count ?? 0);
  }

  /** The store's records the filters select, for a sorted or searched page and its count (the plain ones are `HotReads`'). */
  private filtered(storeId: number, filter: TradePriceFilter) {
    let query = this.db.selectFrom('trade_prices').where('store_id', '=', storeId);
    if (filter.customerId !== undefined) query = query.where('customer_id', '=', filter.customerId);
    if (filter.productId !== undefined) query = query.where('product_id', '=', filter.productId);
    if (filter.sku !== undefined) query = query.where('sku', '=', filter.sku);
    if (filter.skuContains !== undefined) query = query.where(containsIgnoringAsciiCase(this.engine, 'sku', filter.skuContains));
    if (filter.validAt !== undefined) {
      const at = filter.validAt;
      query = query
        .where((eb) => eb.or([eb('valid_from', 'is', null), eb('valid_from', '<=', at)]))
        .where((eb) => eb.or([eb('valid_until', 'is', null), eb('valid_until', '>', at)]));
    }
    return query;
  }

  async find(storeId: number, id: number): Promise<TradePrice | undefined> {
    const [row] = await this.hotReads.tradePriceById.execute(this.db, { storeId, id });
    return row && toTradePrice(row);
  }

  async findMany(storeId: number, ids: readonly number[]): Promise<TradePrice[]> {
    if (ids.length === 0) return [];
    const rows = await this.db
      .selectFrom('trade_prices')
      .selectAll()
      .where('store_id', '=', storeId)
      .where('id', 'in', [...new Set(ids)])
      .orderBy('id')
      .execute();
    return rows.map(toTradePrice);
  }

  async lastDeleted(storeId: number, ids: readonly number[]): Promise<TradePrice[]> {
    if (ids.length === 0) return [];
    const rows = await this.db
      .selectFrom('trade_prices_deleted')
      .selectAll()
      .where('store_id', '=', storeId)
      .where('id', 'in', [...new Set(ids)])
      .orderBy('deleted_at')
      .execute();
    // The last stretch of each record's life wins.
    return [...new Map(rows.map((row) => [Number(row.id), toTradePrice(row)])).values()];
  }

  async restore(storeId: number, records: readonly TradePrice[], createdAt: string): Promise<TradePrice[]> {
    if (records.length === 0) return [];
    await this.db
      .insertInto('trade_prices')
      .values(
        records.map((record) => ({
          id: record.id,
          store_id: storeId,
          customer_id: record.customerId,
          product_id: record.productId,
          sku: record.sku,
          price: toPriceUnits(record.price),
          min_quantity: record.minQuantity,
          valid_from: record.validFrom,
          valid_until: record.validUntil,
          created_at: createdAt,
        })),
      )
      .execute();
    return records.map((record) => ({ ...record, createdAt }));
  }

  async delete(storeId: number, id: number, deletedAt: string): Promise<TradePrice | undefined> {
    const row = await this.db.deleteFrom('trade_prices').where('store_id', '=', storeId).where('id', '=', id).returningAll().executeTakeFirst();
    if (row !== undefined) await keepDeletedTradePrices(this.db, this.engine, [row], deletedAt);
    return row && toTradePrice(row);
  }

  async allOf(storeId: number, customerId: number, skus?: readonly string[]): Promise<TradePrice[]> {
    let query = this.db.selectFrom('trade_prices').selectAll().where('store_id', '=', storeId).where('customer_id', '=', customerId);
    if (skus !== undefined) {
      if (skus.length === 0) return [];
      query = query.where('sku', 'in', [...skus]);
    }
    return (await query.orderBy('id').execute()).map(toTradePrice);
  }

  async customerRange(storeId: number, customerId: number, range: SkuRange, limit: number): Promise<TradePrice[]> {
    const rows = await this.inRange(storeId, customerId, range).selectAll().orderBy('sku').limit(limit).execute();
    return rows.map(toTradePrice);
  }

  async countCustomerRange(storeId: number, customerId: number, range: SkuRange): Promise<number> {
    const row = await this.inRange(storeId, customerId, range)
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  /** The customer's records in the range, along its index by customer and SKU. */
  private inRange(storeId: number, customerId: number, range: SkuRange) {
    let query = this.db.selectFrom('trade_prices').where('store_id', '=', storeId).where('customer_id', '=', customerId);
    if (range.after !== null) query = query.where('sku', '>', range.after);
    if (range.upTo !== null) query = query.where('sku', '<=', range.upTo);
    if (range.except.length > 0) query = query.where('sku', 'not in', [...range.except]);
    return query;
  }

  async deleteMany(storeId: number, ids: readonly number[], deletedAt: string): Promise<void> {
    for (let start = 0; start < ids.length; start += IDS_PER_DELETE) {
      const rows = await this.db
        .deleteFrom('trade_prices')
        .where('store_id', '=', storeId)
        .where('id', 'in', ids.slice(start, start + IDS_PER_DELETE))
        .returningAll()
        .execute();
      await keepDeletedTradePrices(this.db, this.engine, rows, deletedAt);
    }
  }

  async deleteBatchOf(storeId: number, owner: TradePriceOwner, afterId: number, limit: number, deletedAt: string): Promise<TradePrice[]> {
    // The lowest ids first, along the customer's or product's index; RETURNING's order is not
    // promised. Starting after the last batch matters on PostgreSQL: rows this transaction
    // deleted stay in the index until it ends, and would be walked again by every batch.
    let batch = this.db.selectFrom('trade_prices').select('id').where('store_id', '=', storeId).where('id', '>', afterId);
    if ('customerId' in owner) batch = batch.where('customer_id', '=', owner.customerId);
    else {
      batch = batch.where('product_id', '=', owner.productId);
      if (owner.sku !== undefined) batch = batch.where('sku', '=', owner.sku);
    }
    // Ids first, then a delete by primary key: PostgreSQL plans `id in (subquery)` as a scan of
    // the whole table.
    const ids = (await batch.orderBy('id').limit(limit).execute()).map((row) => row.id);
    if (ids.length === 0) return [];
    const rows = await this.db.deleteFrom('trade_prices').where('id', 'in', ids).returningAll().execute();
    await keepDeletedTradePrices(this.db, this.engine, rows, deletedAt);
    return rows.map(toTradePrice).sort((a, b) => a.id - b.id);
  }

  async recordsOfSku(storeId: number, productId: number, sku: string, shown: number): Promise<RecordsOfSku<{ id: number }>> {
    // Along the SKU's index; the product's id tells its records from those of a product that
    // held the SKU before.
    const ofSku = this.db.selectFrom('trade_prices').where('store_id', '=', storeId).where('sku', '=', sku).where('product_id', '=', productId);
    const lowest = (await ofSku.select('id').orderBy('id').limit(shown).execute()).map((row) => ({ id: Number(row.id) }));
    // Fewer than `shown` are all there is: counting costs a query only when there are more.
    if (lowest.length < shown) return { count: lowest.length, lowest };
    const { count } = await ofSku.select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
    return { count: Number(count), lowest };
  }

  async findReferences(storeId: number, customerIds: readonly number[], productIds: readonly number[], skus: readonly string[]): Promise<BatchReferences> {
    let skuOwners = this.db
      .selectFrom('skus')
      .select(['sku', 'product_id'])
      .where('store_id', '=', storeId)
      .where('sku', 'in', [...skus]);
    // The SKUs' registrations may not go (a rename, a variation deleted) before the prices
    // checked against them are written: such a change waits for this transaction, and then sees them.
    if (this.engine.locksRows) skuOwners = skuOwners.forKeyShare();
    const [customers, products, owners] = await Promise.all([
      customerIds.length === 0
        ? []
        : this.db
            .selectFrom('customers')
            .select(['id', 'trade'])
            .where('store_id', '=', storeId)
            .where('id', 'in', [...customerIds])
            .execute(),
      productIds.length === 0
        ? []
        : this.db
            .selectFrom('products')
            .select('id')
            .where('store_id', '=', storeId)
            .where('id', 'in', [...productIds])
            .execute(),
      skus.length === 0 ? [] : skuOwners.execute(),
    ]);
    return {
      customers: new Map(customers.map((row) => [Number(row.id), { trade: fromFlag(row.trade) }])),
      productIds: new Set(products.map((row) => Number(row.id))),
      skuOwners: new Map(owners.map((row) => [row.sku, Number(row.product_id)])),
    };
  }
}

export function toTradePrice(row: Omit<Selectable<TradePricesTable>, 'id'> & { id: number }): TradePrice {
  return {
    id: Number(row.id),
    customerId: Number(row.customer_id),
    ...pricedSkuOfRow(row),
    createdAt: row.created_at,
  };
}

import type { Kysely, Selectable } from 'kysely';
import type { TradePriceFilter } from '../../modules/trade-prices/trade-price-repository.js';
import { PreparedQuery, type StatementRegistry } from '../prepared-query.js';
import type { Tables } from '../tables.js';
import type { TradePricesTable } from '../tables/price-tables.js';
import type { ApiKeysTable } from '../tables/store-tables.js';

/**
 * Columns named, never `select *`: a PostgreSQL named statement keeps its result's shape, and
 * an instance still running while another one's migration adds a column must not fail.
 */
const API_KEY_COLUMNS = ['id', 'store_id', 'key', 'secret_hash', 'scopes', 'created_at', 'revoked_at', 'name'] as const;
const TRADE_PRICE_COLUMNS = ['id', 'store_id', 'customer_id', 'product_id', 'sku', 'price', 'min_quantity', 'valid_from', 'valid_until', 'created_at'] as const;

/** What a count of trade prices binds: the store and the filters given. */
export type TradePriceCountParams = TradePriceFilter & { storeId: number };
/** What a page of trade prices binds: a count's values, then the page's size and offset. */
export type TradePricePageParams = TradePriceCountParams & { count: number; offset: number };

/** Which filters a list or count has: each combination is one SQL text. */
interface FilterShape {
  customerId: boolean;
  productId: boolean;
  sku: boolean;
  validAt: boolean;
}

/**
 * The reads every request or most requests make (the credential, a trade price, a page of
 * them, their count), each compiled once per database and run with new values. Shapes of a
 * list or count are compiled at first use; there are at most 16 of each.
 */
export class HotReads {
  readonly apiKeyByKey: PreparedQuery<Selectable<ApiKeysTable>, { key: string }>;
  readonly tradePriceById: PreparedQuery<Selectable<TradePricesTable>, { storeId: number; id: number }>;
  private readonly pages = new Map<string, PreparedQuery<Selectable<TradePricesTable>, TradePricePageParams>>();
  private readonly counts = new Map<string, PreparedQuery<{ count: number | string }, TradePriceCountParams>>();

  constructor(
    private readonly db: Kysely<Tables>,
    private readonly statements: StatementRegistry,
  ) {
    this.apiKeyByKey = new PreparedQuery(db.selectFrom('api_keys').select(API_KEY_COLUMNS).where('key', '=', ''), ['key'], statements);
    this.tradePriceById = new PreparedQuery(
      db.selectFrom('trade_prices').select(TRADE_PRICE_COLUMNS).where('store_id', '=', 0).where('id', '=', 0),
      ['storeId', 'id'],
      statements,
    );
  }

  tradePricePage(filter: TradePriceFilter): PreparedQuery<Selectable<TradePricesTable>, TradePricePageParams> {
    const shape = shapeOf(filter);
    const key = shapeKey(shape);
    let query = this.pages.get(key);
    if (query === undefined) {
      const { filtered, binds } = this.filtered(shape);
      query = new PreparedQuery(filtered.select(TRADE_PRICE_COLUMNS).orderBy('id').limit(0).offset(0), [...binds, 'count', 'offset'], this.statements);
      this.pages.set(key, query);
    }
    return query;
  }

  tradePriceCount(filter: TradePriceFilter): PreparedQuery<{ count: number | string }, TradePriceCountParams> {
    const shape = shapeOf(filter);
    const key = shapeKey(shape);
    let query = this.counts.get(key);
    if (query === undefined) {
      const { filtered, binds } = this.filtered(shape);
      query = new PreparedQuery(
        filtered.select((eb) => eb.fn.countAll<number | string>().as('count')),
        binds,
        this.statements,
      );
      this.counts.set(key, query);
    }
    return query;
  }

  /** The store's trade prices with these filters, and the name of each placeholder's value in order. */
  private filtered(shape: FilterShape) {
    const binds: Array<keyof TradePriceCountParams> = ['storeId'];
    let filtered = this.db.selectFrom('trade_prices').where('store_id', '=', 0);
    if (shape.customerId) {
      filtered = filtered.where('customer_id', '=', 0);
      binds.push('customerId');
    }
    if (shape.productId) {
      filtered = filtered.where('product_id', '=', 0);
      binds.push('productId');
    }
    if (shape.sku) {
      filtered = filtered.where('sku', '=', '');
      binds.push('sku');
    }
    // validFrom ≤ validAt < validUntil, a missing bound always met; canonical timestamps compare as text.
    if (shape.validAt) {
      filtered = filtered
        .where((eb) => eb.or([eb('valid_from', 'is', null), eb('valid_from', '<=', '')]))
        .where((eb) => eb.or([eb('valid_until', 'is', null), eb('valid_until', '>', '')]));
      binds.push('validAt', 'validAt');
    }
    return { filtered, binds };
  }
}

function shapeOf(filter: TradePriceFilter): FilterShape {
  return {
    customerId: filter.customerId !== undefined,
    productId: filter.productId !== undefined,
    sku: filter.sku !== undefined,
    validAt: filter.validAt !== undefined,
  };
}

function shapeKey(shape: FilterShape): string {
  return `${Number(shape.customerId)}${Number(shape.productId)}${Number(shape.sku)}${Number(shape.validAt)}`;
}

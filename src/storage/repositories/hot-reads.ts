import type { Kysely, Selectable } from 'kysely';
import type { TradePriceFilter } from '../../modules/trade-prices/trade-price-repository.js';
import { PreparedQuery, type StatementRegistry } from '../prepared-query.js';
import type { ApiKeysTable, Tables, TradePricesTable } from '../tables.js';

/**
 * Columns named, never `select *`: a PostgreSQL named statement keeps its result's shape, and
 * an instance still running while another one's migration adds a column must not fail.
 */
const API_KEY_COLUMNS = ['id', 'store_id', 'key', 'secret_hash', 'scopes', 'created_at', 'revoked_at'] as const;
const TRADE_PRICE_COLUMNS = ['id', 'store_id', 'customer_id', 'product_id', 'sku', 'price', 'min_quantity', 'valid_from', 'valid_until', 'created_at'] as const;

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
  readonly apiKeyByKey: PreparedQuery<Selectable<ApiKeysTable>>;
  readonly tradePriceById: PreparedQuery<Selectable<TradePricesTable>>;
  private readonly pages = new Map<string, PreparedQuery<Selectable<TradePricesTable>>>();
  private readonly counts = new Map<string, PreparedQuery<{ count: number | string }>>();

  constructor(
    private readonly db: Kysely<Tables>,
    private readonly statements: StatementRegistry,
  ) {
    this.apiKeyByKey = new PreparedQuery(db.selectFrom('api_keys').select(API_KEY_COLUMNS).where('key', '=', ''), statements);
    this.tradePriceById = new PreparedQuery(db.selectFrom('trade_prices').select(TRADE_PRICE_COLUMNS).where('store_id', '=', 0).where('id', '=', 0), statements);
  }

  /** Values in order: the store, the filters given, count, offset. */
  tradePricePage(filter: TradePriceFilter): PreparedQuery<Selectable<TradePricesTable>> {
    const shape = shapeOf(filter);
    const key = shapeKey(shape);
    let query = this.pages.get(key);
    if (query === undefined) {
      query = new PreparedQuery(this.filtered(shape).select(TRADE_PRICE_COLUMNS).orderBy('id').limit(0).offset(0), this.statements);
      this.pages.set(key, query);
    }
    return query;
  }

  /** Values in order: the store, the filters given. */
  tradePriceCount(filter: TradePriceFilter): PreparedQuery<{ count: number | string }> {
    const shape = shapeOf(filter);
    const key = shapeKey(shape);
    let query = this.counts.get(key);
    if (query === undefined) {
      query = new PreparedQuery(this.filtered(shape).select((eb) => eb.fn.countAll<number | string>().as('count')), this.statements);
      this.counts.set(key, query);
    }
    return query;
  }

  private filtered(shape: FilterShape) {
    let query = this.db.selectFrom('trade_prices').where('store_id', '=', 0);
    if (shape.customerId) query = query.where('customer_id', '=', 0);
    if (shape.productId) query = query.where('product_id', '=', 0);
    if (shape.sku) query = query.where('sku', '=', '');
    // validFrom ≤ validAt < validUntil, a missing bound always met; canonical timestamps compare as text.
    if (shape.validAt) {
      query = query
        .where((eb) => eb.or([eb('valid_from', 'is', null), eb('valid_from', '<=', '')]))
        .where((eb) => eb.or([eb('valid_until', 'is', null), eb('valid_until', '>', '')]));
    }
    return query;
  }
}

/** The values a list or count binds, in the order `HotReads` compiled them. */
export function filterValues(storeId: number, filter: TradePriceFilter): Array<number | string> {
  const values: Array<number | string> = [storeId];
  if (filter.customerId !== undefined) values.push(filter.customerId);
  if (filter.productId !== undefined) values.push(filter.productId);
  if (filter.sku !== undefined) values.push(filter.sku);
  if (filter.validAt !== undefined) values.push(filter.validAt, filter.validAt);
  return values;
}

function shapeOf(filter: TradePriceFilter): FilterShape {
  return { customerId: filter.customerId !== undefined, productId: filter.productId !== undefined, sku: filter.sku !== undefined, validAt: filter.validAt !== undefined };
}

function shapeKey(shape: FilterShape): string {
  return `${Number(shape.customerId)}${Number(shape.productId)}${Number(shape.sku)}${Number(shape.validAt)}`;
}

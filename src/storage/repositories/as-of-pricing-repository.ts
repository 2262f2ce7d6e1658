import { type Kysely, sql } from 'kysely';
import type { CatalogRow, ListTermsOfRow, PricingAsOfRepository, RuleAsOf, StatefulResource } from '../../modules/pricing/as-of-repository.js';
import type { Engine } from '../engine.js';
import { executeShaped, type StatementRegistry } from '../prepared-query.js';
import { listTermsOf, storeRounding } from './pricing-repository.js';
import { everyRowInPages } from './rows-in-pages.js';
import { ruleOfColumns } from '../../modules/quantity-rules/quantity-rule.js';
import type { Tables } from '../tables.js';

/**
 * The reads of an as-of price: a handful of statements whatever the number of SKUs, lists or
 * lines. Those of one resource, one SKU or one list (an effective price) have one text each,
 * registered, so PostgreSQL plans them once per connection: planning the states' statement cost
 * ten times its run.
 */
export class KyselyPricingAsOfRepository implements PricingAsOfRepository {
  constructor(
    private readonly db: Kysely<Tables>,
    private readonly engine: Engine,
    private readonly statements: StatementRegistry,
  ) {}

  async statesAt(storeId: number, resource: StatefulResource, ids: readonly number[], at: string): Promise<Map<number, Record<string, unknown> | null>> {
    const states = new Map<number, Record<string, unknown> | null>();
    if (ids.length === 0) return states;
    // One statement whatever the number of resources: of each, the last entry (by `seq`, the
    // chain's order) at or before `at` gives its `after`, and the first after `at` its `before`.
    // Both read the resource's entries along `price_history_resource` (store, resource, id, at).
    const nearest = (side: 'at or before' | 'after') => {
      const later = side === 'after';
      const picked = this.db
        .selectFrom('price_history')
        .select('resource_id')
        .select((eb) => (later ? eb.fn.min<number>('seq') : eb.fn.max<number>('seq')).as('seq'))
        .where('store_id', '=', storeId)
        .where('resource', '=', resource)
        .where('resource_id', 'in', [...new Set(ids)])
        .where('at', later ? '>' : '<=', at)
        .groupBy('resource_id')
        .as('picked');
      return this.db
        .selectFrom(picked)
        .innerJoin('price_history as h', (join) => join.on('h.store_id', '=', storeId).onRef('h.seq', '=', 'picked.seq'))
        .select(['h.resource_id', later ? 'h.before as record' : 'h.after as record'])
        .select(sql.lit(later ? 1 : 0).as('later'));
    };
    const rows = await executeShaped(this.db, this.statements, nearest('at or before').unionAll(nearest('after')), new Set(ids).size === 1);
    const before = new Map<number, string | null>();
    for (const row of rows) {
      const id = Number(row.resource_id);
      if (Number(row.later) === 0) states.set(id, parse(row.record));
      else before.set(id, row.record);
    }
    for (const [id, record] of before) if (!states.has(id)) states.set(id, parse(record));
    return states;
  }

  async skuHolders(storeId: number, skus: readonly string[]): Promise<Array<{ resource: 'product' | 'variation'; id: number }>> {
    if (skus.length === 0) return [];
    const query = this.db
      .selectFrom('price_history')
      .select(['resource', 'resource_id'])
      .distinct()
      .where('store_id', '=', storeId)
      .where('sku', 'in', [...skus])
      .where('resource', 'in', ['product', 'variation']);
    const rows = await executeShaped(this.db, this.statements, query, skus.length === 1);
    return rows.map((row) => ({ resource: row.resource as 'product' | 'variation', id: Number(row.resource_id) }));
  }

  async tradeRulesAt(storeId: number, customerId: number, skus: readonly string[], at: string, validOnly: boolean): Promise<RuleAsOf[]> {
    if (skus.length === 0) return [];
    const columns = [
      'id',
      'sku',
      'product_id as productId',
      'price as priceUnits',
      'min_quantity as minQuantity',
      'valid_from as validFrom',
      'valid_until as validUntil',
    ] as const;
    const rowsOn = (db: Kysely<Tables>) =>
      db
        .selectFrom('trade_prices')
        .select(columns)
        .where('store_id', '=', storeId)
        .where('customer_id', '=', customerId)
        .where('sku', 'in', [...skus])
        .where('created_at', '<=', at)
        .$if(validOnly, (live) => live.where(validThen(at)))
        .unionAll(
          db
            .selectFrom('trade_prices_deleted')
            .select(columns)
            .where('store_id', '=', storeId)
            .where('customer_id', '=', customerId)
            .where('sku', 'in', [...skus])
            .where('created_at', '<=', at)
            .where('deleted_at', '>', at)
            .$if(validOnly, (gone) => gone.where(validThen(at))),
        );
    // An explanation reads every record that existed then, as the live one does (`everyRowInPages`).
    if (!validOnly) return (await everyRowInPages(this.db, this.engine, (db) => db.selectFrom(rowsOn(db).as('r')).selectAll(), 'r.id')).map(asRule);
    return (await executeShaped(this.db, this.statements, rowsOn(this.db), skus.length === 1)).map(asRule);
  }

  async listRulesAt(
    storeId: number,
    priceListIds: readonly number[],
    skus: readonly string[],
    at: string,
    validOnly: boolean,
  ): Promise<Array<RuleAsOf & { priceListId: number }>> {
    if (skus.length === 0 || priceListIds.length === 0) return [];
    const columns = [
      'id',
      'price_list_id as priceListId',
      'sku',
      'product_id as productId',
      'price as priceUnits',
      'min_quantity as minQuantity',
      'valid_from as validFrom',
      'valid_until as validUntil',
      'quantity_minimum as quantityMinimum',
      'quantity_maximum as quantityMaximum',
      'quantity_increment as quantityIncrement',
    ] as const;
    // The lists are the store's (read from the customer's record); the deleted entries carry their store too.
    const rowsOn = (db: Kysely<Tables>) =>
      db
        .selectFrom('price_list_prices')
        .select(columns)
        .where('price_list_id', 'in', [...priceListIds])
        .where('sku', 'in', [...skus])
        .where('created_at', '<=', at)
        .$if(validOnly, (live) => live.where(validThen(at)))
        .unionAll(
          db
            .selectFrom('price_list_prices_deleted')
            .select(columns)
            .where('store_id', '=', storeId)
            .where('price_list_id', 'in', [...priceListIds])
            .where('sku', 'in', [...skus])
            .where('created_at', '<=', at)
            .where('deleted_at', '>', at)
            .$if(validOnly, (gone) => gone.where(validThen(at))),
        );
    const rows = validOnly
      ? await executeShaped(this.db, this.statements, rowsOn(this.db), skus.length === 1 && priceListIds.length === 1)
      : await everyRowInPages(this.db, this.engine, (db) => db.selectFrom(rowsOn(db).as('r')).selectAll(), 'r.id');
    return rows.map((row) => ({
      ...asRule(row),
      priceListId: Number(row.priceListId),
      quantityMinimum: row.quantityMinimum,
      quantityMaximum: row.quantityMaximum,
      quantityIncrement: row.quantityIncrement,
    }));
  }

  async currentLists(storeId: number, ids: readonly number[]): Promise<Array<ListTermsOfRow & { createdAt: string }>> {
    if (ids.length === 0) return [];
    const rows = await this.db
      .selectFrom('price_lists as l')
      .innerJoin('stores as s', 's.id', 'l.store_id')
      .select([
        'l.id',
        'l.kind',
        'l.percentage',
        'l.policy',
        'l.rounding_increment',
        'l.rounding_mode',
        'l.created_at',
        's.currency',
        's.rounding_mode as store_rounding_mode',
      ])
      .where('l.store_id', '=', storeId)
      .where('l.id', 'in', [...ids])
      .execute();
    return rows.map((row) => ({ ...listTermsOf(row, storeRounding(row.currency, row.store_rounding_mode)), createdAt: row.created_at }));
  }

  async currentProducts(storeId: number, ids: readonly number[]): Promise<CatalogRow[]> {
    if (ids.length === 0) return [];
    const rows = await this.db
      .selectFrom('products')
      .select(['id', 'sku', 'price', 'quantity_minimum', 'quantity_maximum', 'quantity_increment', 'created_at'])
      .where('store_id', '=', storeId)
      .where('id', 'in', [...ids])
      .execute();
    return rows.map((row) => ({
      id: Number(row.id),
      productId: Number(row.id),
      sku: row.sku,
      priceUnits: Number(row.price),
      quantityRule: ruleOfColumns(row),
      createdAt: row.created_at,
    }));
  }

  async currentVariations(storeId: number, ids: readonly number[]): Promise<CatalogRow[]> {
    if (ids.length === 0) return [];
    const rows = await this.db
      .selectFrom('product_variations')
      .select(['id', 'product_id', 'sku', 'price', 'quantity_minimum', 'quantity_maximum', 'quantity_increment', 'created_at'])
      .where('store_id', '=', storeId)
      .where('id', 'in', [...ids])
      .execute();
    return rows.map((row) => ({
      id: Number(row.id),
      productId: Number(row.product_id),
      sku: row.sku,
      priceUnits: row.price === null ? null : Number(row.price),
      quantityRule: ruleOfColumns(row),
      createdAt: row.created_at,
    }));
  }
}

function parse(record: string | null): Record<string, unknown> | null {
  return record === null ? null : (JSON.parse(record) as Record<string, unknown>);
}

interface RuleRow {
  id: number;
  sku: string;
  productId: number;
  priceUnits: number;
  minQuantity: number;
  validFrom: string | null;
  validUntil: string | null;
}

function asRule(row: RuleRow): RuleAsOf {
  return {
    id: Number(row.id),
    sku: row.sku,
    productId: Number(row.productId),
    priceUnits: Number(row.priceUnits),
    minQuantity: Number(row.minQuantity),
    validFrom: row.validFrom,
    validUntil: row.validUntil,
  };
}

/** validFrom ≤ at < validUntil, a missing bound always met; canonical timestamps compare as text. */
function validThen(at: string) {
  return sql<boolean>`(valid_from is null or valid_from <= ${at}) and (valid_until is null or valid_until > ${at})`;
}

import { type Kysely, type Selectable, sql } from 'kysely';
import type { PriceListKind, PriceListPolicy } from '../../contract/price-lists.js';
import type { PriceRule } from '../../modules/pricing/price-resolution.js';
import { currencyRounding, type Rounding, type RoundingMode } from '../../modules/currency/rounding.js';
import {
  groupedPolicy,
  ownThenGroup,
  type PriceListTerms,
  type PricingRepository,
  type SkuPrice,
  type StoreTerms,
} from '../../modules/pricing/pricing-repository.js';
import type { ListTermsOfRow } from '../../modules/pricing/as-of-repository.js';
import type { Engine } from '../engine.js';
import { executeShaped, type StatementRegistry } from '../prepared-query.js';
import type { Tables } from '../tables.js';
import type { PriceListsTable } from '../tables/price-tables.js';
import { everyRowInPages } from './rows-in-pages.js';
import { ruleOfColumns } from '../../modules/quantity-rules/quantity-rule.js';

/** One query each, whatever the number of SKUs or lists. */
export class KyselyPricingRepository implements PricingRepository {
  constructor(
    private readonly db: Kysely<Tables>,
    private readonly engine: Engine,
    private readonly statements: StatementRegistry,
  ) {}

  async storeTerms(storeId: number): Promise<StoreTerms> {
    const row = await this.db.selectFrom('stores').select(['currency', 'rounding_mode']).where('id', '=', storeId).executeTakeFirstOrThrow();
    return { currency: row.currency, rounding: storeRounding(row.currency, row.rounding_mode) };
  }

  async skuPrices(storeId: number, skus: readonly string[]): Promise<SkuPrice[]> {
    if (skus.length === 0) return [];
    const query = this.db
      .selectFrom('skus')
      .innerJoin('products', 'products.id', 'skus.product_id')
      .leftJoin('product_variations', 'product_variations.id', 'skus.variation_id')
      .select(['skus.sku', 'skus.product_id', 'skus.variation_id', 'products.price as product_price', 'product_variations.price as variation_price'])
      .select([
        'products.quantity_minimum',
        'products.quantity_maximum',
        'products.quantity_increment',
        'product_variations.quantity_minimum as variation_minimum',
        'product_variations.quantity_maximum as variation_maximum',
        'product_variations.quantity_increment as variation_increment',
      ])
      .where('skus.store_id', '=', storeId)
      .where('skus.sku', 'in', [...skus]);
    // One SKU (an effective price) is one text, planned once per connection on PostgreSQL.
    const rows = await executeShaped(this.db, this.statements, query, skus.length === 1);
    return rows.map((row) => ({
      sku: row.sku,
      productId: Number(row.product_id),
      variationId: row.variation_id === null ? null : Number(row.variation_id),
      productPriceUnits: Number(row.product_price),
      variationPriceUnits: row.variation_price === null ? null : Number(row.variation_price),
      quantityRule:
        ruleOfColumns({ quantity_minimum: row.variation_minimum, quantity_maximum: row.variation_maximum, quantity_increment: row.variation_increment }) ??
        ruleOfColumns(row),
    }));
  }

  async customerLists(storeId: number, customerId: number): Promise<PriceListTerms[]> {
    const columns = [
      'l.id',
      'l.kind',
      'l.percentage',
      'l.policy',
      'l.rounding_increment',
      'l.rounding_mode',
      's.currency',
      's.rounding_mode as store_rounding_mode',
    ] as const;
    // The customer's own lists, then its group's: one statement, in that order.
    const own = this.db
      .selectFrom('customer_price_lists as c')
      .innerJoin('price_lists as l', 'l.id', 'c.price_list_id')
      .innerJoin('stores as s', 's.id', 'c.store_id')
      .select(columns)
      .select([sql.lit<number | null>(null).as('customer_group_id'), sql.lit<string | null>(null).as('group_policy'), 'c.position'])
      .where('c.store_id', '=', storeId)
      .where('c.customer_id', '=', customerId);
    const ofGroup = this.db
      .selectFrom('customers as u')
      .innerJoin('customer_group_price_lists as g', 'g.customer_group_id', 'u.customer_group_id')
      .innerJoin('customer_groups as cg', 'cg.id', 'g.customer_group_id')
      .innerJoin('price_lists as l', 'l.id', 'g.price_list_id')
      .innerJoin('stores as s', 's.id', 'u.store_id')
      .select(columns)
      .select(['g.customer_group_id', 'cg.policy as group_policy', 'g.position'])
      .where('u.store_id', '=', storeId)
      .where('u.id', '=', customerId)
      .where('g.store_id', '=', storeId);
    const rows = await own.unionAll(ofGroup).execute();
    const ordered = rows
      .map((row) => ({ row, fromGroup: row.customer_group_id === null ? 0 : 1, position: Number(row.position) }))
      .sort((a, b) => a.fromGroup - b.fromGroup || a.position - b.position);
    return ownThenGroup(
      ordered.map(({ row }) => {
        const terms = listTermsOf(row, storeRounding(row.currency, row.store_rounding_mode));
        // A `lowest` group makes every list of its a lowest-price list for its customers.
        return {
          ...terms,
          policy: groupedPolicy(terms.policy, row.group_policy),
          customerGroupId: row.customer_group_id === null ? null : Number(row.customer_group_id),
        };
      }),
    );
  }

  async tradeRules(storeId: number, customerId: number, skus: readonly string[], validAt?: string): Promise<Array<PriceRule & { sku: string }>> {
    if (skus.length === 0) return [];
    // The rows come in the rule's own shape, so thousands of them are not copied once more.
    // Both engines answer ids, prices and breaks as numbers (`database.ts`).
    const rule = [
      't.id',
      't.sku',
      't.price as priceUnits',
      't.min_quantity as minQuantity',
      't.valid_from as validFrom',
      't.valid_until as validUntil',
    ] as const;
    if (validAt !== undefined && !this.engine.bareColumnsFollowMax) {
      // The newest valid record of each SKU, product and break, along the index in its order
      // (no sort), then only those of the product that owns the SKU now.
      const picked = this.db
        .selectFrom('trade_prices as t')
        .select([...rule, 't.product_id'])
        .select(sql<number>`row_number() over (partition by t.sku, t.product_id, t.min_quantity order by t.id desc)`.as('rank'))
        .where('t.store_id', '=', storeId)
        .where('t.customer_id', '=', customerId)
        .where('t.sku', 'in', [...skus])
        .where(validThen('t', validAt))
        .as('picked');
      return this.db
        .selectFrom(picked)
        .innerJoin('skus as k', (join) => join.on('k.store_id', '=', storeId).onRef('k.sku', '=', 'picked.sku').onRef('k.product_id', '=', 'picked.product_id'))
        .select(['picked.id', 'picked.sku', 'picked.priceUnits', 'picked.minQuantity', 'picked.validFrom', 'picked.validUntil'])
        .where('picked.rank', '=', 1)
        .execute();
    }
    // SKU by SKU (`cross join` keeps `skus` first on SQLite), the customer's records of the
    // product that owns the SKU now, along the index.
    const ownedOn = (db: Kysely<Tables>) =>
      db
        .selectFrom('skus as k')
        .crossJoin('trade_prices as t')
        .where('k.store_id', '=', storeId)
        .where('k.sku', 'in', [...skus])
        .whereRef('t.store_id', '=', 'k.store_id')
        .where('t.customer_id', '=', customerId)
        .whereRef('t.sku', '=', 'k.sku')
        .whereRef('t.product_id', '=', 'k.product_id');
    if (validAt === undefined) return everyRowInPages(this.db, this.engine, (db) => ownedOn(db).select(rule), 't.id');
    // The newest valid record of each SKU and break: one aggregate, no sort.
    return ownedOn(this.db)
      .where(validThen('t', validAt))
      .select((eb) => [
        eb.fn.max<number>('t.id').as('id'),
        'k.sku',
        't.price as priceUnits',
        't.min_quantity as minQuantity',
        't.valid_from as validFrom',
        't.valid_until as validUntil',
      ])
      .groupBy(['k.sku', 't.min_quantity'])
      .execute();
  }

  async listRules(
    storeId: number,
    priceListIds: readonly number[],
    skus: readonly string[],
    validAt?: string,
  ): Promise<Array<PriceRule & { sku: string; priceListId: number }>> {
    if (skus.length === 0 || priceListIds.length === 0) return [];
    // As for trade prices. The lists are the store's (the caller read them for the customer),
    // and a product belongs to one store, so the entries' own store_id need not be read.
    const entry = [
      'p.id',
      'p.price_list_id as priceListId',
      'p.sku',
      'p.price as priceUnits',
      'p.min_quantity as minQuantity',
      'p.valid_from as validFrom',
      'p.valid_until as validUntil',
      ...ENTRY_RULE,
    ] as const;
    if (validAt !== undefined && !this.engine.bareColumnsFollowMax) {
      const picked = this.db
        .selectFrom('price_list_prices as p')
        .select([...entry, 'p.product_id'])
        .select(sql<number>`row_number() over (partition by p.price_list_id, p.sku, p.product_id, p.min_quantity order by p.id desc)`.as('rank'))
        .where('p.price_list_id', 'in', [...priceListIds])
        .where('p.sku', 'in', [...skus])
        .where(validThen('p', validAt))
        .as('picked');
      return this.db
        .selectFrom(picked)
        .innerJoin('skus as k', (join) => join.on('k.store_id', '=', storeId).onRef('k.sku', '=', 'picked.sku').onRef('k.product_id', '=', 'picked.product_id'))
        .select([
          'picked.id',
          'picked.priceListId',
          'picked.sku',
          'picked.priceUnits',
          'picked.minQuantity',
          'picked.validFrom',
          'picked.validUntil',
          'picked.quantityMinimum',
          'picked.quantityMaximum',
          'picked.quantityIncrement',
        ])
        .where('picked.rank', '=', 1)
        .execute();
    }
    const ownedOn = (db: Kysely<Tables>) =>
      db
        .selectFrom('skus as k')
        .crossJoin('price_list_prices as p')
        .where('k.store_id', '=', storeId)
        .where('k.sku', 'in', [...skus])
        .where('p.price_list_id', 'in', [...priceListIds])
        .whereRef('p.sku', '=', 'k.sku')
        .whereRef('p.product_id', '=', 'k.product_id');
    if (validAt === undefined) return everyRowInPages(this.db, this.engine, (db) => ownedOn(db).select(entry), 'p.id');
    return ownedOn(this.db)
      .where(validThen('p', validAt))
      .select((eb) => [
        eb.fn.max<number>('p.id').as('id'),
        'p.price_list_id as priceListId',
        'k.sku',
        'p.price as priceUnits',
        'p.min_quantity as minQuantity',
        'p.valid_from as validFrom',
        'p.valid_until as validUntil',
        ...ENTRY_RULE,
      ])
      .groupBy(['p.price_list_id', 'k.sku', 'p.min_quantity'])
      .execute();
  }
}

/** An entry's own quantity rule, in the rule's shape (`PriceRule`). */
const ENTRY_RULE = ['p.quantity_minimum as quantityMinimum', 'p.quantity_maximum as quantityMaximum', 'p.quantity_increment as quantityIncrement'] as const;

/** A store's rounding from its row's columns: to its currency's minor unit, by its mode. */
export function storeRounding(currency: string, mode: string): Rounding {
  return currencyRounding(currency, mode as RoundingMode);
}

/** What a list's row gives the rule: its kind, percentage, policy, and its own rounding or else `store`'s. */
export function listTermsOf(
  row: Pick<Selectable<PriceListsTable>, 'id' | 'kind' | 'percentage' | 'policy' | 'rounding_increment' | 'rounding_mode'>,
  store: Rounding,
): ListTermsOfRow {
  return {
    id: Number(row.id),
    kind: row.kind as PriceListKind,
    percentageUnits: row.percentage === null ? null : Number(row.percentage),
    policy: row.policy as PriceListPolicy,
    rounding:
      row.rounding_increment === null || row.rounding_mode === null
        ? store
        : { incrementUnits: Number(row.rounding_increment), mode: row.rounding_mode as RoundingMode },
  };
}

/** validFrom ≤ at < validUntil for the rows of `table`, a missing bound always met; canonical timestamps compare as text. */
function validThen(table: 't' | 'p', at: string) {
  const from = sql.ref(`${table}.valid_from`);
  const until = sql.ref(`${table}.valid_until`);
  return sql<boolean>`(${from} is null or ${from} <= ${at}) and (${until} is null or ${until} > ${at})`;
}

import { type Kysely, type Selectable, sql } from 'kysely';
import type { QuantityRule } from '../../contract/quantity-rules.js';
import type { PricedSku } from '../../contract/trade-prices.js';
import { fromPriceUnits, toPriceUnits } from '../../modules/shared/money.js';
import { columnsOfRule } from '../../modules/quantity-rules/quantity-rule.js';
import type { Engine } from '../engine.js';
import type { Tables } from '../tables.js';
import type { TradePricesTable } from '../tables/price-tables.js';
import { insertFromArrays } from './array-insert.js';

/** A trade price (owned by its customer) or a price list entry (owned by its list), to insert; stored in ten-thousandths. */
export type PricedSkuRow = PricedSku & {
  /** The customer or the price list. */
  owner: number;
  /** A list entry's own quantity rule (stored in three columns); a trade price has none. */
  quantityRule?: QuantityRule | null;
};

/** The columns every stored priced SKU has: a trade price's, a list entry's, a staged import row's. */
export type PricedSkuColumns = Pick<Selectable<TradePricesTable>, 'product_id' | 'sku' | 'price' | 'min_quantity' | 'valid_from' | 'valid_until'>;

/** A stored row's priced SKU as the API has it: the price a decimal (from ten-thousandths), ids and breaks numbers. */
export function pricedSkuOfRow(row: PricedSkuColumns): PricedSku {
  return {
    productId: Number(row.product_id),
    sku: row.sku,
    price: fromPriceUnits(Number(row.price)),
    minQuantity: Number(row.min_quantity),
    validFrom: row.valid_from,
    validUntil: row.valid_until,
  };
}

/** Where such rows go, and which column names their owner. */
const OWNER_COLUMN = { trade_prices: 'customer_id', price_list_prices: 'price_list_id' } as const;

/** Values bound per row of a `values` list: the shared columns, and a list entry's quantity rule. */
const COLUMNS_PER_ROW = { trade_prices: 9, price_list_prices: 12 } as const;

/**
 * Inserts the rows, all with `createdAt`, and answers their ids in the order given: one
 * statement from arrays on PostgreSQL (`Engine.insertsRowsFromArrays`), multi-row `values`
 * statements elsewhere, as many as the engine's limit on bound values needs. Ids of one
 * statement are assigned in the order of its rows; RETURNING's order is not promised, so they
 * are sorted.
 */
export async function insertPricedSkuRows(
  db: Kysely<Tables>,
  engine: Engine,
  table: keyof typeof OWNER_COLUMN,
  storeId: number,
  rows: readonly PricedSkuRow[],
  createdAt: string,
): Promise<number[]> {
  if (rows.length === 0) return [];
  const owner = OWNER_COLUMN[table];
  const ruled = table === 'price_list_prices';
  const rules = ruled ? rows.map((row) => columnsOfRule(row.quantityRule ?? null)) : [];
  if (engine.insertsRowsFromArrays) {
    const inserted = await sql<{ id: number }>`${insertFromArrays(table, {
      store_id: { type: 'bigint', values: rows.map(() => storeId) },
      [owner]: { type: 'bigint', values: rows.map((row) => row.owner) },
      product_id: { type: 'bigint', values: rows.map((row) => row.productId) },
      sku: { type: 'text', values: rows.map((row) => row.sku) },
      price: { type: 'bigint', values: rows.map((row) => toPriceUnits(row.price)) },
      min_quantity: { type: 'bigint', values: rows.map((row) => row.minQuantity) },
      valid_from: { type: 'text', values: rows.map((row) => row.validFrom) },
      valid_until: { type: 'text', values: rows.map((row) => row.validUntil) },
      created_at: { type: 'text', values: rows.map(() => createdAt) },
      ...(ruled && {
        quantity_minimum: { type: 'bigint', values: rules.map((rule) => rule.quantity_minimum) },
        quantity_maximum: { type: 'bigint', values: rules.map((rule) => rule.quantity_maximum) },
        quantity_increment: { type: 'bigint', values: rules.map((rule) => rule.quantity_increment) },
      }),
    })} returning id`.execute(db);
    return inserted.rows.map((row) => Number(row.id)).sort((a, b) => a - b);
  }
  const perStatement = Math.floor(engine.maxBoundParameters / COLUMNS_PER_ROW[table]);
  const ruleColumns = ruled ? sql`, quantity_minimum, quantity_maximum, quantity_increment` : sql``;
  const ids: number[] = [];
  for (let start = 0; start < rows.length; start += perStatement) {
    const values = rows.slice(start, start + perStatement).map((row, offset) => {
      const rule = rules[start + offset];
      const ruleValues = rule === undefined ? sql`` : sql`, ${rule.quantity_minimum}, ${rule.quantity_maximum}, ${rule.quantity_increment}`;
      return sql`(${storeId}, ${row.owner}, ${row.productId}, ${row.sku}, ${toPriceUnits(row.price)}, ${row.minQuantity}, ${row.validFrom}, ${row.validUntil}, ${createdAt}${ruleValues})`;
    });
    const inserted = await sql<{
      id: number;
    }>`insert into ${sql.table(table)} (store_id, ${sql.ref(owner)}, product_id, sku, price, min_quantity, valid_from, valid_until, created_at${ruleColumns}) values ${sql.join(values)} returning id`.execute(
      db,
    );
    ids.push(...inserted.rows.map((row) => Number(row.id)).sort((a, b) => a - b));
  }
  return ids;
}

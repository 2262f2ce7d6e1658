import { type Kysely, type Selectable, sql } from 'kysely';
import type { Engine } from '../engine.js';
import type { Tables } from '../tables.js';
import type { PriceListPricesTable, TradePricesTable } from '../tables/price-tables.js';
import { insertFromArrays, insertValues } from './array-insert.js';

/*
 * Rows just deleted from `trade_prices` or `price_list_prices` are kept, in the same
 * transaction, in their `…_deleted` table with the moment they went (migration 015): an as-of
 * read sees a record that priced a customer then, though it has gone since. The live tables
 * hold only live rows, so nothing that reads them changed.
 */

/** Ids bound in one delete of a batch of prices or entries. */
export const IDS_PER_DELETE = 5000;

/** The columns both kinds share, after the owner's; `bigint` or `text` in PostgreSQL's arrays. */
const SHARED = {
  id: 'bigint',
  store_id: 'bigint',
  product_id: 'bigint',
  sku: 'text',
  price: 'bigint',
  min_quantity: 'bigint',
  valid_from: 'text',
  valid_until: 'text',
  created_at: 'text',
} as const;

/** A list entry's columns besides those: its own quantity rule. */
const ENTRY_ONLY = { quantity_minimum: 'bigint', quantity_maximum: 'bigint', quantity_increment: 'bigint' } as const;

export function keepDeletedTradePrices(db: Kysely<Tables>, engine: Engine, rows: readonly Selectable<TradePricesTable>[], deletedAt: string): Promise<void> {
  return keep(
    db,
    engine,
    'trade_prices_deleted',
    'customer_id',
    SHARED,
    rows.map((row) => ({ ...row, owner: row.customer_id })),
    deletedAt,
  );
}

export function keepDeletedListEntries(
  db: Kysely<Tables>,
  engine: Engine,
  rows: readonly Selectable<PriceListPricesTable>[],
  deletedAt: string,
): Promise<void> {
  return keep(
    db,
    engine,
    'price_list_prices_deleted',
    'price_list_id',
    { ...SHARED, ...ENTRY_ONLY },
    rows.map((row) => ({ ...row, owner: row.price_list_id })),
    deletedAt,
  );
}

type KeptRow = Record<string, number | string | null> & { owner: number };

/** Arrays on PostgreSQL (one statement whatever the number of rows); on SQLite, bound `values` statements of up to 1000 rows (`array-insert.ts`). */
async function keep(
  db: Kysely<Tables>,
  engine: Engine,
  table: string,
  ownerColumn: string,
  kept: Readonly<Record<string, 'bigint' | 'text'>>,
  rows: readonly KeptRow[],
  deletedAt: string,
): Promise<void> {
  if (rows.length === 0) return;
  const names = Object.keys(kept);
  const values = (row: KeptRow) => [...names.map((name) => (name === 'min_quantity' ? Number(row[name]) : (row[name] ?? null))), row.owner, deletedAt];
  if (engine.insertsRowsFromArrays) {
    const columns = Object.fromEntries([
      ...names.map((name) => [name, { type: kept[name]!, values: rows.map((row) => row[name] ?? null) }]),
      [ownerColumn, { type: 'bigint', values: rows.map((row) => row.owner) }],
      ['deleted_at', { type: 'text', values: rows.map(() => deletedAt) }],
    ]);
    await sql`${insertFromArrays(table, columns)}`.execute(db);
    return;
  }
  for (const statement of insertValues(table, [...names, ownerColumn, 'deleted_at'], rows.map(values))) await db.executeQuery(statement);
}

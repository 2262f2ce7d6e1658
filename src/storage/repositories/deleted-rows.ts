import { type Kysely, type Selectable, sql } from 'kysely';
import type { Engine } from '../engine.js';
import type { PriceListPricesTable, Tables, TradePricesTable } from '../tables.js';
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
const SHARED = { id: 'bigint', store_id: 'bigint', product_id: 'bigint', sku: 'text', price: 'bigint', min_quantity: 'bigint', valid_from: 'text', valid_until: 'text', created_at: 'text' } as const;

export function keepDeletedTradePrices(db: Kysely<Tables>, engine: Engine, rows: readonly Selectable<TradePricesTable>[], deletedAt: string): Promise<void> {
  return keep(db, engine, 'trade_prices_deleted', 'customer_id', rows.map((row) => ({ ...row, owner: row.customer_id })), deletedAt);
}

export function keepDeletedListEntries(db: Kysely<Tables>, engine: Engine, rows: readonly Selectable<PriceListPricesTable>[], deletedAt: string): Promise<void> {
  return keep(db, engine, 'price_list_prices_deleted', 'price_list_id', rows.map((row) => ({ ...row, owner: row.price_list_id })), deletedAt);
}

type KeptRow = { [column in keyof typeof SHARED]: number | string | null } & { owner: number };

/** Arrays on PostgreSQL (one statement whatever the number of rows); on SQLite, bound `values` statements of up to 1000 rows (`array-insert.ts`). */
async function keep(db: Kysely<Tables>, engine: Engine, table: string, ownerColumn: string, rows: readonly KeptRow[], deletedAt: string): Promise<void> {
  if (rows.length === 0) return;
  const names = Object.keys(SHARED) as Array<keyof typeof SHARED>;
  const values = (row: KeptRow) => [...names.map((name) => (name === 'min_quantity' ? Number(row[name]) : row[name])), row.owner, deletedAt];
  if (engine.insertsRowsFromArrays) {
    const columns = Object.fromEntries([
      ...names.map((name) => [name, { type: SHARED[name], values: rows.map((row) => row[name]) }]),
      [ownerColumn, { type: 'bigint', values: rows.map((row) => row.owner) }],
      ['deleted_at', { type: 'text', values: rows.map(() => deletedAt) }],
    ]);
    await sql`${insertFromArrays(table, columns)}`.execute(db);
    return;
  }
  for (const statement of insertValues(table, [...names, ownerColumn, 'deleted_at'], rows.map(values))) await db.executeQuery(statement);
}

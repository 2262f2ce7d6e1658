import type { Kysely, Selectable } from 'kysely';
import type { Engine } from '../engine.js';
import type { PriceListPricesTable, Tables, TradePricesTable } from '../tables.js';

/*
 * Rows just deleted from `trade_prices` or `price_list_prices` are kept, in the same
 * transaction, in their `…_deleted` table with the moment they went (migration 015): an as-of
 * read sees a record that priced a customer then, though it has gone since. The live tables
 * hold only live rows, so nothing that reads them changed.
 */

/** Values bound per archived row. */
const COLUMNS_PER_ROW = 11;

export function keepDeletedTradePrices(db: Kysely<Tables>, engine: Engine, rows: readonly Selectable<TradePricesTable>[], deletedAt: string): Promise<void> {
  return inStatements(engine, rows, async (part) => {
    await db
      .insertInto('trade_prices_deleted')
      .values(part.map((row) => ({ ...row, min_quantity: Number(row.min_quantity), deleted_at: deletedAt })))
      .execute();
  });
}

export function keepDeletedListEntries(db: Kysely<Tables>, engine: Engine, rows: readonly Selectable<PriceListPricesTable>[], deletedAt: string): Promise<void> {
  return inStatements(engine, rows, async (part) => {
    await db
      .insertInto('price_list_prices_deleted')
      .values(part.map((row) => ({ ...row, deleted_at: deletedAt })))
      .execute();
  });
}

/** As many inserts as the engine's limit on bound values needs. */
async function inStatements<T>(engine: Engine, rows: readonly T[], insert: (part: T[]) => Promise<void>): Promise<void> {
  const perStatement = Math.floor(engine.maxBoundParameters / COLUMNS_PER_ROW);
  for (let start = 0; start < rows.length; start += perStatement) await insert(rows.slice(start, start + perStatement));
}

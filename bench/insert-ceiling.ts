import { sql } from 'kysely';
import type { Database } from '../src/storage/database.js';
import { insertFromArrays } from '../src/storage/repositories/array-insert.js';
import { type Catalog, type PriceItem, rowOf } from './bench-data.js';

/**
 * How the ceiling inserts its 1000 rows: `values`, one multi-row `insert … values (…), (…)`
 * (both engines); `arrays`, one `insert … select … from unnest(<an array per column>)`, the form
 * the server's PostgreSQL bulk insert uses (`Engine.insertsRowsFromArrays`).
 */
export type InsertForm = 'values' | 'arrays';

/**
 * The bulk-create ceiling: the same 1000 rows the HTTP requests carry, inserted straight into
 * the engine in-process, one insert … returning id per transaction of 1000, from `concurrency`
 * loops at once (as many as the HTTP load has connections), for `seconds`.
 */
export async function measureInsertCeiling(
  database: Database,
  catalog: Catalog,
  items: readonly PriceItem[],
  seconds: number,
  concurrency: number,
  form: InsertForm = 'values',
): Promise<{ records: number; seconds: number }> {
  const deadline = performance.now() + seconds * 1000;
  let inserted = 0;
  const started = performance.now();
  const loop = async () => {
    while (performance.now() < deadline) {
      const createdAt = new Date().toISOString();
      const rows = items.map((item) => rowOf(catalog.storeId, item, createdAt));
      await database.db.transaction().execute(async (trx) => {
        if (form === 'values') await trx.insertInto('trade_prices').values(rows).returning('id').execute();
        else await sql`${arraysInsert(rows)} returning id`.execute(trx);
      });
      inserted += items.length;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, loop));
  return { records: inserted, seconds: (performance.now() - started) / 1000 };
}

/** The rows as the server's PostgreSQL bulk insert sends them: one array per column. */
function arraysInsert(rows: ReadonlyArray<ReturnType<typeof rowOf>>) {
  return insertFromArrays('trade_prices', {
    store_id: { type: 'bigint', values: rows.map((row) => row.store_id) },
    customer_id: { type: 'bigint', values: rows.map((row) => row.customer_id) },
    product_id: { type: 'bigint', values: rows.map((row) => row.product_id) },
    sku: { type: 'text', values: rows.map((row) => row.sku) },
    price: { type: 'bigint', values: rows.map((row) => row.price) },
    created_at: { type: 'text', values: rows.map((row) => row.created_at) },
  });
}

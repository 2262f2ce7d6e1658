import type { Database } from '../src/storage/database.js';
import { type Catalog, type PriceItem, rowOf } from './bench-data.js';

/**
 * The bulk-create ceiling: the same 1000 rows the HTTP requests carry, inserted straight into
 * the engine in-process, one multi-row insert per transaction of 1000, from `concurrency`
 * loops at once (as many as the HTTP load has connections), for `seconds`.
 */
export async function measureInsertCeiling(
  database: Database,
  catalog: Catalog,
  items: readonly PriceItem[],
  seconds: number,
  concurrency: number,
): Promise<{ records: number; seconds: number }> {
  const deadline = performance.now() + seconds * 1000;
  let inserted = 0;
  const started = performance.now();
  const loop = async () => {
    while (performance.now() < deadline) {
      const createdAt = new Date().toISOString();
      await database.db.transaction().execute((trx) =>
        trx
          .insertInto('trade_prices')
          .values(items.map((item) => rowOf(catalog.storeId, item, createdAt)))
          .returning('id')
          .execute(),
      );
      inserted += items.length;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, loop));
  return { records: inserted, seconds: (performance.now() - started) / 1000 };
}

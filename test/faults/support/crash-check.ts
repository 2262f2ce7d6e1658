import { sql } from 'kysely';
import type { Database } from '../../../src/storage/database.js';

/** Items per bulk request of the crash run. */
export const BATCH_SIZE = 1000;

/**
 * Every item carries its batch in its price: batch b, item i costs b + i / 10 000, stored as
 * the integer b × 10 000 + i ten-thousandths. So `price / 10 000` (integer division) names the
 * batch of any stored row, and a batch's rows are complete when their prices are exactly
 * b × 10 000 … b × 10 000 + 999.
 */
export function priceUnitsOf(batch: number, item: number): number {
  return batch * 10_000 + item;
}

export function idempotencyKeyOf(batch: number): string {
  return `crash-${batch}`;
}

/** The ids of one batch, summarised: equal digests mean equal id sets (for sets of consecutive-ish ids this is plenty). */
export interface IdDigest {
  count: number;
  min: number;
  max: number;
  sum: number;
}

export function digestOf(ids: readonly number[]): IdDigest {
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  let sum = 0;
  for (const id of ids) {
    min = Math.min(min, id);
    max = Math.max(max, id);
    sum += id;
  }
  return { count: ids.length, min, max, sum };
}

const sameDigest = (a: IdDigest, b: IdDigest) => a.count === b.count && a.min === b.min && a.max === b.max && a.sum === b.sum;

export interface CrashCheck {
  /** Batches with at least one stored row. */
  storedBatches: number;
  /** Acknowledged (201) batches without a single stored row. */
  lost: number;
  /** Batches with some rows but not exactly their 1000 items. */
  partial: number;
  /** Batches stored more than once (a retry created it again). */
  duplicated: number;
  /** Acknowledged batches whose stored rows have other ids than the 201 answer named. */
  answerMismatches: number;
  /** Completed idempotency keys whose batch has no rows. */
  keysWithoutRecords: number;
  /** Stored batches without their idempotency key. */
  recordsWithoutKey: number;
  /** Keys claimed but never completed with a 201 answer, or whose stored answer names other ids than the rows. */
  badKeys: number;
  /** Stored rows without their `trade_customer_product_price.created` outbox event. */
  eventsMissing: number;
  /** Created events of the store whose record does not exist. */
  orphanEvents: number;
  /** `ok`, or what the engine's own check reported. */
  integrity: string;
}

interface BatchRow {
  batch: number;
  rows: number;
  distinct_prices: number;
  min_price: number;
  max_price: number;
  min_id: number;
  max_id: number;
  id_sum: number;
}

/**
 * Reads back what a crash run left in the database (opened directly, no server running) and
 * counts every way it differs from what the client was told.
 */
export async function checkCrashRun(database: Database, storeId: number, acked: ReadonlyMap<number, IdDigest>): Promise<CrashCheck> {
  const { db } = database;
  const batches = await sql<BatchRow>`
    select price / 10000 as batch, count(*) as rows, count(distinct price) as distinct_prices,
           min(price) as min_price, max(price) as max_price, min(id) as min_id, max(id) as max_id, cast(sum(id) as bigint) as id_sum
    from trade_prices where store_id = ${storeId} group by price / 10000`.execute(db);
  const stored = new Map<number, BatchRow>(batches.rows.map((row) => [Number(row.batch), row]));
  const digestOfRow = (row: BatchRow): IdDigest => ({ count: Number(row.rows), min: Number(row.min_id), max: Number(row.max_id), sum: Number(row.id_sum) });

  let partial = 0;
  let duplicated = 0;
  for (const [batch, row] of stored) {
    const complete =
      Number(row.distinct_prices) === BATCH_SIZE &&
      Number(row.min_price) === priceUnitsOf(batch, 0) &&
      Number(row.max_price) === priceUnitsOf(batch, BATCH_SIZE - 1);
    if (Number(row.rows) > BATCH_SIZE && complete) duplicated += 1;
    else if (Number(row.rows) !== BATCH_SIZE || !complete) partial += 1;
  }

  let lost = 0;
  let answerMismatches = 0;
  for (const [batch, digest] of acked) {
    const row = stored.get(batch);
    if (row === undefined) lost += 1;
    else if (!sameDigest(digest, digestOfRow(row))) answerMismatches += 1;
  }

  const keys = await db.selectFrom('idempotency_records').select(['key', 'status_code', 'response_body']).where('store_id', '=', storeId).execute();
  const keyed = new Set<number>();
  let keysWithoutRecords = 0;
  let badKeys = 0;
  for (const key of keys) {
    const batch = Number(/^crash-(\d+)$/.exec(key.key)?.[1]);
    const row = stored.get(batch);
    if (row === undefined) {
      keysWithoutRecords += 1;
      continue;
    }
    keyed.add(batch);
    const answered =
      Number(key.status_code) === 201 ? digestOf((JSON.parse(key.response_body) as Array<{ id: number }>).map((record) => record.id)) : undefined;
    if (answered === undefined || !sameDigest(answered, digestOfRow(row))) badKeys += 1;
  }
  const recordsWithoutKey = [...stored.keys()].filter((batch) => !keyed.has(batch)).length;

  const topic = 'trade_customer_product_price.created';
  const withEvents = await sql<{ joined: number }>`
    select count(*) as joined from events e join trade_prices t on t.id = e.subject_id and t.store_id = e.store_id
    where e.store_id = ${storeId} and e.topic = ${topic}`.execute(db);
  const events = await db
    .selectFrom('events')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('store_id', '=', storeId)
    .where('topic', '=', topic)
    .executeTakeFirstOrThrow();
  const rowCount = [...stored.values()].reduce((sum, row) => sum + Number(row.rows), 0);
  const joined = Number(withEvents.rows[0]?.joined ?? 0);

  return {
    storedBatches: stored.size,
    lost,
    partial,
    duplicated,
    answerMismatches,
    keysWithoutRecords,
    recordsWithoutKey,
    badKeys,
    eventsMissing: rowCount - joined,
    orphanEvents: Number(events.count) - joined,
    integrity: await integrityOf(database),
  };
}

/** SQLite: `PRAGMA integrity_check` and `foreign_key_check`. PostgreSQL: amcheck on every B-tree index (with every heap tuple looked up) and every table's heap. */
async function integrityOf(database: Database): Promise<string> {
  const { db } = database;
  if (database.engine.name === 'sqlite') {
    const integrity = await sql<{ integrity_check: string }>`pragma integrity_check`.execute(db);
    const foreignKeys = await sql<Record<string, unknown>>`pragma foreign_key_check`.execute(db);
    const verdict = integrity.rows.map((row) => row.integrity_check).join('; ');
    return foreignKeys.rows.length === 0 ? verdict : `${verdict}; ${foreignKeys.rows.length} foreign key violations`;
  }
  await sql`create extension if not exists amcheck`.execute(db);
  const indexes = await sql<{ name: string }>`
    select c.relname as name from pg_index i join pg_class c on c.oid = i.indexrelid join pg_am am on am.oid = c.relam
    join pg_namespace n on n.oid = c.relnamespace where am.amname = 'btree' and n.nspname = current_schema()`.execute(db);
  const problems: string[] = [];
  for (const index of indexes.rows) {
    // Fails on a corrupt index, or on a heap tuple the index lacks: reported, like SQLite's findings.
    try {
      await sql`select bt_index_check(${index.name}::regclass, true)`.execute(db);
    } catch (error) {
      problems.push(`index ${index.name}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  const tables = await sql<{ name: string }>`select tablename as name from pg_tables where schemaname = current_schema()`.execute(db);
  for (const table of tables.rows) {
    const corrupt = await sql<{ count: number }>`select count(*) as count from verify_heapam(${table.name}::regclass)`.execute(db);
    if (Number(corrupt.rows[0]?.count ?? 0) > 0) problems.push(`heap corruption in ${table.name}`);
  }
  return problems.length === 0 ? 'ok' : problems.join('; ');
}

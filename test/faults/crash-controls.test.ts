import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { enginesUnderTest } from '../support/engines.js';
import type { Database } from '../../src/storage/database.js';
import { BATCH_SIZE, idempotencyKeyOf, priceUnitsOf } from './support/crash-check.js';
import { crashSummary, runCrashCycles } from './support/crash-run.js';
import { faultSeed, reportLine } from './support/report.js';

/**
 * The negative controls of crash.test.ts: the checker sees loss when the server acknowledges
 * before it commits (the same server with that fault planted, run from the test-only entry
 * point support/fault-server.ts), and every other figure when the data is damaged behind its
 * back, on both engines.
 */
const engines = await enginesUnderTest();
/** The ack-before-commit control loses about a batch per cycle. */
const CONTROL_CYCLES = { sqlite: 3, postgres: 2 } as const;
const seed = faultSeed();

describe('crash: the checker of SIGKILL cycles', () => {
  it.each(engines)(
    'negative control: when the server acknowledges before it commits (fault-server.ts), the checker reports acknowledged batches lost on %s',
    async (engine) => {
      // Killed 0.1 to 0.5 s after the cycle's first answer, whose commit waits a second: that
      // batch at least is lost, however long the server took to start (a kill timed from the
      // start found none lost on a loaded machine, PostgreSQL's first answer not in yet). The
      // unanswered batches are not retried (each commit would hold SQLite for a second).
      const run = await runCrashCycles({
        engine,
        cycles: CONTROL_CYCLES[engine],
        concurrency: 6,
        killAfterMs: [100, 500],
        killAfterFirstAnswer: true,
        seed,
        ackBeforeCommit: true,
        retryUnanswered: false,
      });
      reportLine(crashSummary(`crash/control (ack before commit, ${engine})`, run));
      expect(run.check.lost).toBeGreaterThan(0);
      // Loss, not damage: the files are still sound.
      expect(run.check.integrity).toBe('ok');
    },
    120_000,
  );

  it.each(engines)(
    'negative control: rows, keys and events removed, a batch stored twice and a broken index or reference are reported on %s',
    async (engine) => {
      const run = await runCrashCycles({ engine, cycles: 2, concurrency: 6, killAfterMs: [400, 800], seed, beforeCheck: damage });
      reportLine(
        crashSummary(
          `crash/control (rows, a key and an event deleted, a batch copied, ${engine === 'sqlite' ? 'a reference broken' : 'an index broken'}, ${engine})`,
          run,
        ),
      );
      expect(run.check).toMatchObject({
        partial: 1,
        duplicated: 1,
        // The partial batch's rows and the copied batch's no longer match what their 201s and their keys' stored answers named.
        answerMismatches: 2,
        badKeys: 2,
        recordsWithoutKey: 1,
        // The deleted event, and the copies' rows, which have none.
        eventsMissing: 1 + BATCH_SIZE,
        orphanEvents: 1,
      });
      expect(run.check.integrity).toMatch(engine === 'sqlite' ? /^ok; 1 foreign key violations$/ : /^index crash_control_index: .*lacks matching index tuple/);
    },
    120_000,
  );
});

/**
 * Behind the checker's back: deletes one row of the first stored batch, the key of the second
 * and one outbox event of the third; stores the fourth a second time; and breaks what the
 * engine's own check looks at (SQLite: a reference to a product that does not exist, written
 * with foreign keys off; PostgreSQL: an index on an "immutable" function whose result is then
 * changed, so the index no longer matches the rows).
 */
async function damage(database: Database, storeId: number): Promise<void> {
  const { db } = database;
  const rows = await db.selectFrom('trade_prices').select(['id', 'price']).where('store_id', '=', storeId).orderBy('id').execute();
  const firstRowOf = new Map<number, number>();
  for (const row of rows) if (!firstRowOf.has(Math.floor(row.price / 10_000))) firstRowOf.set(Math.floor(row.price / 10_000), row.id);
  const [first, second, third, fourth] = [...firstRowOf];
  if (fourth === undefined) throw new Error('the control needs four stored batches');
  await db.deleteFrom('trade_prices').where('id', '=', first![1]).execute();
  await db.deleteFrom('idempotency_records').where('store_id', '=', storeId).where('key', '=', idempotencyKeyOf(second![0])).execute();
  await db
    .deleteFrom('events')
    .where('store_id', '=', storeId)
    .where('subject_id', '=', third![1])
    .where('topic', '=', 'trade_customer_product_price.created')
    .execute();
  const [low, high] = [priceUnitsOf(fourth[0], 0), priceUnitsOf(fourth[0] + 1, 0)];
  await sql`insert into trade_prices (store_id, customer_id, product_id, sku, price, created_at)
    select store_id, customer_id, product_id, sku, price, created_at from trade_prices
    where store_id = ${storeId} and price >= ${low} and price < ${high} order by id`.execute(db);
  if (database.engine.name === 'sqlite') {
    await sql`pragma foreign_keys = off`.execute(db);
    await sql`insert into skus (store_id, sku, product_id) values (${storeId}, 'CONTROL-NO-SUCH-PRODUCT', 987654321)`.execute(db);
    await sql`pragma foreign_keys = on`.execute(db);
  } else {
    await sql`create function crash_control_key(value bigint) returns bigint language sql immutable as 'select value'`.execute(db);
    await sql`create index crash_control_index on trade_prices (crash_control_key(id))`.execute(db);
    await sql`create or replace function crash_control_key(value bigint) returns bigint language sql immutable as 'select -value'`.execute(db);
  }
}

import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServices } from '../../src/app/services.js';
import { parseConfig } from '../../src/config/config.js';
import { CLI_ORIGIN } from '../../src/modules/history/change-records.js';
import { openDatabase, SQLITE_FILE_NAME } from '../../src/storage/database.js';
import { createPostgresDatabase, enginesUnderTest } from '../support/engines.js';
import { type Instance, startInstance, tlsFiles } from '../support/instance-process.js';
import { figure, reportLine } from './support/report.js';

/**
 * A scheduled change set of 5000 creations, applied by a real `pricebook serve`'s scheduler,
 * killed with SIGKILL while the apply's transaction is open (seen from outside: on PostgreSQL
 * a transaction of the server's open for 50 ms, on SQLite the database's write lock held across
 * two looks 20 ms apart). After each kill the store holds none of the set's prices (the set
 * still scheduled) or all of them (the set applied), never a part; after the restart the set
 * is applied, exactly once: every price once, one creation event each, one `applied` step.
 */
const OPERATIONS = 5000;
const SKUS = 100;
const KILLS = 2;

describe.each(await enginesUnderTest())('a scheduled change set killed mid-apply on %s', (engine) => {
  let tls: Awaited<ReturnType<typeof tlsFiles>>;
  let storage: Record<string, string>;
  let dropDatabase: (() => Promise<void>) | undefined;
  let instance: Instance | undefined;

  beforeAll(async () => {
    tls = await tlsFiles();
    const postgres = engine === 'postgres' ? await createPostgresDatabase() : undefined;
    dropDatabase = postgres?.drop;
    storage = { PRICEBOOK_DATA_DIR: path.join(tls.dir, 'data'), ...(postgres && { DATABASE_URL: postgres.url }) };
  });
  afterAll(async () => {
    await instance?.stop();
    await dropDatabase?.();
    tls.remove();
  });

  const start = () => startInstance({ name: 'change-set-crash', tls, env: { ...storage, PRICEBOOK_WEBHOOK_WORKER: '0' } });

  /** What the store holds: the set's prices, their creation events, the set's state and its `applied` steps. */
  async function stored(storeId: number, setId: number): Promise<{ prices: number; events: number; state: string; appliedSteps: number }> {
    const database = await openDatabase({ databaseUrl: storage.DATABASE_URL, dataDir: storage.PRICEBOOK_DATA_DIR!, poolSize: 1 });
    try {
      // One moment for all four reads: an apply committing between them would pair the
      // prices before it with the state after it (0 prices, "applied").
      return await database.db
        .transaction()
        .setIsolationLevel('repeatable read')
        .setAccessMode('read only')
        .execute(async (db) => {
          const count = (rows: Array<{ n: unknown }>) => Number(rows[0]?.n ?? 0);
          const prices = await db
            .selectFrom('trade_prices')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('store_id', '=', storeId)
            .execute();
          const events = await db
            .selectFrom('events')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('store_id', '=', storeId)
            .where('topic', '=', 'trade_customer_product_price.created')
            .execute();
          const set = await db.selectFrom('change_sets').select('state').where('id', '=', setId).executeTakeFirstOrThrow();
          const steps = await db.selectFrom('price_history').select('after').where('store_id', '=', storeId).where('resource', '=', 'change_set').execute();
          const appliedSteps = steps.filter((step) => (JSON.parse(step.after ?? 'null') as { state?: string } | null)?.state === 'applied').length;
          return { prices: count(prices), events: count(events), state: set.state, appliedSteps };
        });
    } finally {
      await database.close();
    }
  }

  /** Resolves once the server is seen inside a write transaction that lasts (the apply), or false after `ms`. */
  async function applyUnderWay(ms: number): Promise<boolean> {
    const deadline = Date.now() + ms;
    if (engine === 'postgres') {
      const client = new pg.Client({ connectionString: storage.DATABASE_URL });
      await client.connect();
      try {
        while (Date.now() < deadline) {
          const open = await client.query(
            "select count(*)::int as n from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and xact_start is not null and now() - xact_start > interval '50 milliseconds'",
          );
          if ((open.rows[0] as { n: number }).n > 0) return true;
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
        return false;
      } finally {
        await client.end();
      }
    }
    const database = new BetterSqlite3(path.join(storage.PRICEBOOK_DATA_DIR!, SQLITE_FILE_NAME), { timeout: 0 });
    try {
      let busy = 0;
      while (Date.now() < deadline) {
        try {
          database.exec('begin immediate');
          database.exec('rollback');
          busy = 0;
        } catch {
          if (++busy >= 2) return true;
        }
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return false;
    } finally {
      database.close();
    }
  }

  it(`leaves none or all of a ${figure(OPERATIONS)}-operation set's prices after each SIGKILL, and applies it once in the end`, async () => {
    const setup = await buildServices(parseConfig({ ...storage, PRICEBOOK_DEMO: '0', PRICEBOOK_LOG_LEVEL: 'silent' }), { poolSize: 1 });
    let storeId: number;
    let setId: number;
    let token: string;
    try {
      storeId = (await setup.credentials.createStore('Change set crash')).id;
      token = (await setup.credentials.issueKey(storeId)).token;
      const customer = await setup.customers.create(storeId, CLI_ORIGIN, { email: 'crash@example.com', trade: true });
      const product = await setup.products.create(storeId, CLI_ORIGIN, {
        title: 'Many',
        sku: 'CS-0',
        price: 1,
        variations: Array.from({ length: SKUS - 1 }, (_, i) => ({ sku: `CS-${i + 1}` })),
      });
      const set = await setup.changeSets.create(storeId, CLI_ORIGIN, { name: 'Crash' });
      setId = set.id;
      for (let start = 0; start < OPERATIONS; start += 1000) {
        const operations = Array.from({ length: 1000 }, (_, i) => ({
          type: 'trade_price.create' as const,
          customerId: customer.id,
          productId: product.id,
          sku: `CS-${(start + i) % SKUS}`,
          price: (start + i + 1) / 100,
          minQuantity: 1 + Math.floor((start + i) / SKUS),
        }));
        await setup.changeSets.addOperations(storeId, CLI_ORIGIN, set.id, operations);
      }
    } finally {
      await setup.close();
    }

    const kills: string[] = [];
    for (let attempt = 0; attempt < KILLS; attempt++) {
      instance = await start();
      if (attempt === 0) {
        // Scheduled once the server is up, for a moment after its scheduler's first round (at
        // its start): a later round applies it while the test watches. After a kill, the set is
        // due at once, and the restarted server's first round may apply it before it is seen.
        const scheduled = await instance.request('POST', `/v1/change-sets/${setId}/apply`, { token, body: { at: new Date(Date.now() + 1000).toISOString() } });
        expect(scheduled.status, scheduled.text).toBe(200);
      }
      const caught = await applyUnderWay(20_000);
      await instance.kill();
      instance = undefined;
      const after = await stored(storeId, setId);
      kills.push(`${caught ? 'mid-apply' : 'no apply seen'}: ${figure(after.prices)} prices, ${after.state}`);
      expect([0, OPERATIONS], 'prices after the kill').toContain(after.prices);
      expect(after.events).toBe(after.prices);
      expect(after.state).toBe(after.prices === 0 ? 'scheduled' : 'applied');
      if (after.state === 'applied') break;
    }
    expect(
      kills.some((kill) => kill.startsWith('mid-apply')),
      kills.join('; '),
    ).toBe(true);

    instance = await start();
    const deadline = Date.now() + 60_000;
    let end = await stored(storeId, setId);
    while (end.state !== 'applied' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      end = await stored(storeId, setId);
    }
    reportLine(
      `change-set-crash/${engine}: ${figure(OPERATIONS)}-operation scheduled set killed ${kills.join(', then ')}; then ${end.state} with ${figure(end.prices)} prices, ${figure(end.events)} creation events, ${end.appliedSteps} applied step`,
    );
    expect(end).toEqual({ prices: OPERATIONS, events: OPERATIONS, state: 'applied', appliedSteps: 1 });
  }, 240_000);
});

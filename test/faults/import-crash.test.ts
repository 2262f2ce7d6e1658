import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServices } from '../../src/app/services.js';
import { parseConfig } from '../../src/config/config.js';
import { openDatabase } from '../../src/storage/database.js';
import { createPostgresDatabase, enginesUnderTest } from '../support/engines.js';
import { type Instance, startInstance, tlsFiles } from '../support/instance-process.js';
import { figure, reportLine } from './support/report.js';
import type { Import } from '../../src/contract/imports.js';

/**
 * A 50 000-row CSV import against a real `pricebook serve`, killed with SIGKILL twice: once
 * while it checks the rows, once while it applies them. After each kill the store holds none
 * of the file's prices or all of them, never a part; after the restart (the lease is 3 s) the
 * import is taken up again and ends with every price exactly once, one event each.
 */
const CUSTOMERS = 100;
const SKUS = 500;
const ROWS = CUSTOMERS * SKUS;
const LEASE_SECONDS = 3;

describe.each(await enginesUnderTest())('an import killed mid-way on %s', (engine) => {
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

  const start = () =>
    startInstance({
      name: 'import-crash',
      tls,
      env: {
        ...storage,
        PRICEBOOK_RATE_LIMIT_BUCKET: '1000000',
        PRICEBOOK_RATE_LIMIT_LEAK: '100000',
        PRICEBOOK_IMPORT_LEASE: String(LEASE_SECONDS),
        PRICEBOOK_WEBHOOK_WORKER: '0',
      },
    });

  /** The store's trade prices and their creation events, read straight from the database. */
  async function stored(storeId: number): Promise<{ prices: number; events: number; distinct: number }> {
    const database = await openDatabase({ databaseUrl: storage.DATABASE_URL, dataDir: storage.PRICEBOOK_DATA_DIR!, poolSize: 1 });
    try {
      const prices = await database.db
        .selectFrom('trade_prices')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('store_id', '=', storeId)
        .executeTakeFirstOrThrow();
      const events = await database.db
        .selectFrom('events')
        .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.count<number>('subject_id').distinct().as('distinct')])
        .where('store_id', '=', storeId)
        .where('topic', '=', 'trade_customer_product_price.created')
        .executeTakeFirstOrThrow();
      return { prices: Number(prices.n), events: Number(events.n), distinct: Number(events.distinct) };
    } finally {
      await database.close();
    }
  }

  it(`leaves none or all of ${figure(ROWS)} prices after each SIGKILL, and all of them once in the end`, async () => {
    const setup = await buildServices(parseConfig({ ...storage, PRICEBOOK_DEMO: '0', PRICEBOOK_LOG_LEVEL: 'silent' }), { poolSize: 1 });
    const store = await setup.credentials.createStore('Import crash');
    const { token } = await setup.credentials.issueKey(store.id);
    await setup.close();

    instance = await start();
    const product = await instance.request('POST', '/v1/products', {
      token,
      body: { title: 'Many', sku: 'CRASH-0', price: 1, variations: Array.from({ length: SKUS - 1 }, (_, i) => ({ sku: `CRASH-${i + 1}` })) },
    });
    expect(product.status, product.text).toBe(201);
    const customers: number[] = [];
    for (let i = 0; i < CUSTOMERS; i++) {
      const customer = await instance.request('POST', '/v1/customers', { token, body: { email: `crash-${i}@example.com`, trade: true } });
      customers.push((customer.body as { id: number }).id);
    }
    const csv = [
      'customer_id,sku,price',
      ...customers.flatMap((customer, c) => Array.from({ length: SKUS }, (_, s) => `${customer},CRASH-${s},${(c * SKUS + s) / 100}`)),
    ].join('\n');
    const upload = await instance.request('POST', '/v1/imports', { token, rawBody: csv, headers: { 'content-type': 'text/csv' } });
    expect(upload.status, upload.text).toBe(202);
    const importId = (upload.body as Import).id;
    const poll = async () => (await instance!.request('GET', `/v1/imports/${importId}`, { token })).body as Import;

    const kills: string[] = [];
    // First kill: mid-check, once some rows are checked. Second: once every row is checked (the apply step).
    for (const phase of ['checking', 'applying'] as const) {
      const deadline = Date.now() + 60_000;
      for (;;) {
        const current = await poll();
        if (current.status === 'succeeded') throw new Error(`the import ended before the ${phase} kill: make it bigger`);
        const checking = current.status === 'running' && current.processed > 0 && current.processed < ROWS;
        const applying = current.status === 'running' && current.processed === ROWS;
        if ((phase === 'checking' && checking) || (phase === 'applying' && applying)) break;
        if (Date.now() > deadline) throw new Error(`no ${phase} phase seen within 60 s: ${JSON.stringify(current)}`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      await instance.kill();
      instance = undefined;
      const after = await stored(store.id);
      kills.push(`${phase}: ${figure(after.prices)}`);
      expect([0, ROWS], `prices after the kill while ${phase}`).toContain(after.prices);
      expect(after.events).toBe(after.prices);
      instance = await start();
    }

    const deadline = Date.now() + 90_000;
    let last = await poll();
    while (last.status !== 'succeeded' && last.status !== 'failed' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      last = await poll();
    }
    const end = await stored(store.id);
    reportLine(
      `import-crash/${engine}: ${figure(ROWS)}-row import killed while ${kills.join(', then while ')} prices stored after each kill; ` +
        `then ${last.status} with ${figure(end.prices)} prices and ${figure(end.events)} creation events (${figure(end.distinct)} distinct)`,
    );
    expect(last).toMatchObject({ status: 'succeeded', result: { created: ROWS } });
    expect(end).toEqual({ prices: ROWS, events: ROWS, distinct: ROWS });
  }, 240_000);
});

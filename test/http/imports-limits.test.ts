import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { buildMaintenanceLoop } from '../../src/app/maintenance.js';
import type { MaintenanceLoop } from '../../src/modules/maintenance/maintenance-loop.js';
import { createCatalog } from '../support/catalog-fixture.js';
import { expectError } from '../support/conventions.js';
import { insertTradeCustomers } from '../support/bulk-customers.js';
import { csvBody } from '../support/csv-body.js';
import { enginesUnderTest } from '../support/engines.js';
import { OffsetClock } from '../support/offset-clock.js';
import { parsePrometheusText } from '../support/prometheus-text.js';
import { beyondImports, snapshotStore } from '../support/store-snapshot.js';
import { type SuiteServer, suiteServer } from '../support/suite-server.js';
import type { HttpResponse, Tenant, TestServer } from '../support/test-server.js';
import type { Import } from '../../src/contract/imports.js';
import { CLI_ORIGIN } from '../../src/modules/history/change-records.js';

/**
 * Regression tests of the import limits (issue 21, problems 2, 3, 4, 5 and 8; docs/imports.md,
 * "Limits"): files stored and read in slices, per-store queue caps, fair claims, files deleted
 * when an import ends and imports purged after their retention, bounded problems and events,
 * wide matrices, unexpected errors failing at once, and NUL characters.
 */

const MIB = 2 ** 20;
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

type Body = string | Buffer | AsyncIterable<Uint8Array>;

/** What the tests of one server need: uploads, polls, and a look at what an import left in storage. */
function importTools(server: () => TestServer) {
  const upload = (tenant: Tenant, body: Body, query = '', headers: Record<string, string> = {}): Promise<HttpResponse> =>
    server().request('POST', `/v1/imports${query}`, { token: tenant.token, rawBody: body, headers: { 'content-type': 'text/csv', ...headers } });
  const read = async (tenant: Tenant, id: number): Promise<Import> =>
    (await server().request('GET', `/v1/imports/${id}`, { token: tenant.token })).body as Import;
  /** Polls the import until it ends (at most 60 s). */
  const finished = async (tenant: Tenant, id: number): Promise<Import> => {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const current = await read(tenant, id);
      if (current.status === 'succeeded' || current.status === 'failed') return current;
      if (Date.now() > deadline) throw new Error(`import ${id} still ${current.status} after 60 s`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  const imported = async (tenant: Tenant, body: Body, query = ''): Promise<Import> => {
    const response = await upload(tenant, body, query);
    expect(response.status, response.text).toBe(202);
    return finished(tenant, (response.body as Import).id);
  };
  /** Slices of files and staged prices in storage: of one import, or of every import of a store. */
  const stored = async (where: { importId: number } | { storeId: number }): Promise<{ slices: number; staged: number }> => {
    const { db } = server().services.database;
    const count = async (table: 'import_file_chunks' | 'import_rows') => {
      let query = db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n'));
      query = 'importId' in where ? query.where('import_id', '=', where.importId) : query.where('store_id', '=', where.storeId);
      return Number((await query.executeTakeFirstOrThrow()).n);
    };
    return { slices: await count('import_file_chunks'), staged: await count('import_rows') };
  };
  /** Waits (at most 10 s) until the import's file and staged prices are deleted and it is no longer marked for it. */
  const cleanedUp = async (id: number): Promise<void> => {
    const marked = async () =>
      Number((await server().services.database.db.selectFrom('imports').select('cleanup').where('id', '=', id).executeTakeFirst())?.cleanup ?? 0) === 1;
    const deadline = Date.now() + 10_000;
    let left = { ...(await stored({ importId: id })), marked: await marked() };
    while ((left.slices > 0 || left.staged > 0 || left.marked) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      left = { ...(await stored({ importId: id })), marked: await marked() };
    }
    expect(left, `import ${id}: file slices and staged prices deleted once it ended`).toEqual({ slices: 0, staged: 0, marked: false });
  };
  return { upload, read, finished, imported, stored, cleanedUp };
}

/** A body that yields its first part, then waits for `release()` before the rest. */
function pausedBody(header: string, row: (index: number) => string, bytes: number, pauseAfter: number) {
  let release!: () => void;
  let paused!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const reached = new Promise<void>((resolve) => (paused = resolve));
  let waited = false;
  const body = csvBody(header, row, { bytes }, async (sent) => {
    if (waited || sent < pauseAfter) return;
    waited = true;
    paused();
    await released;
  });
  return { body, reached, release };
}

describe.each(await enginesUnderTest())('import limits on %s', (engine) => {
  const suite: SuiteServer = suiteServer(engine, { catalogs: true });
  const tools = importTools(() => suite.server);

  it('stores an upload slice by slice as it arrives, hidden until it is whole, and deletes the slices once the import ends', async () => {
    const { catalog, tenant } = suite;
    const header = 'customer_id,sku,price';
    const row = (index: number) => `${catalog.tradeCustomer},${catalog.skus.mug},${(index % 9999) + 1}`;
    const paused = pausedBody(header, row, 4 * MIB, 3 * MIB);
    const countBefore = ((await suite.api.request('GET', '/v1/imports/count', { token: tenant.token })).body as { count: number }).count;
    const answer = tools.upload(tenant, paused.body, '?dryRun=true');
    await paused.reached;
    // Three MiB sent, the rest held back: its first slices are in storage already.
    const deadline = Date.now() + 10_000;
    while ((await tools.stored({ storeId: tenant.storeId })).slices < 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect((await tools.stored({ storeId: tenant.storeId })).slices).toBeGreaterThanOrEqual(2);
    // ...and the import is not one yet: not listed, not counted.
    expect(((await suite.api.request('GET', '/v1/imports/count', { token: tenant.token })).body as { count: number }).count).toBe(countBefore);
    paused.release();
    const response = await answer;
    expect(response.status, response.text).toBe(202);
    const queued = response.body as Import;
    const done = await tools.finished(tenant, queued.id);
    expect(done).toMatchObject({
      status: 'succeeded',
      format: 'long',
      rows: queued.rows,
      processed: queued.rows,
      result: { created: queued.rows, deleted: 0, unchanged: 0 },
    });
    expect(queued.rows).toBeGreaterThan(150_000);
    await tools.cleanedUp(queued.id);
  });

  it('deletes the file and staged prices of a failed import and of a real one', async () => {
    const { catalog, tenant } = suite;
    const good = await tools.imported(
      tenant,
      `customer_id,sku,price\n${catalog.tradeCustomer},${catalog.skus.tee},3\n${catalog.otherTradeCustomer},${catalog.skus.tee},4`,
      '?mode=replace',
    );
    expect(good).toMatchObject({ status: 'succeeded', result: { created: 2 } });
    await tools.cleanedUp(good.id);
    // The last row fails: every row before it was staged.
    const rows = Array.from({ length: 3000 }, (_, index) => `${catalog.tradeCustomer},${catalog.skus.mug},${index + 1}`);
    const bad = await tools.imported(tenant, ['customer_id,sku,price', ...rows, `${catalog.tradeCustomer},NOPE,1`].join('\n'));
    expect(bad).toMatchObject({ status: 'failed', errorCount: 1, errors: [{ row: 3002, field: 'sku' }] });
    await tools.cleanedUp(bad.id);
  });

  it('replaces a customer with more prices than fit one window: equal records kept, others of the named and unnamed SKUs removed, dry run and real run agreeing', async () => {
    const { tenant } = suite;
    const skus = Array.from({ length: 1500 }, (_, index) => `W${engine}-${String(index).padStart(4, '0')}`);
    const cents = (amount: number) => Number((amount / 100).toFixed(2));
    // Two products of 750 SKUs each (a product has at most 1000 variations).
    const productIds: number[] = [];
    for (const half of [skus.slice(0, 750), skus.slice(750)]) {
      const product = await suite.api.request('POST', '/v1/products', {
        token: tenant.token,
        body: { title: 'Wide', sku: half[0], price: 1, variations: half.slice(1).map((sku) => ({ sku })) },
      });
      expect(product.status, product.text).toBe(201);
      productIds.push((product.body as { id: number }).id);
    }
    const customer = (
      (await suite.api.request('POST', '/v1/customers', { token: tenant.token, body: { email: `window-${engine}@example.com`, trade: true } })).body as {
        id: number;
      }
    ).id;
    // Records of every third SKU, two of them for every ninth: the file names some, and not others.
    const existing = skus.flatMap((sku, index) =>
      (index % 3 !== 0 ? [] : index % 9 === 0 ? [index, index] : [index]).map((at) => ({
        customerId: customer,
        productId: productIds[index < 750 ? 0 : 1],
        sku,
        price: cents(at + 100),
      })),
    );
    const records: Array<{ id: number; sku: string; price: number }> = [];
    for (let start = 0; start < existing.length; start += 1000) {
      const created = await suite.api.request('POST', '/v1/trade-customer-product-prices/bulk', {
        token: tenant.token,
        body: existing.slice(start, start + 1000),
      });
      expect(created.status, created.text).toBe(201);
      records.push(...(created.body as typeof records));
    }
    // The file: every SKU but each fifth; the price of the records for every sixth (so those
    // stay, one of two where there are two), another for the rest, and a break for every seventh.
    const named = skus.map((sku, index) => ({ sku, index })).filter(({ index }) => index % 5 !== 0);
    const lines = named.flatMap(({ sku, index }) => [
      `${customer},${sku},${cents(index % 6 === 0 ? index + 100 : index + 200)},`,
      ...(index % 7 === 0 ? [`${customer},${sku},0.5,10`] : []),
    ]);
    const csv = ['customer_id,sku,price,min_quantity', ...lines].join('\n');
    const kept = records.filter((record) => {
      const index = skus.indexOf(record.sku);
      return index % 5 !== 0 && index % 6 === 0;
    });
    const keptIds = kept.filter((record, at) => kept.findIndex((other) => other.sku === record.sku) === at).map((record) => record.id);
    const expected = { created: lines.length - keptIds.length, deleted: records.length - keptIds.length, unchanged: keptIds.length };

    const dry = await tools.imported(tenant, csv, '?mode=replace&dryRun=true');
    expect(dry).toMatchObject({ status: 'succeeded', result: expected });
    const real = await tools.imported(tenant, csv, '?mode=replace');
    expect(real).toMatchObject({ status: 'succeeded', result: expected });
    const after: Array<{ id: number; sku: string; price: number; minQuantity: number }> = [];
    for (let offset = 0; ; offset += 100) {
      const page = (
        await suite.api.request('GET', `/v1/trade-customer-product-prices?customerId=${customer}&count=100&offset=${offset}`, { token: tenant.token })
      ).body as typeof after;
      after.push(...page);
      if (page.length < 100) break;
    }
    const asLine = (price: { sku: string; price: number; minQuantity: number }) =>
      `${customer},${price.sku},${price.price},${price.minQuantity === 1 ? '' : price.minQuantity}`;
    expect(after.map(asLine).sort()).toEqual([...lines].sort());
    expect(
      after
        .map((record) => record.id)
        .filter((id) => keptIds.includes(id))
        .sort(),
    ).toEqual([...keptIds].sort());
    await tools.cleanedUp(real.id);
  }, 120_000);

  it("runs another store's one-row dry run beside a store's three large files, not after them", async () => {
    const { tenant: a, other: b, catalog, foreign } = suite;
    const header = 'customer_id,sku,price';
    const big = () => csvBody(header, (index) => `${catalog.tradeCustomer},${catalog.skus.mug},${(index % 9999) + 1}`, { bytes: 3 * MIB, repeatAfter: MIB });
    // Three at once: the first is checked while the others wait their turn in A's queue.
    const answers = await Promise.all([0, 1, 2].map(() => tools.upload(a, big(), '?dryRun=true')));
    for (const response of answers) expect(response.status, response.text).toBe(202);
    const queuedA = answers.map((response) => (response.body as Import).id);
    const small = await tools.upload(b, `${header}\n${foreign.tradeCustomer},${foreign.skus.mug},1`, '?dryRun=true');
    expect(small.status).toBe(202);
    const smallId = (small.body as Import).id;
    let mostRunning = 0;
    let smallDone: Import | undefined;
    const deadline = Date.now() + 60_000;
    while (smallDone === undefined && Date.now() < deadline) {
      const ofA = await Promise.all(queuedA.map((id) => tools.read(a, id)));
      mostRunning = Math.max(mostRunning, ofA.filter((item) => item.status === 'running').length);
      const current = await tools.read(b, smallId);
      if (current.status === 'succeeded' || current.status === 'failed') smallDone = current;
      else await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const ofA = await Promise.all(queuedA.map((id) => tools.read(a, id)));
    expect(smallDone).toMatchObject({ status: 'succeeded', result: { created: 1 } });
    // One of store A's files had not even started: B did not wait for A's queue.
    expect(ofA.filter((item) => item.status === 'queued').length).toBeGreaterThanOrEqual(1);
    // A store's imports run one at a time, in order.
    expect(mostRunning).toBeLessThanOrEqual(1);
    for (const id of queuedA) expect(await tools.finished(a, id)).toMatchObject({ status: 'succeeded' });
  }, 120_000);

  it('checks header names and cells against the longest legal value, quoting a short prefix, and keeps every problem within its bounds', async () => {
    const { catalog, tenant } = suite;
    // The example: a 16 KiB matrix whose header names a 10 000-character "e-mail".
    const longName = `${'x'.repeat(9990)}@example.com`;
    const { db } = suite.server.services.database;
    const lastEvent = Number(
      (
        await db
          .selectFrom('events')
          .select((eb) => eb.fn.max('id').as('id'))
          .executeTakeFirstOrThrow()
      ).id ?? 0,
    );
    const rows = Array.from({ length: 1000 }, () => `${catalog.skus.mug},1`);
    const headerFailed = await tools.imported(tenant, [`sku,${longName}`, ...rows].join('\n'));
    expect(headerFailed).toMatchObject({ status: 'failed', errorCount: 1 });
    expect(headerFailed.errors).toEqual([{ row: 1, field: `${'x'.repeat(64)}…`, message: expect.stringMatching(/longer than any column name/) }]);
    const answer = await suite.api.request('GET', `/v1/imports/${headerFailed.id}`, { token: tenant.token });
    expect(answer.text.length).toBeLessThan(2000);

    // Its event carries the import without the list: errorCount says how many there were.
    const events = (await suite.api.request('GET', `/v1/events?after=${lastEvent}&count=100`, { token: tenant.token })).body as Array<{
      topic: string;
      subjectId: number;
      data: Record<string, unknown>;
    }>;
    const failed = events.find((event) => event.topic === 'import.failed' && event.subjectId === headerFailed.id);
    expect(failed?.data).toEqual({ ...Object.fromEntries(Object.entries(headerFailed).filter(([key]) => key !== 'errors')) });
    expect(failed?.data).not.toHaveProperty('errors');

    // Cells longer than any legal value: quoted by a 40-character prefix.
    const longSku = 'S'.repeat(300);
    const cells = await tools.imported(
      tenant,
      `customer_id,sku,price\n${catalog.tradeCustomer},${longSku},1\n${'9'.repeat(5000)},${catalog.skus.mug},${'1'.repeat(5000)}`,
    );
    expect(cells.errors).toEqual([
      { row: 2, field: 'sku', message: `must have at most 255 characters, got '${'S'.repeat(40)}…' (300 characters)` },
      { row: 3, field: 'customer_id', message: expect.stringContaining(`got '${'9'.repeat(40)}…'`) },
      { row: 3, field: 'price', message: expect.stringContaining(`got '${'1'.repeat(40)}…'`) },
    ]);

    // The largest problems there can be: a legal 254-character e-mail column naming nobody, and
    // rows of 255-character SKUs that do not exist; 3000 rows, 6000 problems, 1000 kept.
    const email = `${'e'.repeat(254 - '@example.com'.length)}@example.com`;
    const worst = await tools.imported(
      tenant,
      [`sku,${email}`, ...Array.from({ length: 3000 }, (_, index) => `${String(index).padStart(255, 'K')},1`)].join('\n'),
    );
    expect(worst).toMatchObject({ status: 'failed', errorCount: 6000 });
    expect(worst.errors).toHaveLength(1000);
    for (const problem of worst.errors) {
      expect(problem.field?.length ?? 0).toBeLessThanOrEqual(255);
      expect(problem.message.length).toBeLessThanOrEqual(300);
    }
    expect(worst.errors[0]).toEqual({ row: 2, field: email, message: `Customer '${email.slice(0, 64)}…' does not exist in this store` });
    const worstAnswer = await suite.api.request('GET', `/v1/imports/${worst.id}`, { token: tenant.token });
    // The documented bound: 1000 problems of at most 255 + 300 characters, under 0.6 MB.
    expect(worstAnswer.text.length).toBeLessThan(600_000);
    expect(worstAnswer.text.length).toBeGreaterThan(200_000);
  });

  it('reads a matrix of 16 383 customers (looked up in chunks) and refuses a wider one on row 1 at once', async () => {
    const { catalog, tenant } = suite;
    const customers = await insertTradeCustomers(suite.server, tenant.storeId, 16_383, `wide-${engine}`);
    const header = ['sku', ...customers.map(String)].join(',');
    const line = (sku: string, price: number) => [sku, ...customers.map(() => String(price))].join(',');
    const wide = await tools.imported(tenant, [header, line(catalog.skus.mug, 1), line(catalog.skus.tee, 2)].join('\n'), '?dryRun=true');
    expect(wide).toMatchObject({ status: 'succeeded', format: 'matrix', rows: 2, result: { created: 2 * 16_383, deleted: 0, unchanged: 0 } });

    const started = Date.now();
    const wider = await tools.imported(tenant, [`${header},${customers[0]},${customers[1]}`, `${line(catalog.skus.mug, 1)},1,1`].join('\n'), '?dryRun=true');
    expect(wider).toMatchObject({
      status: 'failed',
      errorCount: 1,
      errors: [{ row: 1, field: null, message: expect.stringMatching(/more than 16384 fields/) }],
    });
    expect(Date.now() - started).toBeLessThan(30_000);
  }, 120_000);

  it('fails an import at once, with its reason, when the database fails under it', async () => {
    const { catalog, tenant } = suite;
    const { db } = suite.server.services.database;
    // A failure planted in the database: staging a checked price raises an error.
    if (engine === 'sqlite') {
      await sql`create trigger planted_failure before insert on import_rows begin select raise(abort, 'planted failure'); end`.execute(db);
    } else {
      await sql`create function planted_failure() returns trigger language plpgsql as $$ begin raise exception 'planted failure'; end $$`.execute(db);
      await sql`create trigger planted_failure before insert on import_rows for each statement execute function planted_failure()`.execute(db);
    }
    try {
      const started = Date.now();
      const done = await tools.imported(tenant, `customer_id,sku,price\n${catalog.tradeCustomer},${catalog.skus.mug},7`);
      expect(done).toMatchObject({
        status: 'failed',
        errorCount: 1,
        errors: [{ row: 1, field: null, message: expect.stringMatching(/^The import stopped on an unexpected error and changed nothing: .*planted failure/) }],
      });
      // Not three leases (15 minutes): at once.
      expect(Date.now() - started).toBeLessThan(10_000);
      await tools.cleanedUp(done.id);
    } finally {
      await sql`drop trigger planted_failure${sql.raw(engine === 'sqlite' ? '' : ' on import_rows')}`.execute(db);
      if (engine === 'postgres') await sql`drop function planted_failure()`.execute(db);
    }
    expect((await tools.imported(tenant, `customer_id,sku,price\n${catalog.tradeCustomer},${catalog.skus.mug},7`)).status).toBe('succeeded');
  });

  it('refuses a NUL character in a cell or header name as a problem of its row, and stores nothing', async () => {
    const { catalog, tenant } = suite;
    const before = await snapshotStore(suite.server.services.database, tenant.storeId);
    const cell = await tools.imported(
      tenant,
      `customer_id,sku,price\n${catalog.tradeCustomer},${catalog.skus.mug}\u0000X,1\n${catalog.tradeCustomer},${catalog.skus.mug},2`,
    );
    expect(cell).toMatchObject({
      status: 'failed',
      errorCount: 1,
      errors: [{ row: 2, field: 'sku', message: 'must not contain the NUL character (\\u0000)' }],
    });
    const email = await tools.imported(tenant, `sku,buyer\u0000@example.com\n${catalog.skus.mug},1`);
    expect(email).toMatchObject({
      status: 'failed',
      errorCount: 1,
      errors: [{ row: 1, field: 'buyer\u0000@example.com', message: 'must not contain the NUL character (\\u0000)' }],
    });
    const price = await tools.imported(tenant, `sku,${catalog.tradeCustomer}\n${catalog.skus.mug},1\u0000`);
    expect(price).toMatchObject({ status: 'failed', errors: [{ row: 2, field: String(catalog.tradeCustomer) }] });
    for (const id of [cell.id, email.id, price.id]) await tools.cleanedUp(id);
    const after = await snapshotStore(suite.server.services.database, tenant.storeId);
    // Only the imports' own rows (and their events) are new.
    expect(beyondImports(after)).toEqual(beyondImports(before));
  });

  it('refuses a body that stops being UTF-8 after its first slices, and keeps nothing of it', async () => {
    const { catalog, tenant } = suite;
    const before = await snapshotStore(suite.server.services.database, tenant.storeId);
    async function* body(): AsyncGenerator<Buffer> {
      yield* csvBody('customer_id,sku,price', () => `${catalog.tradeCustomer},${catalog.skus.mug},1`, { bytes: 3 * MIB });
      yield Buffer.from([0x0a, 0xc3, 0x28]);
    }
    expectError(await tools.upload(tenant, body()), 422, 10, /Validation failed/);
    expect(await snapshotStore(suite.server.services.database, tenant.storeId)).toEqual(before);
  });

  it('refuses a header alone at upload, as an empty file, storing nothing; lines ended by a lone CR are rows', async () => {
    const { catalog, tenant } = suite;
    const before = await snapshotStore(suite.server.services.database, tenant.storeId);
    for (const body of ['customer_id,sku,price', 'customer_id,sku,price\r\n \r\n\n', '\uFEFFsku,12\r']) {
      expectError(await tools.upload(tenant, body), 422, 10, /Validation failed/);
    }
    expect(await snapshotStore(suite.server.services.database, tenant.storeId)).toEqual(before);
    const crOnly = await tools.imported(tenant, `customer_id,sku,price\r${catalog.tradeCustomer},${catalog.skus.mug},1\rx,${catalog.skus.mug},2\r`);
    expect(crOnly).toMatchObject({ status: 'failed', rows: 2, errorCount: 1, errors: [{ row: 3, field: 'customer_id' }] });
    await tools.cleanedUp(crOnly.id);
    expect(beyondImports(await snapshotStore(suite.server.services.database, tenant.storeId))).toEqual(beyondImports(before));
  });
});

describe.each(await enginesUnderTest())('import queue caps on %s', (engine) => {
  // No runner: what is queued stays queued, so the caps can be reached on purpose.
  const suite = suiteServer(engine, {
    tenants: 2,
    importRunner: false,
    metrics: true,
    env: { PRICEBOOK_IMPORT_MAX_QUEUED: '3', PRICEBOOK_IMPORT_MAX_QUEUED_MIB: '50' },
  });
  const tools = importTools(() => suite.server);
  const header = 'customer_id,sku,price';
  const file = (bytes: number) => csvBody(header, (index) => `1,SKU-${index % 1000},${(index % 999) + 1}`, { bytes });

  const scrape = async () => {
    const response = await fetch(`${suite.server.metricsBaseUrl}/metrics`);
    return parsePrometheusText(await response.text()).filter((sample) => sample.name.startsWith('pricebook_import_queue'));
  };

  it('refuses an upload past the queued bytes (announced or arriving) or the queued imports with 429 code 16 and Retry-After, storing nothing; a repeat of a queued one replays', async () => {
    const { tenant, other } = suite;
    const first = await tools.upload(tenant, file(30 * MIB), '', { 'idempotency-key': `big-${engine}` });
    expect(first.status, first.text).toBe(202);
    const before = await snapshotStore(suite.server.services.database, tenant.storeId);

    // 30 MiB queued: 25 MiB more, announced by Content-Length, is refused before it is read.
    const announced = await tools.upload(tenant, file(25 * MIB), '', { 'content-length': String(25 * MIB) });
    expectError(announced, 429, 16, /would exceed 50 MiB/);
    expect(announced.headers['retry-after']).toBe('60');
    // Sent without a length, it is refused when the slice that would pass the cap arrives.
    const arriving = await tools.upload(tenant, file(25 * MIB));
    expectError(arriving, 429, 16, /would exceed 50 MiB/);
    expect(arriving.headers['retry-after']).toBe('60');
    expect(await snapshotStore(suite.server.services.database, tenant.storeId)).toEqual(before);

    // The first upload again, with its key: replayed, not refused.
    const again = await tools.upload(tenant, file(30 * MIB), '', { 'idempotency-key': `big-${engine}` });
    expect(again.status).toBe(202);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect((again.body as Import).id).toBe((first.body as Import).id);

    // Two more small files fit; a fourth import does not.
    for (let index = 0; index < 2; index++) expect((await tools.upload(tenant, `${header}\n1,A,${index + 1}`)).status).toBe(202);
    const full = await snapshotStore(suite.server.services.database, tenant.storeId);
    const fourth = await tools.upload(tenant, `${header}\n1,A,9`);
    expectError(fourth, 429, 16, /already has 3 imports queued or running/);
    expect(fourth.headers['retry-after']).toBe('60');
    expect(await snapshotStore(suite.server.services.database, tenant.storeId)).toEqual(full);
    // Another store's queue is its own.
    expect((await tools.upload(other, `${header}\n1,A,1`)).status).toBe(202);

    // The queue per store in /metrics: only stores with something queued.
    const samples = await scrape();
    const of = (storeId: number) =>
      samples.filter((sample) => sample.labels.store_id === String(storeId)).map((sample) => [sample.name, sample.labels.state ?? null, sample.value]);
    const smallBytes = `${header}\n1,A,1`.length * 2;
    expect(of(tenant.storeId)).toEqual([
      ['pricebook_import_queue_imports', 'queued', 3],
      ['pricebook_import_queue_imports', 'running', 0],
      ['pricebook_import_queue_bytes', null, (await fileBytes(suite.server, (first.body as Import).id)) + smallBytes],
    ]);
    expect(of(other.storeId)).toEqual([
      ['pricebook_import_queue_imports', 'queued', 1],
      ['pricebook_import_queue_imports', 'running', 0],
      ['pricebook_import_queue_bytes', null, smallBytes / 2],
    ]);
    const idle = await suite.server.createTenant();
    expect(of(idle.storeId)).toEqual([]);
  }, 120_000);
});

/** Bytes of an import's stored file. */
async function fileBytes(server: TestServer, importId: number): Promise<number> {
  return Number((await server.services.database.db.selectFrom('imports').select('file_bytes').where('id', '=', importId).executeTakeFirstOrThrow()).file_bytes);
}

describe.each(await enginesUnderTest())('import retention on %s', (engine) => {
  const clock = new OffsetClock();
  const suite = suiteServer(engine, { services: { clock }, tenants: 1 });
  const tools = importTools(() => suite.server);
  let maintenance: MaintenanceLoop | undefined;
  afterAll(() => maintenance?.stop());

  it('keeps an ended import 30 days, then the maintenance loop deletes it; an upload whose process died goes after 10 minutes', async () => {
    const { tenant } = suite;
    const catalog = await createCatalog(suite.server, tenant);
    const done = await tools.imported(tenant, `customer_id,sku,price\n${catalog.tradeCustomer},${catalog.skus.mug},5`);
    expect(done.status).toBe('succeeded');
    // A dry run keeps its changes as long as it is kept.
    const checked = await tools.imported(
      tenant,
      `customer_id,sku,price\n${catalog.tradeCustomer},${catalog.skus.mug},6\n${catalog.tradeCustomer},${catalog.skus.tee},7`,
      '?mode=replace&dryRun=true',
    );
    const keptChanges = async () =>
      Number(
        (
          await suite.server.services.database.db
            .selectFrom('import_changes')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('import_id', '=', checked.id)
            .executeTakeFirstOrThrow()
        ).n,
      );
    expect(await keptChanges()).toBe(2);
    // An upload that never ended (its process died), with a slice stored.
    const { services } = suite.server;
    const abandoned = await services.uow.repos.imports.beginUpload(
      tenant.storeId,
      { mode: 'add', dryRun: false },
      CLI_ORIGIN,
      new Date(clock.now()).toISOString(),
    );
    await services.uow.transaction((repos) => repos.importContents.appendChunk(abandoned, tenant.storeId, 0, Buffer.from('customer_id,sku,price\n')));

    clock.advance(29 * DAY);
    maintenance = buildMaintenanceLoop(services, { error: (details, message) => console.error(message, details) }, { idleIntervalMs: 50 });
    maintenance.start();
    // Its slices go first, then its row, in a later step: wait for both.
    const abandonedRow = () => services.database.db.selectFrom('imports').select('id').where('id', '=', abandoned).executeTakeFirst();
    const deadline = Date.now() + 10_000;
    while (((await tools.stored({ importId: abandoned })).slices > 0 || (await abandonedRow()) !== undefined) && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await tools.stored({ importId: abandoned })).toEqual({ slices: 0, staged: 0 });
    expect(await abandonedRow()).toBeUndefined();
    expect((await suite.api.request('GET', `/v1/imports/${done.id}`, { token: tenant.token })).status).toBe(200);

    clock.advance(2 * DAY);
    const purgeDeadline = Date.now() + 10_000;
    while ((await suite.server.request('GET', `/v1/imports/${done.id}`, { token: tenant.token })).status === 200 && Date.now() < purgeDeadline)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expectError(await suite.api.request('GET', `/v1/imports/${done.id}`, { token: tenant.token }), 404, 5);
    while ((await suite.server.request('GET', `/v1/imports/${checked.id}`, { token: tenant.token })).status === 200 && Date.now() < purgeDeadline)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expectError(await suite.api.request('GET', `/v1/imports/${checked.id}/changes`, { token: tenant.token }), 404, 5);
    expect(await keptChanges()).toBe(0);
    expect((await suite.api.request('GET', '/v1/imports/count', { token: tenant.token })).body).toEqual({ count: 0 });
  });
});

describe.each(await enginesUnderTest())('import claims round-robin over stores on %s', (engine) => {
  // No runner: the test claims and works each import itself, one at a time, as a runner with one slot would.
  const suite = suiteServer(engine, { tenants: 2, importRunner: false });
  const tools = importTools(() => suite.server);

  it('takes the next store’s import before a store that was just served takes its second, whatever the ids', async () => {
    const { tenant: a, other: b } = suite;
    const row = 'customer_id,sku,price\n1,NO-SKU,1';
    const queued: number[] = [];
    // Store A's two imports, then store B's: by id alone, A's second would come before B's.
    for (const tenant of [a, a, b]) {
      const response = await tools.upload(tenant, row, '?dryRun=true');
      expect(response.status, response.text).toBe(202);
      queued.push((response.body as Import).id);
    }
    const { imports } = suite.server.services;
    const order: number[] = [];
    for (let claim = await imports.claimNext(); claim !== undefined; claim = await imports.claimNext()) {
      order.push(claim.id);
      expect(await imports.process(claim, () => false)).toEqual({ ended: true });
    }
    expect(order).toEqual([queued[0], queued[2], queued[1]]);
  });
});

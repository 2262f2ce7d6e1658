import { describe, expect, it } from 'vitest';
import { TIMESTAMP } from '../support/bodies.js';
import { createCatalog, type CatalogFixture } from '../support/catalog-fixture.js';
import { expectError } from '../support/conventions.js';
import { enginesUnderTest } from '../support/engines.js';
import { beyondImports, snapshotStore } from '../support/store-snapshot.js';
import { suiteServer } from '../support/suite-server.js';
import type { HttpResponse } from '../support/test-server.js';
import type { Import } from '../../src/contract/imports.js';
import type { TradePrice } from '../../src/contract/trade-prices.js';

describe.each(await enginesUnderTest())('CSV imports on %s', (engine) => {
  const suite = suiteServer(engine, { catalogs: true });

  const upload = (csv: string | Buffer, query = '', headers: Record<string, string> = {}, token = suite.tenant.token): Promise<HttpResponse> =>
    suite.api.request('POST', `/v1/imports${query}`, { token, rawBody: csv, headers: { 'content-type': 'text/csv', ...headers } });

  /** Polls the import until it ends (at most 30 s). */
  async function finished(id: number, token = suite.tenant.token): Promise<Import> {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const current = (await suite.api.request('GET', `/v1/imports/${id}`, { token })).body as Import;
      if (current.status === 'succeeded' || current.status === 'failed') return current;
      if (Date.now() > deadline) throw new Error(`import ${id} still ${current.status} after 30 s`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  async function imported(csv: string | Buffer, query = ''): Promise<Import> {
    const response = await upload(csv, query);
    expect(response.status, response.text).toBe(202);
    return finished((response.body as Import).id);
  }

  /** What an import left in storage: its file's slices and its staged prices (none, once it ended and was cleaned up). */
  async function leftovers(id: number): Promise<{ slices: number; staged: number; marked: boolean }> {
    const { db } = suite.server.services.database;
    const slices = await db
      .selectFrom('import_file_chunks')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('import_id', '=', id)
      .executeTakeFirstOrThrow();
    const staged = await db
      .selectFrom('import_rows')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('import_id', '=', id)
      .executeTakeFirstOrThrow();
    const row = await db.selectFrom('imports').select('cleanup').where('id', '=', id).executeTakeFirst();
    return { slices: Number(slices.n), staged: Number(staged.n), marked: Number(row?.cleanup ?? 0) === 1 };
  }

  /** Waits (at most 10 s) until the ended import's file and staged prices are deleted. */
  async function cleanedUp(id: number): Promise<void> {
    const deadline = Date.now() + 10_000;
    let left = await leftovers(id);
    while ((left.slices > 0 || left.staged > 0 || left.marked) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      left = await leftovers(id);
    }
    expect(left, `import ${id}: file slices and staged prices deleted once it ended`).toEqual({ slices: 0, staged: 0, marked: false });
  }

  const pricesOf = async (customerId: number) =>
    (await suite.api.request('GET', `/v1/trade-customer-product-prices?customerId=${customerId}&count=100`, { token: suite.tenant.token }))
      .body as TradePrice[];

  /** Customers' e-mail addresses (the fixture's catalogs are made with known ones). */
  const emailOf = async (id: number) =>
    ((await suite.api.request('GET', `/v1/customers/${id}`, { token: suite.tenant.token })).body as { email: string }).email;

  it('answers 202 with a queued import, then adds every row of a long file, each with its event', async () => {
    const catalog = await createCatalog(suite.server, suite.tenant);
    const csv = [
      'customer_id,sku,price,min_quantity,valid_from,valid_until',
      `${catalog.tradeCustomer},${catalog.skus.teeRedM},9.5,,,`,
      `${catalog.tradeCustomer},${catalog.skus.teeRedM},8.25,10,,`,
      `${catalog.otherTradeCustomer},${catalog.skus.mug},0.0001,,2026-12-01T01:00:00+01:00,2027-01-01T00:00:00Z`,
    ].join('\n');
    const response = await upload(csv, '?fileName=prices%202027%20%E2%80%93%20trade.csv');
    expect(response.status).toBe(202);
    expect(response.body).toEqual({
      id: expect.any(Number),
      status: 'queued',
      mode: 'add',
      dryRun: false,
      changeSetId: null,
      fileName: 'prices 2027 – trade.csv',
      createdBy: { type: 'key', id: suite.tenant.keyId, name: expect.any(String) },
      format: null,
      rows: 3,
      processed: 0,
      errors: [],
      errorCount: 0,
      result: null,
      createdAt: expect.stringMatching(TIMESTAMP),
      finishedAt: null,
    });
    const done = await finished((response.body as Import).id);
    expect(done).toMatchObject({
      status: 'succeeded',
      format: 'long',
      rows: 3,
      processed: 3,
      result: { created: 3, deleted: 0, unchanged: 0 },
      finishedAt: expect.stringMatching(TIMESTAMP),
    });
    expect((await pricesOf(catalog.tradeCustomer)).map(({ sku, price, minQuantity }) => [sku, price, minQuantity])).toEqual([
      [catalog.skus.teeRedM, 9.5, 1],
      [catalog.skus.teeRedM, 8.25, 10],
    ]);
    expect(await pricesOf(catalog.otherTradeCustomer)).toEqual([
      expect.objectContaining({ sku: catalog.skus.mug, price: 0.0001, validFrom: '2026-12-01T00:00:00.000Z', validUntil: '2027-01-01T00:00:00.000Z' }),
    ]);
    const events = (await suite.api.request('GET', '/v1/events?count=100', { token: suite.tenant.token })).body as Array<{ topic: string; subjectId: number }>;
    expect(events.filter((event) => event.topic === 'import.succeeded').map((event) => event.subjectId)).toContain(done.id);
  });

  it('replaces with a matrix of customers by id and e-mail: equal prices keep their records, others in the file go, others out of it stay', async () => {
    const catalog = await createCatalog(suite.server, suite.tenant);
    const bystander = await createCatalog(suite.server, suite.tenant);
    const bulk = async (customerId: number, sku: string, productId: number, price: number) =>
      (
        (
          await suite.api.request('POST', '/v1/trade-customer-product-prices/bulk', {
            token: suite.tenant.token,
            body: [{ customerId, productId, sku, price }],
          })
        ).body as TradePrice[]
      )[0]!;
    const kept = await bulk(catalog.tradeCustomer, catalog.skus.tee, catalog.tee, 10);
    const dropped = await bulk(catalog.tradeCustomer, catalog.skus.mug, catalog.mug, 4);
    const untouched = await bulk(bystander.tradeCustomer, bystander.skus.mug, bystander.mug, 1);
    const email = await emailOf(catalog.otherTradeCustomer);
    // A BOM, CRLF line ends and a quoted SKU: a spreadsheet's export.
    const csv = `\uFEFFsku,${catalog.tradeCustomer},"${email}"\r\n${catalog.skus.tee},10,11\r\n"${catalog.skus.teeRedM}",,12.5\r\n`;

    const dry = await imported(csv, '?mode=replace&dryRun=true');
    expect(dry).toMatchObject({ status: 'succeeded', format: 'matrix', rows: 2, dryRun: true, result: { created: 2, deleted: 1, unchanged: 1 } });
    expect((await pricesOf(catalog.tradeCustomer)).map((record) => record.id)).toEqual([kept.id, dropped.id]);

    const real = await imported(csv, '?mode=replace');
    expect(real.result).toEqual({ created: 2, deleted: 1, unchanged: 1 });
    expect((await pricesOf(catalog.tradeCustomer)).map((record) => [record.id, record.sku, record.price])).toEqual([[kept.id, catalog.skus.tee, 10]]);
    expect((await pricesOf(catalog.otherTradeCustomer)).map((record) => [record.sku, record.price])).toEqual([
      [catalog.skus.tee, 11],
      [catalog.skus.teeRedM, 12.5],
    ]);
    expect(await pricesOf(bystander.tradeCustomer)).toEqual([expect.objectContaining({ id: untouched.id })]);
  });

  /** A file of `catalog`'s with a problem on one row, among good rows. */
  const broken = (catalog: CatalogFixture): Array<[string, string, Array<[number, string | null]>]> => [
    [
      'a header of neither format',
      'customer,sku,price\n1,A,1',
      [
        [1, 'customer'],
        [1, 'customer_id'],
      ],
    ],
    ['an unknown SKU', `customer_id,sku,price\n${catalog.tradeCustomer},${catalog.skus.mug},1\n${catalog.tradeCustomer},NOPE-1,2`, [[3, 'sku']]],
    ['a decimal comma', `customer_id,sku,price\n${catalog.tradeCustomer},${catalog.skus.mug},"1,5"`, [[2, 'price']]],
    ['five decimals', `sku,${catalog.tradeCustomer}\n${catalog.skus.mug},1.23456`, [[2, `${catalog.tradeCustomer}`]]],
    ['a regular customer', `customer_id,sku,price\n${catalog.regularCustomer},${catalog.skus.mug},1`, [[2, 'customer_id']]],
    ['an unknown customer column', `sku,${catalog.tradeCustomer},nobody@example.com\n${catalog.skus.mug},1,2`, [[2, 'nobody@example.com']]],
    ['a short row', `customer_id,sku,price\n${catalog.tradeCustomer},${catalog.skus.mug}`, [[2, null]]],
    ['an unclosed quote', `customer_id,sku,price\n${catalog.tradeCustomer},"${catalog.skus.mug},1\n`, [[2, null]]],
    [
      'two broken quotes and a bad price, all found',
      `customer_id,sku,price\n${catalog.tradeCustomer},"${catalog.skus.mug}"x,1\n${catalog.tradeCustomer},${catalog.skus.mug},x\n${catalog.tradeCustomer},MU"G,2\n${catalog.tradeCustomer},${catalog.skus.mug},3`,
      [
        [2, null],
        [3, 'price'],
        [4, null],
      ],
    ],
  ];

  it('fails a file with any problem, naming row and column, and changes nothing', async () => {
    const catalog = await createCatalog(suite.server, suite.tenant);
    for (const [name, csv, expected] of broken(catalog)) {
      const before = await snapshotStore(suite.server.services.database, suite.tenant.storeId);
      const done = await imported(csv);
      expect(done.status, name).toBe('failed');
      expect(
        done.errors.map((error) => [error.row, error.field]),
        `${name}: ${JSON.stringify(done.errors)}`,
      ).toEqual(expected);
      expect(done.errorCount).toBe(expected.length);
      await cleanedUp(done.id);
      const after = await snapshotStore(suite.server.services.database, suite.tenant.storeId);
      // Only the import's own row (and its event) are new.
      expect(beyondImports(after), name).toEqual(beyondImports(before));
    }
  });

  it('lists every problem of a long file, up to 1000, and counts them all', async () => {
    const catalog = await createCatalog(suite.server, suite.tenant);
    // Every row has an unknown SKU; every third a price that is no decimal too (reported instead).
    const rows = Array.from({ length: 3000 }, (_, i) => `${catalog.tradeCustomer},NOPE,${i % 3 === 2 ? 'x' : '1'}`);
    const done = await imported(['customer_id,sku,price', ...rows].join('\n'));
    expect(done.status).toBe('failed');
    expect(done.errors).toHaveLength(1000);
    expect(done.errorCount).toBe(3000);
    expect(done.errors.filter((error) => error.field === 'price')).toHaveLength(333);
    expect(done.errors[0]).toEqual({ row: 2, field: 'sku', message: "SKU 'NOPE' does not exist in this store" });
  });

  it.each([
    ['a JSON body', '{}', { 'content-type': 'application/json' }, 415, 7],
    ['no content type', 'a,b', { 'content-type': '' }, 415, 7],
    ['another charset', 'a,b', { 'content-type': 'text/csv; charset=latin1' }, 415, 7],
    ['an empty file', '', {}, 422, 10],
    ['a header alone', '\uFEFFcustomer_id,sku,price\r\n\r\n', {}, 422, 10],
    ['bytes that are not UTF-8', Buffer.from([0x73, 0x6b, 0x75, 0x0a, 0xc3, 0x28]), {}, 422, 10],
  ])('refuses %s at once', async (_name, body, headers, status, code) => {
    const response = await upload(body, '', headers);
    expectError(response, status, code);
  });

  it('refuses a bad mode or dryRun with 400, and a body over 50 MiB with 413', async () => {
    expectError(await upload('customer_id,sku,price\n', '?mode=merge'), 400, 9);
    expectError(await upload('customer_id,sku,price\n', '?dryRun=yes'), 400, 9);
    // A file name: 1–255 characters, none of them control characters; nothing is kept when refused.
    const before = (await suite.api.request('GET', '/v1/imports/count', { token: suite.tenant.token })).body;
    expectError(await upload('customer_id,sku,price\n', '?fileName='), 400, 9, /fileName/);
    expectError(await upload('customer_id,sku,price\n', `?fileName=${'a'.repeat(256)}`), 400, 9, /fileName/);
    expectError(await upload('customer_id,sku,price\n', '?fileName=a%0Ab.csv'), 400, 9, /fileName/);
    expect((await suite.api.request('GET', '/v1/imports/count', { token: suite.tenant.token })).body).toEqual(before);
    const huge = Buffer.alloc(50 * 2 ** 20 + 1, 0x61);
    expectError(await upload(huge), 413, 12);
  });

  it('keeps imports to their store and scopes, and replays an Idempotency-Key', async () => {
    const catalog = await createCatalog(suite.server, suite.tenant);
    const csv = `customer_id,sku,price\n${catalog.tradeCustomer},${catalog.skus.mug},2`;
    const first = await upload(csv, '', { 'idempotency-key': `import-${engine}` });
    const again = await upload(csv, '', { 'idempotency-key': `import-${engine}` });
    expect(again.status).toBe(202);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect((again.body as Import).id).toBe((first.body as Import).id);
    expectError(await upload(csv, '?mode=replace', { 'idempotency-key': `import-${engine}` }), 422, 13);
    await finished((first.body as Import).id);
    expect(await pricesOf(catalog.tradeCustomer)).toHaveLength(1);

    expectError(await suite.api.request('GET', `/v1/imports/${(first.body as Import).id}`, { token: suite.other.token }), 404, 5);
    const theirs = (await suite.api.request('GET', '/v1/imports', { token: suite.other.token })).body as Import[];
    expect(theirs.map((item) => item.id)).not.toContain((first.body as Import).id);
    // Another store's customers and SKUs are unknown to this store's file.
    const foreign = await imported(`customer_id,sku,price\n${suite.foreign.tradeCustomer},${suite.foreign.skus.mug},1`);
    expect(foreign.errors.map((error) => error.field)).toEqual(['customer_id', 'sku']);

    const reader = await suite.server.services.credentials.issueKey(suite.tenant.storeId, ['trade_prices:read']);
    expectError(await upload(csv, '', {}, reader.token), 403, 4);
    expect((await suite.api.request('GET', '/v1/imports/count', { token: reader.token })).status).toBe(200);
  });
});

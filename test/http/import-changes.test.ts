import { describe, expect, it } from 'vitest';
import type { Import, ImportChanges } from '../../src/contract/imports.js';
import { createCatalog } from '../support/catalog-fixture.js';
import { expectError } from '../support/conventions.js';
import { enginesUnderTest } from '../support/engines.js';
import { beyondImports, snapshotStore } from '../support/store-snapshot.js';
import { suiteServer } from '../support/suite-server.js';
import type { HttpResponse, Tenant } from '../support/test-server.js';

/**
 * `GET /v1/imports/{id}/changes`: which prices a dry run would create, delete or change (old →
 * new), paged, as it found them; only a dry run's, only its store's, and the book untouched.
 */
describe.each(await enginesUnderTest())('a dry run’s changes on %s', (engine) => {
  const suite = suiteServer(engine, { catalogs: true, tenants: 2 });

  const upload = (csv: string, query: string, tenant: Tenant = suite.tenant): Promise<HttpResponse> =>
    suite.api.request('POST', `/v1/imports${query}`, { token: tenant.token, rawBody: csv, headers: { 'content-type': 'text/csv' } });
  const changes = (id: number, query = '', token = suite.tenant.token) => suite.api.request('GET', `/v1/imports/${id}/changes${query}`, { token });

  /** Uploads the file and polls the import until it ends (at most 30 s). */
  async function imported(csv: string, query: string): Promise<Import> {
    const response = await upload(csv, query);
    expect(response.status, response.text).toBe(202);
    const { id } = response.body as Import;
    const deadline = Date.now() + 30_000;
    for (;;) {
      const current = (await suite.api.request('GET', `/v1/imports/${id}`, { token: suite.tenant.token })).body as Import;
      if (current.status === 'succeeded' || current.status === 'failed') return current;
      if (Date.now() > deadline) throw new Error(`import ${id} still ${current.status} after 30 s`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  const price = async (customerId: number, productId: number, sku: string, value: number, minQuantity = 1) => {
    const response = await suite.api.request('POST', '/v1/trade-customer-product-prices/bulk', {
      token: suite.tenant.token,
      body: [{ customerId, productId, sku, price: value, minQuantity }],
    });
    expect(response.status, response.text).toBe(201);
    return (response.body as Array<{ id: number }>)[0]!.id;
  };

  it('lists a replace dry run’s prices by customer and SKU: a new price created, a record the file drops deleted, one it reprices changed (old → new)', async () => {
    const catalog = await createCatalog(suite.server, suite.tenant);
    const { skus } = catalog;
    await price(catalog.tradeCustomer, catalog.tee, skus.tee, 10);
    const mug = await price(catalog.tradeCustomer, catalog.mug, skus.mug, 4);
    const redM = await price(catalog.tradeCustomer, catalog.tee, skus.teeRedM, 7);
    // A SKU the file does not name at all.
    const redL = await price(catalog.tradeCustomer, catalog.tee, skus.teeRedL, 9, 5);
    const before = await snapshotStore(suite.server.services.database, suite.tenant.storeId);
    const csv = [
      'customer_id,sku,price,min_quantity',
      `${catalog.tradeCustomer},${skus.tee},10,`,
      `${catalog.tradeCustomer},${skus.mug},5.5,`,
      `${catalog.tradeCustomer},${skus.teeRedM},6,10`,
      `${catalog.otherTradeCustomer},${skus.mug},3.25,`,
    ].join('\n');
    const run = await imported(csv, '?mode=replace&dryRun=true');
    expect(run).toMatchObject({ status: 'succeeded', result: { created: 3, deleted: 3, unchanged: 1 } });
    const answer = await changes(run.id);
    expect(answer.status, answer.text).toBe(200);
    const slot = { validFrom: null, validUntil: null };
    expect(answer.body).toEqual({
      importId: run.id,
      counts: { created: 2, changed: 1, deleted: 2 },
      complete: true,
      total: 5,
      rows: [
        { kind: 'changed', customerId: catalog.tradeCustomer, sku: skus.mug, minQuantity: 1, ...slot, before: 4, after: 5.5, tradePriceId: mug },
        { kind: 'deleted', customerId: catalog.tradeCustomer, sku: skus.teeRedL, minQuantity: 5, ...slot, before: 9, after: null, tradePriceId: redL },
        { kind: 'deleted', customerId: catalog.tradeCustomer, sku: skus.teeRedM, minQuantity: 1, ...slot, before: 7, after: null, tradePriceId: redM },
        { kind: 'created', customerId: catalog.tradeCustomer, sku: skus.teeRedM, minQuantity: 10, ...slot, before: null, after: 6, tradePriceId: null },
        { kind: 'created', customerId: catalog.otherTradeCustomer, sku: skus.mug, minQuantity: 1, ...slot, before: null, after: 3.25, tradePriceId: null },
      ],
    });
    // Paged as any list; the book is as it was.
    expect(((await changes(run.id, '?count=2&offset=2')).body as ImportChanges).rows.map((row) => [row.kind, row.sku])).toEqual([
      ['deleted', skus.teeRedM],
      ['created', skus.teeRedM],
    ]);
    expect((await changes(run.id, '?offset=5')).body as ImportChanges).toMatchObject({ total: 5, rows: [] });
    // Only the import, its event and its changes are new.
    const after = await snapshotStore(suite.server.services.database, suite.tenant.storeId);
    expect(beyondImports(after)).toEqual(beyondImports(before));
    expect(after.import_changes).toHaveLength(5);
  });

  it('lists an add dry run’s rows as created, in the order of the file; a replace that changes nothing lists nothing', async () => {
    const catalog = await createCatalog(suite.server, suite.tenant);
    const { skus } = catalog;
    const csv = [
      'customer_id,sku,price,valid_from,valid_until',
      `${catalog.tradeCustomer},${skus.mug},2,2027-01-01T00:00:00Z,`,
      `${catalog.tradeCustomer},${skus.tee},1,,2027-06-01T00:00:00+02:00`,
    ].join('\n');
    const run = await imported(csv, '?dryRun=true');
    expect((await changes(run.id)).body).toEqual({
      importId: run.id,
      counts: { created: 2, changed: 0, deleted: 0 },
      complete: true,
      total: 2,
      rows: [
        {
          kind: 'created',
          customerId: catalog.tradeCustomer,
          sku: skus.mug,
          minQuantity: 1,
          validFrom: '2027-01-01T00:00:00.000Z',
          validUntil: null,
          before: null,
          after: 2,
          tradePriceId: null,
        },
        {
          kind: 'created',
          customerId: catalog.tradeCustomer,
          sku: skus.tee,
          minQuantity: 1,
          validFrom: null,
          validUntil: '2027-05-31T22:00:00.000Z',
          before: null,
          after: 1,
          tradePriceId: null,
        },
      ],
    });
    expect((await imported(csv, '')).status).toBe('succeeded');
    const again = await imported(csv, '?mode=replace&dryRun=true');
    expect(again.result).toEqual({ created: 0, deleted: 0, unchanged: 2 });
    expect((await changes(again.id)).body).toEqual({ importId: again.id, counts: { created: 0, changed: 0, deleted: 0 }, complete: true, total: 0, rows: [] });
  });

  it('keeps the first 10 000 changes of a larger dry run and says it is not complete', async () => {
    const catalog = await createCatalog(suite.server, suite.tenant);
    const rows = Array.from({ length: 10_003 }, (_, index) => `${catalog.tradeCustomer},${catalog.skus.mug},${(index + 1) / 100}`);
    const run = await imported(['customer_id,sku,price', ...rows].join('\n'), '?dryRun=true');
    expect(run.result).toEqual({ created: 10_003, deleted: 0, unchanged: 0 });
    const first = (await changes(run.id, '?count=1')).body as ImportChanges;
    expect(first).toMatchObject({ counts: { created: 10_000, changed: 0, deleted: 0 }, complete: false, total: 10_000 });
    expect(first.rows.map((row) => row.after)).toEqual([0.01]);
    expect(((await changes(run.id, '?offset=9999')).body as ImportChanges).rows.map((row) => row.after)).toEqual([100]);
  });

  /** The changes an import keeps in storage. */
  const kept = async (importId: number) =>
    Number(
      (
        await suite.server.services.database.db
          .selectFrom('import_changes')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('import_id', '=', importId)
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('keeps nothing of a dry run that failed, even when its problem is on its last row', async () => {
    const catalog = await createCatalog(suite.server, suite.tenant);
    // 2 500 good rows (three batches of them, their changes kept as they are counted), then one unknown SKU.
    const rows = Array.from({ length: 2500 }, (_, index) => `${catalog.tradeCustomer},${catalog.skus.mug},${index + 1}`);
    const run = await imported(['customer_id,sku,price', ...rows, `${catalog.tradeCustomer},NO-SUCH-SKU,1`].join('\n'), '?dryRun=true');
    expect(run).toMatchObject({ status: 'failed', errorCount: 1 });
    const deadline = Date.now() + 10_000;
    while ((await kept(run.id)) > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await kept(run.id)).toBe(0);
    expectError(await changes(run.id), 409, 17, /failed/);
  });

  it('keeps the changes of a store’s 20 newest dry runs: an older one’s are dropped, and asking for them says so', async () => {
    const catalog = await createCatalog(suite.server, suite.other);
    const csv = `customer_id,sku,price\n${catalog.tradeCustomer},${catalog.skus.mug},5`;
    const ids: number[] = [];
    for (let index = 0; index < 21; index++) {
      const response = await upload(csv, '?dryRun=true', suite.other);
      expect(response.status, response.text).toBe(202);
      const { id } = response.body as Import;
      ids.push(id);
      // One at a time: the store's queue holds 4.
      for (let polls = 0; polls < 600; polls++) {
        const current = (await suite.api.request('GET', `/v1/imports/${id}`, { token: suite.other.token })).body as Import;
        if (current.status === 'succeeded') break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }
    expect(await kept(ids[0]!)).toBe(0);
    expectError(await changes(ids[0]!, '', suite.other.token), 409, 17, /no longer kept: a store's 20 newest dry runs keep theirs/);
    for (const id of ids.slice(1)) expect(((await changes(id, '', suite.other.token)).body as ImportChanges).total, `import ${id}`).toBe(1);
    // Another store's dry runs are not counted against it.
    const mine = await imported(`customer_id,sku,price\n${(await createCatalog(suite.server, suite.tenant)).tradeCustomer},NO-SKU,1`, '?dryRun=true');
    expect(mine.status).toBe('failed');
    expect(((await changes(ids[1]!, '', suite.other.token)).body as ImportChanges).total).toBe(1);
  });

  it('answers 409 (code 17) for a real run and a failed dry run, 404 for another store’s import, 403 without trade_prices:read, 400 for a bad page', async () => {
    const catalog = await createCatalog(suite.server, suite.tenant);
    const real = await imported(`customer_id,sku,price\n${catalog.tradeCustomer},${catalog.skus.mug},5`, '');
    expectError(await changes(real.id), 409, 17, /not a dry run.*price history/);
    const failed = await imported(`customer_id,sku,price\n${catalog.tradeCustomer},NO-SUCH-SKU,5`, '?dryRun=true');
    expect(failed.status).toBe('failed');
    expectError(await changes(failed.id), 409, 17, /failed/);
    const checked = await imported(`customer_id,sku,price\n${catalog.tradeCustomer},${catalog.skus.mug},6`, '?dryRun=true');
    expect((await changes(checked.id)).status).toBe(200);
    expectError(await changes(checked.id, '', suite.other.token), 404, 5);
    expectError(await changes(checked.id + 1000), 404, 5);
    const narrow = await suite.server.services.credentials.issueKey(suite.tenant.storeId, ['catalog:read']);
    expectError(await changes(checked.id, '', narrow.token), 403, 4, /trade_prices:read/);
    expectError(await changes(checked.id, '?count=101'), 400, 9, /count/);
    expectError(await changes(checked.id, '?sort=sku'), 400, 9);
  });
});

import { describe, expect, it } from 'vitest';
import { MAX_LIST_REPLACE_ITEMS, type PriceListPrice, type ReplacePriceListPricesResult } from '../../src/contract/price-lists.js';
import { priceListCsv } from '../../src/csv/price-list-csv.js';
import type { ProblemBody } from '../support/bodies.js';
import { createCatalog } from '../support/catalog-fixture.js';
import { expectError } from '../support/conventions.js';
import { enginesUnderTest } from '../support/engines.js';
import { snapshotStore } from '../support/store-snapshot.js';
import { suiteServer } from '../support/suite-server.js';

let sequence = 0;

/**
 * `POST /v1/price-lists/{id}/prices/import` (docs/pricing.md, "Importing a list's entries"): a
 * replace of a list's entries from a CSV file, dry or not, its problems at the file's rows and
 * columns, from outside.
 */
describe.each(await enginesUnderTest())('price list import on %s', (engine) => {
  const suite = suiteServer(engine, { tenants: 2 });
  const call = (method: string, path: string, body?: unknown, token = suite.tenant.token) => suite.api.request(method, path, { token, body });
  const upload = (listId: number, csv: string, query = '', token = suite.tenant.token, headers: Record<string, string> = {}) =>
    suite.api.request('POST', `/v1/price-lists/${listId}/prices/import${query}`, { token, rawBody: csv, headers: { 'content-type': 'text/csv', ...headers } });
  async function ok<T>(response: { status: number; text: string; body: unknown }, status = 200): Promise<T> {
    expect(response.status, response.text.slice(0, 400)).toBe(status);
    return response.body as T;
  }
  const snapshot = () => snapshotStore(suite.server.services.database, suite.tenant.storeId);
  const problemsOf = (body: unknown) =>
    (body as ProblemBody).errors.map(({ index, field, message }) => ({ ...(index !== undefined && { index }), field, message }));
  const fixedList = async () =>
    (await ok<{ id: number }>(await call('POST', '/v1/price-lists', { name: `Imported ${engine} ${++sequence}`, kind: 'fixed' }), 201)).id;
  const entriesOf = async (listId: number) => ok<PriceListPrice[]>(await call('GET', `/v1/price-lists/${listId}/prices?count=100`));

  it('replaces the entries of the SKUs in the file (scope skus, the default), and a second upload changes nothing', async () => {
    const catalog = await createCatalog(suite.server, suite.tenant, `imp-${engine}-${++sequence}`);
    const listId = await fixedList();
    await ok(
      await call('POST', `/v1/price-lists/${listId}/prices/bulk`, [
        { productId: catalog.tee, sku: catalog.skus.teeRedM, price: 9 },
        { productId: catalog.mug, sku: catalog.skus.mug, price: 4 },
      ]),
      201,
    );
    const csv = [
      'sku,price,min_quantity,valid_from,valid_until,quantity_minimum,quantity_maximum,quantity_increment',
      `${catalog.skus.teeRedM},8.5,1,,,,,`,
      `${catalog.skus.teeRedM},7.25,12,2027-01-01T00:00:00+01:00,,24,,12`,
      '',
    ].join('\r\n');

    const before = await snapshot();
    const planned = await ok<ReplacePriceListPricesResult>(await upload(listId, csv, '?dryRun=true'));
    expect(
      planned.created.map(({ id, sku, price, minQuantity, validFrom, quantityRule }) => ({ id, sku, price, minQuantity, validFrom, quantityRule })),
    ).toEqual([
      { id: null, sku: catalog.skus.teeRedM, price: 8.5, minQuantity: 1, validFrom: null, quantityRule: null },
      {
        id: null,
        sku: catalog.skus.teeRedM,
        price: 7.25,
        minQuantity: 12,
        validFrom: '2026-12-31T23:00:00.000Z',
        quantityRule: { minimum: 24, maximum: null, increment: 12 },
      },
    ]);
    expect(planned.deleted.map((entry) => [entry.sku, entry.price])).toEqual([[catalog.skus.teeRedM, 9]]);
    expect(await snapshot()).toEqual(before);

    const done = await ok<ReplacePriceListPricesResult>(await upload(listId, csv));
    expect(done.created.map((entry) => entry.price)).toEqual([8.5, 7.25]);
    expect(done.created.every((entry) => typeof entry.id === 'number')).toBe(true);
    // The mug was not in the file: it stays.
    expect((await entriesOf(listId)).map((entry) => [entry.sku, entry.price]).sort()).toEqual(
      [
        [catalog.skus.mug, 4],
        [catalog.skus.teeRedM, 7.25],
        [catalog.skus.teeRedM, 8.5],
      ].sort(),
    );
    expect(await ok<ReplacePriceListPricesResult>(await upload(listId, csv))).toEqual({ created: [], deleted: [], unchanged: 2, overlaps: [] });
  });

  it('takes back the list’s own download with nothing changed; scope list makes the list exactly the file', async () => {
    const catalog = await createCatalog(suite.server, suite.tenant, `imp-${engine}-${++sequence}`);
    const listId = await fixedList();
    await ok(
      await call('POST', `/v1/price-lists/${listId}/prices/bulk`, [
        {
          productId: catalog.tee,
          sku: catalog.skus.teeRedM,
          price: 9,
          minQuantity: 6,
          validUntil: '2027-06-01T00:00:00Z',
          quantityRule: { minimum: 6, maximum: 60, increment: 6 },
        },
        { productId: catalog.mug, sku: catalog.skus.mug, price: 0.1234 },
      ]),
      201,
    );
    const download = priceListCsv(await entriesOf(listId));
    expect(await ok<ReplacePriceListPricesResult>(await upload(listId, download, '?scope=list'))).toEqual({
      created: [],
      deleted: [],
      unchanged: 2,
      overlaps: [],
    });

    const onlyMug = await ok<ReplacePriceListPricesResult>(await upload(listId, `sku,price\n${catalog.skus.mug},3\n`, '?scope=list'));
    expect(onlyMug.deleted.map((entry) => entry.sku).sort()).toEqual([catalog.skus.mug, catalog.skus.teeRedM].sort());
    expect((await entriesOf(listId)).map((entry) => [entry.sku, entry.price])).toEqual([[catalog.skus.mug, 3]]);
  });

  it('refuses a file with problems, naming each data row and column, and changes nothing', async () => {
    const catalog = await createCatalog(suite.server, suite.tenant, `imp-${engine}-${++sequence}`);
    const listId = await fixedList();
    const before = await snapshot();
    const csv = [
      'sku,price,min_quantity,valid_from,valid_until,quantity_increment,quantity_minimum',
      `${catalog.skus.mug},1.23456,1,,,,`,
      `NO-SUCH-SKU,1,1,,,,`,
      `${catalog.skus.mug},1,0,,,,`,
      `${catalog.skus.mug},1,1,2027-01-01T00:00:00Z,2026-01-01T00:00:00Z,,`,
      `${catalog.skus.mug},1,1,,,12,5`,
      `${catalog.skus.mug},1,1`,
    ].join('\n');
    const refused = await upload(listId, csv);
    expectError(refused, 422, 10);
    expect(problemsOf(refused.body)).toEqual([
      { index: 0, field: 'price', message: expect.stringMatching(/^must be a price/) },
      { index: 1, field: 'sku', message: "SKU 'NO-SUCH-SKU' does not exist in this store" },
      { index: 2, field: 'min_quantity', message: expect.stringMatching(/^must be a whole number/) },
      { index: 3, field: 'valid_until', message: 'must be after valid_from (2027-01-01T00:00:00.000Z)' },
      { index: 5, field: null, message: 'has 3 fields; the header has 7' },
    ]);
    // Rows the file reads well are then checked as a replace's prices, at their columns.
    const ruled = await upload(listId, ['sku,price,quantity_increment,quantity_minimum', `${catalog.skus.mug},1,12,5`].join('\n'));
    expectError(ruled, 422, 10);
    expect(problemsOf(ruled.body)).toEqual([{ index: 0, field: 'quantity_minimum', message: 'must be a multiple of the increment (12)' }]);

    for (const [header, problem] of [
      ['sku,price,cost', { field: 'cost', message: expect.stringMatching(/^is not a column of a list's file/) }],
      ['price,min_quantity', { field: 'sku', message: 'is a required column of the header' }],
      ['sku,price,SKU', { field: 'SKU', message: 'is named twice in the header' }],
    ] as const) {
      const response = await upload(listId, `${header}\n`);
      expectError(response, 422, 10);
      expect(problemsOf(response.body)).toEqual([problem]);
    }
    expectError(await upload(listId, ''), 422, 10);
    expect(problemsOf((await upload(listId, 'sku,price\n"unclosed,1\n')).body)).toEqual([
      { field: null, message: expect.stringMatching(/^is not CSV the import reads/) },
    ]);
    expect(await snapshot()).toEqual(before);
  });

  it(`refuses more than ${MAX_LIST_REPLACE_ITEMS} rows, a body over 2 MiB, JSON, a bad scope, a percentage list and another store's list`, async () => {
    const catalog = await createCatalog(suite.server, suite.tenant, `imp-${engine}-${++sequence}`);
    const listId = await fixedList();
    const percentage = (
      await ok<{ id: number }>(await call('POST', '/v1/price-lists', { name: `Pct ${engine} ${++sequence}`, kind: 'percentage', percentage: 10 }), 201)
    ).id;
    const before = await snapshot();
    const rows = Array.from({ length: MAX_LIST_REPLACE_ITEMS + 1 }, (_, index) => `${catalog.skus.mug},1,${index + 1}`);
    const many = await upload(listId, ['sku,price,min_quantity', ...rows].join('\n'));
    expectError(many, 422, 10);
    expect(problemsOf(many.body)).toEqual([
      {
        field: null,
        message: `has ${MAX_LIST_REPLACE_ITEMS + 1} rows of entries; an import into a list takes at most ${MAX_LIST_REPLACE_ITEMS}: import fewer SKUs at a time (scope skus)`,
      },
    ]);
    expectError(await upload(listId, `sku,price\n${'x'.repeat(2 * 2 ** 20)},1\n`), 413, 12);
    expectError(await suite.api.request('POST', `/v1/price-lists/${listId}/prices/import`, { token: suite.tenant.token, body: { prices: [] } }), 415, 7);
    expectError(await upload(listId, 'sku,price\n', '?scope=all'), 400, 9);
    expectError(await upload(percentage, `sku,price\n${catalog.skus.mug},1\n`), 422, 10);
    expectError(await upload(listId, `sku,price\n${catalog.skus.mug},1\n`, '', suite.other.token), 404, 5);
    expect(await snapshot()).toEqual(before);
  });

  it('replays its first answer under an Idempotency-Key, and refuses the key with another file', async () => {
    const catalog = await createCatalog(suite.server, suite.tenant, `imp-${engine}-${++sequence}`);
    const listId = await fixedList();
    const key = { 'idempotency-key': `list-import-${engine}-${++sequence}` };
    const first = await ok<ReplacePriceListPricesResult>(await upload(listId, `sku,price\n${catalog.skus.mug},2\n`, '', suite.tenant.token, key));
    const again = await upload(listId, `sku,price\n${catalog.skus.mug},2\n`, '', suite.tenant.token, key);
    expect(await ok<ReplacePriceListPricesResult>(again)).toEqual(first);
    expect(await entriesOf(listId)).toHaveLength(1);
    expectError(await upload(listId, `sku,price\n${catalog.skus.mug},3\n`, '', suite.tenant.token, key), 422, 13);
  });
});

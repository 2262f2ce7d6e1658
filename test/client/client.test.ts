import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATIONS, type OperationName, Pricebook, PricebookError, type TradePriceInput } from '../../packages/client/src/index.js';
import { TIMESTAMP } from '../support/bodies.js';
import { enginesUnderTest } from '../support/engines.js';
import { suiteServer } from '../support/suite-server.js';
import { startReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const run = promisify(execFile);

describe.each(await enginesUnderTest())('the typed client on %s', (engine) => {
  const suite = suiteServer(engine, { env: { PRICEBOOK_WEBHOOK_ALLOW_PRIVATE: '1' }, tenants: 1 });
  let client: Pricebook;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    client = new Pricebook({ baseUrl: suite.server.baseUrl, token: suite.tenant.token, ca: suite.server.ca });
    receiver = await startReceiver();
  });
  afterAll(async () => {
    client.close();
    await receiver.close();
  });

  /** A trade customer and a product with two variations, made through the client. */
  async function catalog(name: string) {
    const customer = await client.customers.create({ email: `${name}@example.com`, trade: true });
    const product = await client.products.create({
      title: name,
      sku: `${name}-P`,
      price: 10,
      variations: [{ sku: `${name}-A`, price: 11 }, { sku: `${name}-B` }],
    });
    return { customer, product, skus: [`${name}-P`, `${name}-A`, `${name}-B`] };
  }

  it('creates, reads, updates, lists, counts and deletes the catalog', async () => {
    const customer = await client.customers.create({ email: 'crud@example.com', firstName: 'Ada' }, { idempotencyKey: 'crud-customer' });
    expect(customer).toEqual({
      id: expect.any(Number),
      email: 'crud@example.com',
      firstName: 'Ada',
      lastName: null,
      companyName: null,
      trade: false,
      active: true,
      priceListIds: [],
      customerGroupId: null,
      createdAt: expect.stringMatching(TIMESTAMP),
    });
    // The same key and body replays the first answer: still one customer.
    expect(await client.customers.create({ email: 'crud@example.com', firstName: 'Ada' }, { idempotencyKey: 'crud-customer' })).toEqual(customer);
    expect(await client.customers.count({ email: 'crud@example.com' })).toBe(1);
    expect(await client.customers.update(customer.id, { trade: true })).toMatchObject({ id: customer.id, trade: true });
    expect(await client.customers.get(customer.id, { fields: 'id,trade' })).toEqual({ id: customer.id, trade: true });
    expect(await client.customers.list({ email: 'CRUD@example.com' })).toEqual([{ ...customer, trade: true }]);

    const category = await client.categories.create({ title: 'Shirts' });
    const child = await client.categories.create({ title: 'Tees', parentId: category.id });
    expect(await client.categories.get(child.id, { embed: 'parents' })).toMatchObject({ parents: [{ id: category.id, title: 'Shirts' }] });
    expect(await client.categories.update(child.id, { title: 'T-shirts' })).toMatchObject({ title: 'T-shirts' });
    expect(await client.categories.count()).toBe(2);

    const product = await client.products.create({ title: 'Tee', sku: 'CRUD-TEE', price: 10, categoryIds: [child.id] });
    const variation = await client.variations.create(product.id, { sku: 'CRUD-TEE-M', price: 12.5 });
    expect(variation).toEqual({
      id: expect.any(Number),
      productId: product.id,
      sku: 'CRUD-TEE-M',
      price: 12.5,
      stock: null,
      quantityRule: null,
      createdAt: expect.stringMatching(TIMESTAMP),
    });
    expect(await client.variations.update(product.id, variation.id, { stock: 3 })).toMatchObject({ stock: 3 });
    expect(await client.variations.get(product.id, variation.id)).toMatchObject({ sku: 'CRUD-TEE-M', stock: 3 });
    expect(await client.variations.list(product.id)).toHaveLength(1);
    expect(await client.variations.count(product.id)).toBe(1);
    expect(await client.products.list({ sku: 'CRUD-TEE-M' })).toEqual([expect.objectContaining({ id: product.id, categoryIds: [child.id] })]);
    expect(await client.products.update(product.id, { price: 9.5 })).toMatchObject({ price: 9.5 });
    expect(await client.products.count({ categoryId: child.id })).toBe(1);

    await client.variations.delete(product.id, variation.id);
    await client.products.delete(product.id);
    await client.categories.delete(child.id);
    await client.categories.delete(category.id);
    await client.customers.delete(customer.id);
    await expect(client.products.get(product.id)).rejects.toMatchObject({ status: 404, code: 5 });
    expect(await client.customers.count({ email: 'crud@example.com' })).toBe(0);
  });

  it('iterates over every page of a list, 100 records a request', async () => {
    const { customer, product, skus } = await catalog('pages');
    const items = Array.from({ length: 250 }, (_, index) => ({ customerId: customer.id, productId: product.id, sku: skus[index % 3]!, price: index }));
    const created = await client.tradePrices.bulkCreate(items);
    const before = client.counters.requests;
    const seen: number[] = [];
    for await (const price of client.tradePrices.iterate({ customerId: customer.id, fields: 'id,price' })) seen.push(price.price);
    expect(seen).toEqual(items.map((item) => item.price));
    expect(client.counters.requests - before).toBe(3);
    expect(created.records.map((record) => record.price)).toEqual(seen);
  });

  it('throws a PricebookError carrying the API error: status, code, message and every problem', async () => {
    const invalid = await client.customers.create({ email: 'not-an-address', trade: 'yes' as unknown as boolean }).catch((error: unknown) => error);
    expect(invalid).toBeInstanceOf(PricebookError);
    expect(invalid).toMatchObject({ name: 'PricebookError', status: 422, code: 10, message: expect.stringMatching(/validation/i) });
    expect((invalid as PricebookError).errors).toEqual(
      expect.arrayContaining([expect.objectContaining({ field: 'email' }), expect.objectContaining({ field: 'trade' })]),
    );

    const missing = await client.customers.get(987_654).catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(PricebookError);
    expect(missing).toMatchObject({ status: 404, code: 5, errors: undefined, message: expect.stringContaining('987654') });

    const { customer, product } = await catalog('bulk-error');
    const items: TradePriceInput[] = [
      { customerId: customer.id, productId: product.id, sku: 'bulk-error-P', price: 1 },
      { customerId: customer.id, productId: product.id, sku: 'bulk-error-P', price: 2 },
      { customerId: customer.id, productId: product.id, sku: 'nope', price: 3 },
    ];
    // The second chunk is refused: its problem is reported at its position in `items`.
    const refused = await client.tradePrices.bulkCreate(items, { chunkSize: 2 }).catch((error: unknown) => error);
    expect(refused).toMatchObject({
      status: 422,
      code: 10,
      message: expect.stringMatching(/^chunk 1 \(items 2–2\): /),
      errors: [{ index: 2, field: 'sku', message: expect.any(String) }],
    });
    expect(await client.tradePrices.count({ customerId: customer.id })).toBe(2);
  });

  it('bulk creates in chunks with a key per chunk: a rerun with the same prefix creates nothing twice', async () => {
    const { customer, product, skus } = await catalog('chunks');
    const items = Array.from({ length: 2500 }, (_, index) => ({ customerId: customer.id, productId: product.id, sku: skus[index % 3]!, price: index / 100 }));
    const options = { chunkSize: 500, idempotencyKeyPrefix: 'sync-2026-11-24' };

    // A run that stopped (crashed) after its first two chunks.
    const before = client.counters.requests;
    const chunksSeen: Array<{ chunkIndex: number; replayed: boolean }> = [];
    const crashed = await client.tradePrices.bulkCreate(items.slice(0, 1000), {
      ...options,
      onChunk: ({ chunkIndex, replayed }) => chunksSeen.push({ chunkIndex, replayed }),
    });
    expect(client.counters.requests - before).toBe(2);
    expect(crashed).toMatchObject({ chunks: 2, replayedChunks: 0 });
    expect(chunksSeen).toEqual([
      { chunkIndex: 0, replayed: false },
      { chunkIndex: 1, replayed: false },
    ]);
    expect(await client.tradePrices.count({ customerId: customer.id })).toBe(1000);

    // The whole run again: the two chunks sent before replay, the other three are created.
    const rerun = await client.tradePrices.bulkCreate(items, options);
    expect(rerun).toMatchObject({ chunks: 5, replayedChunks: 2 });
    expect(rerun.records.slice(0, 1000)).toEqual(crashed.records);
    expect(rerun.records.map((record) => record.price)).toEqual(items.map((item) => item.price));
    expect(await client.tradePrices.count({ customerId: customer.id })).toBe(2500);

    // And again: everything replays, nothing is created.
    expect(await client.tradePrices.bulkCreate(items, options)).toMatchObject({ chunks: 5, replayedChunks: 5 });
    expect(await client.tradePrices.count({ customerId: customer.id })).toBe(2500);

    // Other chunks under the same keys (another chunk size) are refused, not created.
    await expect(client.tradePrices.bulkCreate(items, { ...options, chunkSize: 1000 })).rejects.toMatchObject({ status: 422, code: 13 });
    expect(await client.tradePrices.count({ customerId: customer.id })).toBe(2500);
  });

  it("replaces a customer's prices, or answers what a replace would change", async () => {
    const { customer, product } = await catalog('replace');
    await client.tradePrices.bulkCreate([
      { customerId: customer.id, productId: product.id, sku: 'replace-P', price: 1 },
      { customerId: customer.id, productId: product.id, sku: 'replace-A', price: 2 },
    ]);
    const wanted = [
      { productId: product.id, sku: 'replace-P', price: 1 },
      { productId: product.id, sku: 'replace-B', price: 3, minQuantity: 10 },
    ];
    const planned = await client.replaceCustomerPrices(customer.id, wanted, { scope: 'customer', dryRun: true });
    expect(planned).toEqual({
      created: [
        {
          id: null,
          customerId: customer.id,
          productId: product.id,
          sku: 'replace-B',
          price: 3,
          minQuantity: 10,
          validFrom: null,
          validUntil: null,
          createdAt: null,
        },
      ],
      deleted: [expect.objectContaining({ sku: 'replace-A', price: 2 })],
      unchanged: 1,
    });
    expect(await client.tradePrices.count({ customerId: customer.id, sku: 'replace-B' })).toBe(0);
    const done = await client.replaceCustomerPrices(customer.id, wanted, { scope: 'customer' });
    expect(done.created).toEqual([expect.objectContaining({ id: expect.any(Number), sku: 'replace-B', createdAt: expect.stringMatching(TIMESTAMP) })]);
    const now = await client.tradePrices.list({ customerId: customer.id, fields: 'sku,price,minQuantity' });
    expect(now).toEqual([
      { sku: 'replace-P', price: 1, minQuantity: 1 },
      { sku: 'replace-B', price: 3, minQuantity: 10 },
    ]);
    expect(await client.tradePrices.effective({ customerId: customer.id, sku: 'replace-B', quantity: 10 })).toMatchObject({ price: 3, source: 'trade' });
  });

  it("pages an effective price's candidates: effective answers 100 and the total, iterateCandidates all of them in order", async () => {
    const { customer, product } = await catalog('candidates');
    const { records } = await client.tradePrices.bulkCreate(
      Array.from({ length: 230 }, (_, n) => ({ customerId: customer.id, productId: product.id, sku: 'candidates-A', price: 1 + n })),
    );
    const at = '2030-01-01T00:00:00Z';
    const first = await client.tradePrices.effective({ customerId: customer.id, sku: 'candidates-A', at });
    expect(first).toMatchObject({ candidateCount: 230, tradePriceId: records.at(-1)!.id });
    expect(first.candidates).toHaveLength(100);
    const all = [];
    for await (const candidate of client.tradePrices.iterateCandidates({ customerId: customer.id, sku: 'candidates-A', at })) all.push(candidate.tradePriceId);
    expect(all).toEqual(records.map((record) => record.id).reverse());
  });

  it('uploads an import and follows it to its end', async () => {
    const { customer } = await catalog('import');
    const csv = `customer_id,sku,price\n${customer.id},import-P,4.5\n${customer.id},import-A,5.25\n`;
    const queued = await client.imports.create(csv, { mode: 'replace', dryRun: true });
    expect(queued).toMatchObject({ status: 'queued', mode: 'replace', dryRun: true, rows: 2 });
    const seen: string[] = [];
    const ended = await client.imports.wait(queued.id, { intervalMs: 50, onProgress: (current) => seen.push(current.status) });
    expect(ended).toMatchObject({ status: 'succeeded', processed: 2, result: { created: 2, deleted: 0, unchanged: 0 } });
    expect(seen.at(-1)).toBe('succeeded');
    expect(await client.tradePrices.count({ customerId: customer.id })).toBe(0);
    // Which prices it would create, a page at a time, by SKU.
    const changes = await client.imports.changes(queued.id, { count: 1, offset: 1 });
    expect(changes).toMatchObject({ importId: queued.id, counts: { created: 2, changed: 0, deleted: 0 }, complete: true, total: 2 });
    expect(changes.rows).toEqual([
      {
        kind: 'created',
        customerId: customer.id,
        sku: 'import-P',
        minQuantity: 1,
        validFrom: null,
        validUntil: null,
        before: null,
        after: 4.5,
        tradePriceId: null,
      },
    ]);

    const real = await client.imports.wait((await client.imports.create(csv)).id, { intervalMs: 50 });
    expect(real.result).toEqual({ created: 2, deleted: 0, unchanged: 0 });
    const bad = await client.imports.wait((await client.imports.create(`customer_id,sku,price\n${customer.id},import-P,4,5\n`)).id, { intervalMs: 50 });
    expect(bad).toMatchObject({ status: 'failed', errorCount: 1, errors: [{ row: 2, field: null }] });
    expect(await client.imports.get(bad.id, { fields: 'id,status' })).toEqual({ id: bad.id, status: 'failed' });
    expect(await client.imports.count()).toBe(3);
    expect((await client.imports.list()).map((item) => item.id)).toEqual([queued.id, real.id, bad.id]);
  });

  it('reaches price lists, quotes, orders, webhooks and events', async () => {
    const { customer, product } = await catalog('reach');
    // More events than one page of the feed.
    await client.tradePrices.bulkCreate(
      Array.from({ length: 150 }, (_, index) => ({ customerId: customer.id, productId: product.id, sku: 'reach-P', price: index })),
    );
    const list = await client.priceLists.create({ name: 'Deal', kind: 'fixed' });
    const [entry] = await client.priceLists.prices.bulkCreate(list.id, [{ productId: product.id, sku: 'reach-A', price: 7 }]);
    expect(await client.priceLists.prices.get(list.id, entry!.id)).toMatchObject({ sku: 'reach-A', price: 7 });
    expect(await client.store.get()).toMatchObject({ currency: 'GBP', rounding: 'half-up' });
    // A CSV file into another list: a dry run, then the file, whose second upload changes nothing.
    const imported = await client.priceLists.create({ name: 'Cases', kind: 'fixed' });
    const file = 'sku,price,min_quantity,quantity_increment\nreach-A,6.5,10,5\n';
    expect((await client.priceLists.prices.import(imported.id, file, { dryRun: true })).created).toEqual([
      expect.objectContaining({ id: null, price: 6.5, quantityRule: { minimum: 5, maximum: null, increment: 5 } }),
    ]);
    expect(await client.priceLists.prices.count(imported.id)).toBe(0);
    expect((await client.priceLists.prices.import(imported.id, file)).created).toEqual([expect.objectContaining({ id: expect.any(Number), price: 6.5 })]);
    expect(await client.priceLists.prices.import(imported.id, file, { scope: 'list' })).toMatchObject({ created: [], deleted: [], unchanged: 1 });
    expect(await client.priceLists.prices.count(list.id)).toBe(1);
    expect(await client.priceLists.prices.list(list.id, { sku: 'reach-A' })).toHaveLength(1);
    expect(await client.priceLists.update(list.id, { name: 'Deal 2' })).toMatchObject({ name: 'Deal 2' });
    await client.customers.update(customer.id, { priceListIds: [list.id] });
    const quote = await client.quotes.create({ customerId: customer.id, lines: [{ sku: 'reach-A', quantity: 2 }] });
    expect(quote).toMatchObject({ total: 14, lines: [{ source: 'price_list', priceListId: list.id }] });
    const order = await client.orders.create({ customerId: customer.id, lines: [{ sku: 'reach-A', quantity: 3 }] }, { idempotencyKey: 'reach-order' });
    expect(order).toMatchObject({ status: 'placed', total: 21 });
    expect(await client.orders.get(order.id)).toEqual(order);
    expect(await client.orders.list({ customerId: customer.id })).toEqual([order]);
    expect(await client.orders.count({ customerId: customer.id })).toBe(1);
    await client.priceLists.prices.delete(list.id, entry!.id);
    expect(await client.priceLists.count({ kind: 'fixed' })).toBe(2);
    await client.priceLists.delete(list.id);

    const webhook = await client.webhooks.create({ topic: 'customer.created', url: receiver.url });
    expect(webhook).toMatchObject({ verified: true, secret: expect.stringMatching(/^whsec_/) });
    expect(await client.webhooks.verify(webhook.id)).toMatchObject({ id: webhook.id, verified: true });
    expect(await client.webhooks.update(webhook.id, { active: false })).toMatchObject({ active: false });
    expect(await client.webhooks.count({ topic: 'customer.created' })).toBe(1);
    expect(await client.webhooks.get(webhook.id)).not.toHaveProperty('secret');
    await client.webhooks.delete(webhook.id);
    expect(await client.webhooks.list()).toEqual([]);

    const events = [];
    for await (const event of client.events.iterate()) events.push(event);
    expect(events.length).toBeGreaterThan(100);
    expect(events.map((event) => event.id)).toEqual([...events.map((event) => event.id)].sort((a, b) => a - b));
    expect(await client.events.list({ after: events.at(-2)!.id })).toEqual([events.at(-1)]);
  });

  it('has a method for every /v1 operation of the OpenAPI document, and calls only operations it has', async () => {
    const document = (await suite.server.request('GET', '/openapi.json')).body as { paths: Record<string, Record<string, unknown>> };
    const served = Object.entries(document.paths).flatMap(([template, operations]) =>
      Object.keys(operations)
        .filter((method) => ['get', 'post', 'put', 'delete', 'patch'].includes(method))
        .map((method) => `${method.toUpperCase()} ${template}`),
    );
    const called = Object.values(OPERATIONS).map(({ method, path: template }) => `${method} ${template}`);
    expect(called.filter((operation) => !served.includes(operation))).toEqual([]);
    // The staff session's operations (`/v1/session`) are a browser's, made with its cookie: not an integrator's, who holds a key.
    const forIntegrators = (operation: string) => operation.split(' ')[1]!.startsWith('/v1/') && !/^\/v1\/session(\/|$)/.test(operation.split(' ')[1]!);
    expect(served.filter((operation) => forIntegrators(operation) && !called.includes(operation))).toEqual([]);
    expect(new Set(called).size).toBe(called.length);
    // Each name of the table is a method of the client.
    for (const name of Object.keys(OPERATIONS) as OperationName[]) {
      const owner = name
        .split('.')
        .slice(0, -1)
        .reduce<unknown>((object, key) => (object as Record<string, unknown>)[key], client);
      expect(typeof (owner as Record<string, unknown>)[name.split('.').at(-1)!], name).toBe('function');
    }
  });
});

describe('the client as a package', () => {
  it('only talks https', () => {
    expect(() => new Pricebook({ baseUrl: 'http://127.0.0.1:8080', token: 't' })).toThrow(/https/);
  });

  it('loads nothing of the server: the built client imports only itself and node: modules', () => {
    const directory = path.join(ROOT, 'packages/client/dist');
    const specifiers = fs
      .readdirSync(directory)
      .filter((file) => file.endsWith('.js'))
      .flatMap((file) =>
        [...fs.readFileSync(path.join(directory, file), 'utf8').matchAll(/^(?:import|export)\b[^;]*?\bfrom\s+'([^']+)'/gm)].map((match) => match[1]!),
      );
    expect(specifiers.length).toBeGreaterThan(10);
    expect(specifiers.filter((specifier) => !/^\.\/[a-z-]+\.js$/.test(specifier) && !specifier.startsWith('node:'))).toEqual([]);
  });

  it('has a browser entry that loads no node: module, however deep', () => {
    const directory = path.join(ROOT, 'packages/client/dist');
    const loaded = new Set<string>();
    const pending = ['browser.js'];
    while (pending.length > 0) {
      const file = pending.pop()!;
      if (loaded.has(file)) continue;
      loaded.add(file);
      const text = fs.readFileSync(path.join(directory, file), 'utf8');
      for (const [, specifier] of text.matchAll(/^(?:import|export)\b[^;]*?\bfrom\s+'([^']+)'/gm)) {
        expect(specifier, `${file} imports ${specifier}`).toMatch(/^\.\/[a-z-]+\.js$/);
        pending.push(specifier!.slice(2));
      }
    }
    expect(loaded).toContain('fetch-transport.js');
    expect(loaded).not.toContain('https-transport.js');
    expect(loaded).not.toContain('pricebook.js');
  });

  it("resolves '@pricebook/client' with its types in a project that installs the package", async () => {
    const project = fs.mkdtempSync(path.join(os.tmpdir(), 'pricebook-consumer-'));
    try {
      fs.mkdirSync(path.join(project, 'node_modules'));
      fs.mkdirSync(path.join(project, 'node_modules/@pricebook'));
      fs.symlinkSync(path.join(ROOT, 'packages/client'), path.join(project, 'node_modules/@pricebook/client'), 'dir');
      fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'consumer', type: 'module', private: true }));
      fs.writeFileSync(
        path.join(project, 'main.ts'),
        [
          "import { Pricebook, PricebookError, type Category, type Customer, type CustomerGroup } from '@pricebook/client';",
          "const client = new Pricebook({ baseUrl: 'https://127.0.0.1:8443', token: 'pk_x.sk_y', pacing: false });",
          'export async function firstEmail(): Promise<string | undefined> {',
          '  const customers: Customer[] = await client.customers.list({ trade: true });',
          '  return customers[0]?.email;',
          '}',
          '// @ts-expect-error: an email is a string',
          'export const wrong = () => client.customers.create({ email: 1 });',
          // The six common operations take their types from the OpenAPI document by the resource's name.
          'export const parents = async (): Promise<Category> => client.categories.get(1, { embed: "parents" });',
          'export const groups = async (): Promise<CustomerGroup[]> => client.customerGroups.list({ priceListId: 3 });',
          '// @ts-expect-error: embed is a comma-separated text',
          'export const wrongEmbed = () => client.categories.get(1, { embed: ["parents"] });',
          '// @ts-expect-error: a group is named by `name`',
          'export const wrongGroup = () => client.customerGroups.create({ title: "Wholesale" });',
          'console.log(typeof Pricebook, typeof PricebookError, Object.keys(client.counters).join(","));',
          'client.close();',
        ].join('\n'),
      );
      fs.writeFileSync(
        path.join(project, 'tsconfig.json'),
        JSON.stringify({
          compilerOptions: {
            module: 'NodeNext',
            moduleResolution: 'NodeNext',
            target: 'ES2022',
            strict: true,
            skipLibCheck: true,
            types: ['node'],
            typeRoots: [path.join(ROOT, 'node_modules/@types')],
            outDir: 'out',
          },
          files: ['main.ts'],
        }),
      );
      await run(process.execPath, [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', project], { cwd: project, timeout: 60_000 });
      const { stdout } = await run(process.execPath, [path.join(project, 'out/main.js')], { cwd: project, timeout: 20_000 });
      expect(stdout.trim()).toBe('function function requests,waitedMs,retriedAfter429');
    } finally {
      fs.rmSync(project, { recursive: true, force: true });
    }
  });
});

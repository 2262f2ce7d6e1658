import tls from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Pricebook as BrowserPricebook } from '../../packages/client/src/browser.js';
import { FetchTransport, Pricebook, PricebookError, type PricebookOptions, type TransportRequest, type WaitCause } from '../../packages/client/src/index.js';
import { PROTOCOL_ENGINES } from '../support/engines.js';
import { suiteServer } from '../support/suite-server.js';

/**
 * Node's global `fetch` trusts the runtime's CAs only: the test server's self-signed certificate
 * is added to them for this file (and taken out again), as `NODE_EXTRA_CA_CERTS` would.
 */
function trustWhileRunning(ca: () => string): void {
  let before: string[] = [];
  beforeAll(() => {
    before = tls.getCACertificates('default');
    tls.setDefaultCACertificates([...before, ca()]);
  });
  afterAll(() => tls.setDefaultCACertificates(before));
}

/**
 * The typed client over `transport: 'fetch'` (the global `fetch`, what browsers and the admin
 * page use) against the real server on 127.0.0.1: the same calls, pages, errors and pacing as
 * over HTTPS (client.test.ts, pacing.test.ts). Transport-level, so on one engine.
 */
describe.each(PROTOCOL_ENGINES)('the typed client over fetch on %s', (engine) => {
  const suite = suiteServer(engine, { tenants: 1 });
  trustWhileRunning(() => suite.server.ca);
  const clientOf = (options: Partial<PricebookOptions> = {}) =>
    new Pricebook({ baseUrl: suite.server.baseUrl, token: suite.tenant.token, transport: 'fetch', ...options });

  it('creates, reads, updates, counts and deletes, and answers a 204 as undefined', async () => {
    const client = clientOf();
    const customer = await client.customers.create({ email: 'fetch@example.com', firstName: 'Ada' }, { idempotencyKey: 'fetch-customer' });
    expect(customer).toMatchObject({ id: expect.any(Number), email: 'fetch@example.com', firstName: 'Ada', trade: false });
    expect(await client.customers.create({ email: 'fetch@example.com', firstName: 'Ada' }, { idempotencyKey: 'fetch-customer' })).toEqual(customer);
    expect(await client.customers.update(customer.id, { trade: true })).toMatchObject({ trade: true });
    expect(await client.customers.get(customer.id, { fields: 'id,trade' })).toEqual({ id: customer.id, trade: true });
    expect(await client.customers.count({ email: 'fetch@example.com' })).toBe(1);
    expect(await client.customers.delete(customer.id)).toBeUndefined();
    expect(client.counters).toMatchObject({ requests: 6, retriedAfter429: 0 });
  });

  it('iterates over every page of a list, 100 records a request, and creates many in one request', async () => {
    const client = clientOf();
    const customer = await client.customers.create({ email: 'fetch-pages@example.com', trade: true });
    const product = await client.products.create({ title: 'Pages', sku: 'FETCH-P', price: 10 });
    const items = Array.from({ length: 250 }, (_, index) => ({ customerId: customer.id, productId: product.id, sku: 'FETCH-P', price: index }));
    const created = await client.tradePrices.createMany(items);
    expect(created.map((record) => record.price)).toEqual(items.map((item) => item.price));
    const before = client.counters.requests;
    const seen: number[] = [];
    for await (const price of client.tradePrices.iterate({ customerId: customer.id, fields: 'id,price' })) seen.push(price.price);
    expect(seen).toEqual(items.map((item) => item.price));
    expect(client.counters.requests - before).toBe(3);
  });

  it('throws a PricebookError with the API error: status, code, message and the problems at their index', async () => {
    const client = clientOf();
    const customer = await client.customers.create({ email: 'fetch-errors@example.com', trade: true });
    const product = await client.products.create({ title: 'Errors', sku: 'FETCH-E', price: 1 });
    const refused = await client.tradePrices
      .createMany([
        { customerId: customer.id, productId: product.id, sku: 'FETCH-E', price: 1 },
        { customerId: customer.id, productId: product.id, sku: 'FETCH-E', price: 1.23456 },
      ])
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(PricebookError);
    expect(refused).toMatchObject({ status: 422, code: 10, errors: [expect.objectContaining({ index: 1, field: expect.stringMatching(/price$/) })] });
    expect(await client.tradePrices.count({ customerId: customer.id })).toBe(0);
    await expect(client.customers.get(987_654)).rejects.toMatchObject({
      name: 'PricebookError',
      status: 404,
      code: 5,
      message: expect.stringContaining('987654'),
    });
  });

  it('uploads a CSV import as text or as bytes', async () => {
    const client = clientOf();
    const customer = await client.customers.create({ email: 'fetch-import@example.com', trade: true });
    await client.products.create({ title: 'Import', sku: 'FETCH-I', price: 1 });
    const csv = `customer_id,sku,price\n${customer.id},FETCH-I,4.5\n`;
    const fromText = await client.imports.wait((await client.imports.create(csv, { dryRun: true })).id, { intervalMs: 50 });
    expect(fromText).toMatchObject({ status: 'succeeded', rows: 1, result: { created: 1, deleted: 0, unchanged: 0 } });
    const fromBytes = await client.imports.wait((await client.imports.create(new TextEncoder().encode(csv))).id, { intervalMs: 50 });
    expect(fromBytes).toMatchObject({ status: 'succeeded', dryRun: false, result: { created: 1 } });
    expect(await client.tradePrices.count({ customerId: customer.id })).toBe(1);
  });

  it('rejects with the reason of its signal, before and during a request, over fetch and over HTTPS', async () => {
    for (const transport of ['fetch', 'https'] as const) {
      const aborted = new AbortController();
      aborted.abort(new Error(`${transport}: gone`));
      const early = clientOf({ transport, ca: transport === 'https' ? suite.server.ca : undefined, signal: aborted.signal });
      await expect(early.customers.count()).rejects.toThrow(`${transport}: gone`);
      expect(early.counters.requests).toBe(1);
      early.close();

      const later = new AbortController();
      const client = clientOf({ transport, ca: transport === 'https' ? suite.server.ca : undefined, signal: later.signal });
      const call = client.customers.list();
      later.abort(new Error(`${transport}: moved on`));
      await expect(call).rejects.toThrow(`${transport}: moved on`);
      client.close();
    }
  });

  it('is the browser entry’s default transport', async () => {
    const client = new BrowserPricebook({ baseUrl: suite.server.baseUrl, token: suite.tenant.token });
    expect(await client.customers.count({ email: 'nobody@example.com' })).toBe(0);
  });
});

describe.each(PROTOCOL_ENGINES)('the typed client over fetch under a tiny rate limit on %s', (engine) => {
  // A bucket of 3 leaking 2 a second: a burst of 6 requests finds it full.
  const suite = suiteServer(engine, { env: { PRICEBOOK_RATE_LIMIT_BUCKET: '3', PRICEBOOK_RATE_LIMIT_LEAK: '2' }, tenants: 1 });
  trustWhileRunning(() => suite.server.ca);
  const clientOf = async (pacing: PricebookOptions['pacing']) => {
    const { token } = await suite.server.services.credentials.issueKey(suite.tenant.storeId);
    return new Pricebook({ baseUrl: suite.server.baseUrl, token, transport: 'fetch', pacing });
  };

  it('unpaced, a 429 is a PricebookError with its Retry-After', async () => {
    const client = await clientOf(false);
    const answers = await Promise.all(Array.from({ length: 6 }, () => client.customers.count().catch((error: unknown) => error)));
    const refusals = answers.filter((answer) => answer instanceof PricebookError);
    expect(refusals.length).toBeGreaterThan(0);
    expect(refusals[0]).toMatchObject({ status: 429, code: 11, retryAfterSeconds: expect.any(Number) });
    expect((refusals[0] as PricebookError).retryAfterSeconds).toBeGreaterThanOrEqual(1);
  });

  it('waits out each 429 for its Retry-After and sends it again, telling each wait', async () => {
    const waits: Array<[number, WaitCause]> = [];
    const client = await clientOf({ waitAhead: false, onWait: (waitMs, cause) => waits.push([waitMs, cause]) });
    const counts = await Promise.all(Array.from({ length: 6 }, () => client.customers.count()));
    expect(counts).toEqual([0, 0, 0, 0, 0, 0]);
    const { requests, retriedAfter429, waitedMs } = client.counters;
    expect(retriedAfter429).toBeGreaterThan(0);
    expect(requests).toBe(6 + retriedAfter429);
    expect(waitedMs).toBeGreaterThanOrEqual(900 * retriedAfter429);
    // Each wait is told as it begins (its Retry-After, in whole seconds) and once it is over.
    expect(waits.filter(([waitMs]) => waitMs > 0)).toHaveLength(retriedAfter429);
    expect(waits.filter(([waitMs]) => waitMs === 0)).toHaveLength(retriedAfter429);
    for (const [waitMs, cause] of waits) {
      expect(cause).toBe('retry-after');
      expect(waitMs % 1000).toBe(0);
    }
  });

  it('paced, pages through a list the bucket cannot hold in one burst', async () => {
    const maker = await clientOf(true);
    const customer = await maker.customers.create({ email: 'fetch-paced@example.com', trade: true });
    const product = await maker.products.create({ title: 'Paced', sku: 'FETCH-PACED', price: 1 });
    await maker.tradePrices.createMany(
      Array.from({ length: 450 }, (_, index) => ({ customerId: customer.id, productId: product.id, sku: 'FETCH-PACED', price: index })),
    );
    const client = await clientOf(true);
    let seen = 0;
    for await (const price of client.tradePrices.iterate({ customerId: customer.id, fields: 'price' })) expect(price.price).toBe(seen++);
    expect(seen).toBe(450);
    expect(client.counters.requests - client.counters.retriedAfter429).toBe(5);
    expect(client.counters.waitedMs).toBeGreaterThan(0);
  });
});

describe('the fetch transport', () => {
  it('only talks https, and only the https transport takes a CA', () => {
    expect(() => new FetchTransport({ baseUrl: 'http://127.0.0.1:8080' })).toThrow(/https/);
    expect(() => new Pricebook({ baseUrl: 'http://127.0.0.1:8080', token: 't', transport: 'fetch' })).toThrow(/https/);
    expect(() => new BrowserPricebook({ baseUrl: 'http://127.0.0.1:8080', token: 't' })).toThrow(/https/);
    expect(() => new Pricebook({ baseUrl: 'https://127.0.0.1:8443', token: 't', transport: 'fetch', ca: 'PEM' })).toThrow(/ca is for the 'https' transport/);
    expect(() => new FetchTransport({ baseUrl: 'https://127.0.0.1:8443', timeoutMs: -1 })).toThrow(RangeError);
  });

  it('sends a token as Bearer, and with sessionCookie no Authorization at all (the browser sends the cookie)', async () => {
    const sent: TransportRequest[] = [];
    // A stand-in transport: what the client hands a transport is what is checked here.
    const transport = { send: async (request: TransportRequest) => (sent.push(request), { status: 200, headers: {}, text: '[]' }), close: () => undefined };
    await new BrowserPricebook({ baseUrl: 'https://127.0.0.1:8443', token: 't0ken', transport }).customers.list();
    await new BrowserPricebook({ baseUrl: 'https://127.0.0.1:8443', sessionCookie: true, transport }).priceHistory.list({ customerId: 3 });
    expect(sent.map((request) => [request.path, request.headers.authorization])).toEqual([
      ['/v1/customers', 'Bearer t0ken'],
      ['/v1/price-history?customerId=3', undefined],
    ]);
    expect(() => new BrowserPricebook({ baseUrl: 'https://127.0.0.1:8443', token: '' })).toThrow('token is required');
  });
});

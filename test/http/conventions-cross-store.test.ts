import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCOPES } from '../../src/modules/stores/scopes.js';
import { checkedClient, expectError, type CheckedClient } from '../support/conventions.js';
import { enginesUnderTest } from '../support/engines.js';
import { type HttpResponse, type RequestOptions, startTestServer, type Tenant, type TestServer } from '../support/test-server.js';
import { startReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import { createExamples } from '../support/create-examples.js';

/**
 * Contract §3 "Ids and values": a record of another store is indistinguishable from a missing
 * one. Every operation of the OpenAPI document with an `{id}`-style path parameter is tried
 * with store B's credential on store A's records: 404, and A's records unchanged.
 */

interface FixtureContext {
  /** Unique per call, for fields that must be unique in a store. */
  unique: string;
  /** POST as store A; the created body. */
  post(path: string, body: unknown): Promise<Record<string, unknown>>;
  /** POST as store B (for a body that is valid for B, so only the path's id is wrong); the created body. */
  postAsB(path: string, body: unknown): Promise<Record<string, unknown>>;
  /** Any request as store A. */
  requestAsA(method: string, path: string, options?: Omit<RequestOptions, 'token'>): Promise<HttpResponse>;
  /** A webhook receiver on 127.0.0.1 that answers the verification handshake. */
  receiverUrl: string;
}

/** A body sent as a CSV file (`text/csv`), not as JSON. */
class CsvBody {
  constructor(readonly text: string) {}
}

/** How a fixture's body goes out: a CSV file as itself, anything else as JSON. */
function sent(body: unknown): Omit<RequestOptions, 'token'> {
  return body instanceof CsvBody ? { rawBody: body.text, headers: { 'content-type': 'text/csv' } } : { body };
}

interface Fixture {
  /** Where the record is created; default the collection path. */
  createPath?: string;
  /** Creates one record of store A in `collection` (the path as filled) otherwise than by POSTing `body`; its id. */
  create?(context: FixtureContext, collection: string): Promise<number>;
  /** The POST body that creates one record, or that the operation sends. */
  body(context: FixtureContext): unknown;
  /** The created record's id in the POST answer; default `id`. */
  idOf?(created: unknown): number;
  /** A valid PUT body; default a new `body`. */
  update?(context: FixtureContext): unknown;
}

/**
 * Keyed by collection path as the document writes it; a collection whose create has an example
 * body (test/support/create-examples.ts) needs none: an operation under a collection with
 * neither fails until it has one.
 */
const FIXTURES: Record<string, Fixture> = {
  '/v1/customers': { body: ({ unique }) => ({ email: `cross-${unique}@example.com`, trade: true }) },
  '/v1/products': { body: () => ({ title: 'T', price: 1 }) },
  '/v1/products/{id}/variations': { body: ({ unique }) => ({ sku: `CROSS-V-${unique}`, price: 2 }) },
  '/v1/trade-customer-product-prices': {
    createPath: '/v1/trade-customer-product-prices/bulk',
    body: async ({ unique, post }) => {
      const customer = await post('/v1/customers', { email: `cross-tp-${unique}@example.com`, trade: true });
      const product = await post('/v1/products', { title: 'T', price: 1, sku: `CROSS-P-${unique}` });
      return [{ customerId: customer.id, productId: product.id, sku: `CROSS-P-${unique}`, price: 3 }];
    },
    idOf: (created) => (created as Array<{ id: number }>)[0]!.id,
  },
  '/v1/webhooks': { body: ({ receiverUrl }) => ({ topic: 'customer.created', url: receiverUrl }) },
  // An action under a record rather than a collection: only its body.
  '/v1/webhooks/{id}/verify': { body: () => ({}) },
  '/v1/price-lists': { body: ({ unique }) => ({ name: `Cross ${unique}`, kind: 'fixed' }), update: ({ unique }) => ({ name: `Renamed ${unique}` }) },
  '/v1/customer-groups': { body: ({ unique }) => ({ name: `Cross group ${unique}` }), update: ({ unique }) => ({ name: `Renamed group ${unique}` }) },
  '/v1/price-lists/{id}/prices': {
    create: async ({ unique, post }, collection) => {
      const product = await post('/v1/products', { title: 'T', price: 1, sku: `CROSS-L-${unique}` });
      const created = (await post(`${collection}/bulk`, [{ productId: product.id, sku: `CROSS-L-${unique}`, price: 4 }])) as unknown as Array<{ id: number }>;
      return created[0]!.id;
    },
    body: () => [],
  },
  // The entries another store sends to a list: its own product, so that only the list is not its.
  '/v1/price-lists/{id}/prices/bulk': {
    body: async ({ unique, postAsB }) => {
      const product = await postAsB('/v1/products', { title: 'T', price: 1, sku: `CROSS-B-${unique}` });
      return [{ productId: product.id, sku: `CROSS-B-${unique}`, price: 5 }];
    },
  },
  // A replace another store sends to a list: its own product, so that only the list is not its.
  '/v1/price-lists/{id}/prices/replace': {
    body: async ({ unique, postAsB }) => {
      const product = await postAsB('/v1/products', { title: 'T', price: 1, sku: `CROSS-R-${unique}` });
      return { scope: 'skus', prices: [{ productId: product.id, sku: `CROSS-R-${unique}`, price: 5 }] };
    },
  },
  // A file another store sends to a list: its own product's SKU, so that only the list is not its.
  '/v1/price-lists/{id}/prices/import': {
    body: async ({ unique, postAsB }) => {
      await postAsB('/v1/products', { title: 'T', price: 1, sku: `CROSS-F-${unique}` });
      return new CsvBody(`sku,price\nCROSS-F-${unique},5\n`);
    },
  },
  '/v1/imports': {
    // A dry run of a valid file, waited for: its record changes no more while the test looks.
    create: async ({ unique, post, requestAsA }) => {
      const customer = await post('/v1/customers', { email: `cross-import-${unique}@example.com`, trade: true });
      await post('/v1/products', { title: 'T', price: 1, sku: `CROSS-I-${unique}` });
      const csv = `customer_id,sku,price\n${customer.id as number},CROSS-I-${unique},6\n`;
      const queued = await requestAsA('POST', '/v1/imports?dryRun=true', { rawBody: csv, headers: { 'content-type': 'text/csv' } });
      expect(queued.status, queued.text).toBe(202);
      const id = (queued.body as { id: number }).id;
      const deadline = Date.now() + 30_000;
      for (;;) {
        const { status } = (await requestAsA('GET', `/v1/imports/${id}`)).body as { status: string };
        if (status === 'succeeded') return id;
        if (status === 'failed' || Date.now() > deadline) throw new Error(`import ${id} is ${status}, not succeeded`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    body: () => undefined,
  },
  '/v1/change-sets': { body: ({ unique }) => ({ name: `Cross ${unique}` }) },
  // Another store's set is not found, whatever the body: an empty step, or one operation of B's own.
  '/v1/change-sets/{id}/submit': { body: () => ({}) },
  '/v1/change-sets/{id}/approve': { body: () => ({}) },
  '/v1/change-sets/{id}/apply': { body: () => ({}) },
  '/v1/change-sets/{id}/discard': { body: () => ({}) },
  '/v1/change-sets/{id}/revert': { body: () => ({}) },
  '/v1/change-sets/{id}/operations': {
    body: async ({ unique, postAsB }) => {
      const customer = await postAsB('/v1/customers', { email: `cross-cs-${unique}@example.com`, trade: true });
      const product = await postAsB('/v1/products', { title: 'T', price: 1, sku: `CROSS-CS-${unique}` });
      return [{ type: 'trade_price.create', customerId: customer.id, productId: product.id, sku: `CROSS-CS-${unique}`, price: 3 }];
    },
  },
  '/v1/orders': {
    body: async ({ unique, post }) => {
      const customer = await post('/v1/customers', { email: `cross-order-${unique}@example.com` });
      await post('/v1/products', { title: 'T', price: 1, sku: `CROSS-O-${unique}` });
      return { customerId: customer.id, lines: [{ sku: `CROSS-O-${unique}`, quantity: 2 }] };
    },
  },
};

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];
const MISSING_ID = '987654321098';

interface Operation {
  method: string;
  template: string;
  hasBody: boolean;
  /** Collection templates, one per path parameter, outermost first. */
  collections: string[];
  /** The path also answers GET (a sub-collection whose list can be compared before and after). */
  listable: boolean;
}

async function readOperations(): Promise<Operation[]> {
  const server = await startTestServer('sqlite');
  try {
    const document = (await server.request('GET', '/openapi.json')).body as Parameters<typeof createExamples>[0];
    // A collection without a fixture of its own makes its record from its create's example.
    for (const [collection, example] of createExamples(document)) FIXTURES[collection] ??= { body: () => structuredClone(example) };
    const operations: Operation[] = [];
    for (const [template, pathItem] of Object.entries(document.paths)) {
      const segments = template.split('/');
      const collections = segments.flatMap((segment, i) => (/^\{.+\}$/.test(segment) ? [segments.slice(0, i).join('/')] : []));
      if (collections.length === 0) continue;
      for (const [method, operation] of Object.entries(pathItem)) {
        if (METHODS.includes(method)) {
          operations.push({
            method: method.toUpperCase(),
            template,
            hasBody: operation.requestBody !== undefined,
            collections,
            listable: pathItem.get !== undefined,
          });
        }
      }
    }
    return operations;
  } finally {
    await server.close();
  }
}

const operations = await readOperations();

describe.each(await enginesUnderTest())('contract §3 other stores’ records on %s', (engine) => {
  let server: TestServer;
  let api: CheckedClient;
  let storeA: Tenant;
  let storeB: Tenant;
  let receiver: WebhookReceiver;
  let counter = 0;
  /** Store A's records, by filled collection path. */
  const records = new Map<string, { id: number; path: string }>();

  const postAs = async (tenant: Tenant, path: string, body: unknown) => {
    const response = await api.request('POST', path, { token: tenant.token, body });
    expect(response.status, `${path}: ${response.text}`).toBe(201);
    return response.body as Record<string, unknown>;
  };
  const context = (): FixtureContext => ({
    unique: `${Date.now().toString(36)}-${++counter}`,
    receiverUrl: receiver.url,
    post: (path, body) => postAs(storeA, path, body),
    postAsB: (path, body) => postAs(storeB, path, body),
    requestAsA: (method, path, options) => api.request(method, path, { ...options, token: storeA.token }),
  });

  /** The path with each parameter replaced by the id of a record of store A (created on first use). */
  async function fillWithRecordsOfA(operation: Operation): Promise<string> {
    const filled: string[] = [];
    let parameterIndex = 0;
    for (const segment of operation.template.split('/')) {
      if (!/^\{.+\}$/.test(segment)) {
        filled.push(segment);
        continue;
      }
      const collection = filled.join('/');
      const fixture = FIXTURES[operation.collections[parameterIndex++]!]!;
      let record = records.get(collection);
      if (record === undefined) {
        let id: number;
        if (fixture.create !== undefined) {
          id = await fixture.create(context(), collection);
        } else {
          const created = await context().post(fixture.createPath ?? collection, await fixture.body(context()));
          id = fixture.idOf?.(created) ?? (created.id as number);
        }
        record = { id, path: `${collection}/${id}` };
        records.set(collection, record);
      }
      filled.push(String(record.id));
    }
    return filled.join('/');
  }

  async function snapshotOfA(extraPaths: string[]): Promise<Record<string, unknown>> {
    const snapshot: Record<string, unknown> = {};
    for (const path of [...[...records.values()].map((record) => record.path), ...extraPaths]) {
      const response = await api.request('GET', path, { token: storeA.token });
      expect(response.status, path).toBe(200);
      snapshot[path] = response.body;
    }
    return snapshot;
  }

  beforeAll(async () => {
    // Webhook receivers on 127.0.0.1 are allowed for the test.
    server = await startTestServer(engine, { PRICEBOOK_WEBHOOK_ALLOW_PRIVATE: '1' });
    receiver = await startReceiver();
    api = checkedClient(server);
    // Every scope, approving change sets too: B may do anything, only not to A's records.
    storeA = await server.createTenant([...SCOPES]);
    storeB = await server.createTenant([...SCOPES]);
  });
  afterAll(async () => {
    await server.close();
    await receiver.close();
  });

  it('finds the operations to try in the OpenAPI document', () => {
    expect(operations.map((operation) => `${operation.method} ${operation.template}`)).toEqual(
      expect.arrayContaining(['GET /v1/customers/{id}', 'PUT /v1/customers/{id}', 'DELETE /v1/customers/{id}']),
    );
  });

  for (const operation of operations) {
    const missing = operation.collections.filter((collection) => FIXTURES[collection] === undefined);
    const name = `${operation.method} ${operation.template}`;
    if (missing.length > 0) {
      it(`${name} has a fixture to try it with`, () => {
        expect.fail(
          `no fixture for ${missing.join(', ')}: add one to FIXTURES (or an example to its create's body schema), so that another store's ids are tried on it`,
        );
      });
      continue;
    }
    const bodyFixture = FIXTURES[operation.template] ?? FIXTURES[operation.collections.at(-1)!]!;
    it(`${name} with another store's credential is a 404 and changes nothing`, async () => {
      const path = await fillWithRecordsOfA(operation);
      const body = operation.hasBody ? await (bodyFixture.update ?? bodyFixture.body)(context()) : undefined;
      // Every record of A so far, and the sub-collection itself when the path is one (a product's variations).
      // A preview prices at a moment (default now): watched at a fixed one, so only a change of A's shows.
      const watched = operation.listable && !operation.template.endsWith('}') ? [path.endsWith('/preview') ? `${path}?at=2030-01-01T00:00:00Z` : path] : [];
      const before = await snapshotOfA(watched);
      const handshakes = receiver.handshakes.length;

      const crossed = await api.request(operation.method, path, { token: storeB.token, ...sent(body) });
      expectError(crossed, 404, 5);

      // Indistinguishable from an id that names nothing at all.
      const segments = path.split('/');
      const lastId = segments.findLastIndex((segment) => /^\d+$/.test(segment));
      const absent = await api.request(operation.method, segments.with(lastId, MISSING_ID).join('/'), { token: storeB.token, ...sent(body) });
      expectError(absent, 404, 5);
      const shape = (response: { body: unknown }) => (response.body as { message: string }).message.replace(/\d+/g, '#');
      expect(shape(crossed)).toBe(shape(absent));

      expect(await snapshotOfA(watched)).toEqual(before);
      // Nor did it reach out to A's webhook receiver (a verification, say).
      expect(receiver.handshakes.length).toBe(handshakes);
    });
  }
});

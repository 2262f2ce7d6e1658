import { describe, expect, it } from 'vitest';
import type { Event } from '../../src/contract/events.js';
import type { ProblemBody } from '../support/bodies.js';
import { expectError } from '../support/conventions.js';
import { enginesUnderTest } from '../support/engines.js';
import { snapshotStore } from '../support/store-snapshot.js';
import { suiteServer } from '../support/suite-server.js';
import type { Tenant } from '../support/test-server.js';

/** Bulk creates of products (with their variations) and of customers: trade prices' conventions. */
describe.each(await enginesUnderTest())('catalog bulk creates on %s', (engine) => {
  const suite = suiteServer(engine, { catalogs: true });
  let run = 0;
  const unique = () => `${engine}-${Date.now()}-${++run}`;

  const post = (path: string, body: unknown, options: { token?: string; headers?: Record<string, string> } = {}) =>
    suite.server.request('POST', path, { token: options.token ?? suite.tenant.token, body, headers: options.headers ?? {} });
  const snapshot = (tenant: Tenant = suite.tenant) => snapshotStore(suite.server.services.database, tenant.storeId);
  const lastEventId = async () => {
    const events = await eventsAfter(0);
    return events.at(-1)?.id ?? 0;
  };
  /** The store's events above `after`, 100 a page; at most 30 pages. */
  const eventsAfter = async (after: number): Promise<Event[]> => {
    const events: Event[] = [];
    let seen = after;
    for (let page = 0; page < 30; page++) {
      const batch = (await suite.server.request('GET', `/v1/events?after=${seen}&count=100`, { token: suite.tenant.token })).body as Event[];
      events.push(...batch);
      if (batch.length < 100) return events;
      seen = batch.at(-1)!.id;
    }
    throw new Error('more events than the test expects');
  };
  const problemsOf = (body: unknown) => (body as ProblemBody).errors;

  describe('POST /v1/products/bulk', () => {
    it('creates products with their variations in request order, each as a single create would, with its event', async () => {
      const tag = unique();
      const category = (await post('/v1/categories', { title: `Shirts ${tag}` })).body as { id: number };
      const items = [
        {
          title: 'Polo',
          sku: `POLO-${tag}`,
          price: 19.99,
          categoryIds: [category.id],
          variations: [{ sku: `POLO-${tag}-S`, price: 18.5, stock: 3 }, { sku: `POLO-${tag}-M` }],
        },
        { title: 'Cap', price: 0.1, active: false },
        { title: 'Sock', sku: `SOCK-${tag}`, price: 2 },
      ];
      const after = await lastEventId();
      const response = await post('/v1/products/bulk', items);
      expect(response.status, response.text).toBe(201);
      expect(response.text).toContain('"price":0.1,');
      const created = response.body as Array<{
        id: number;
        title: string;
        sku: string | null;
        price: number;
        active: boolean;
        categoryIds: number[];
        variations: Array<{ id: number; sku: string; price: number | null; stock: number | null }>;
      }>;
      expect(created.map(({ title, sku, price, active, categoryIds }) => ({ title, sku, price, active, categoryIds }))).toEqual([
        { title: 'Polo', sku: `POLO-${tag}`, price: 19.99, active: true, categoryIds: [category.id] },
        { title: 'Cap', sku: null, price: 0.1, active: false, categoryIds: [] },
        { title: 'Sock', sku: `SOCK-${tag}`, price: 2, active: true, categoryIds: [] },
      ]);
      expect(created[0]!.variations.map(({ sku, price, stock }) => ({ sku, price, stock }))).toEqual([
        { sku: `POLO-${tag}-S`, price: 18.5, stock: 3 },
        { sku: `POLO-${tag}-M`, price: null, stock: null },
      ]);
      const ids = created.map((product) => product.id);
      expect([...ids].sort((a, b) => a - b)).toEqual(ids);
      for (const product of created)
        expect((await suite.server.request('GET', `/v1/products/${product.id}`, { token: suite.tenant.token })).body).toEqual(product);
      // Their SKUs are registered: the lookup finds them, and pricing can use them.
      const found = (await post('/v1/skus/lookup', { skus: [`POLO-${tag}-S`, `SOCK-${tag}`] })).body as {
        found: Array<{ productId: number; variationId: number | null }>;
      };
      expect(found.found).toEqual([
        { sku: `POLO-${tag}-S`, productId: ids[0], variationId: created[0]!.variations[0]!.id, price: 18.5 },
        { sku: `SOCK-${tag}`, productId: ids[2], variationId: null, price: 2 },
      ]);
      const events = await eventsAfter(after);
      expect(events.map((event) => [event.topic, event.subjectId, event.data])).toEqual(created.map((product) => ['product.created', product.id, product]));
    });

    it('reports every invalid item with its index and field, and creates nothing', async () => {
      const tag = unique();
      const before = await snapshot();
      const after = await lastEventId();
      const response = await post('/v1/products/bulk', [
        { title: 'Fine', sku: `FINE-${tag}`, price: 1 },
        { title: 'Taken', sku: suite.catalog.skus.mug, price: 1 },
        { title: 'Twice in one', price: 1, variations: [{ sku: `TWICE-${tag}` }, { sku: `TWICE-${tag}` }] },
        { title: 'Twice in two', sku: `FINE-${tag}`, price: 1 },
        { title: 'No category', price: 1, categoryIds: [999_999_999] },
        { title: 'No price' },
        'not an object',
        { title: 'Bad variation', price: 1, variations: [{ sku: '' }] },
        { title: 'Unknown field', price: 1, colour: 'red' },
        { title: 'Variation taken', price: 1, variations: [{ sku: suite.catalog.skus.teeRedM }] },
      ]);
      expectError(response, 422, 10);
      expect((response.body as { message: string }).message).toBe('Validation failed: 9 of 10 items are invalid');
      expect(problemsOf(response.body)).toEqual([
        { index: 1, field: 'sku', message: `SKU '${suite.catalog.skus.mug}' is already in use in this store` },
        { index: 2, field: 'variations[1].sku', message: `SKU 'TWICE-${tag}' appears more than once in this product` },
        { index: 3, field: 'sku', message: `SKU 'FINE-${tag}' is also sent by item 0` },
        { index: 4, field: 'categoryIds', message: 'Category 999999999 does not exist in this store' },
        { index: 5, field: 'price', message: 'is required' },
        { index: 6, field: null, message: expect.stringMatching(/object/), value: 'not an object' },
        { index: 7, field: 'variations[0].sku', message: expect.stringMatching(/fewer than 1/), value: '' },
        { index: 8, field: 'colour', message: 'is not a known field' },
        { index: 9, field: 'variations[0].sku', message: `SKU '${suite.catalog.skus.teeRedM}' is already in use in this store` },
      ]);
      expect(await snapshot()).toEqual(before);
      expect(await eventsAfter(after)).toEqual([]);
    });

    it("may not take another store's SKU by surprise: SKUs are per store, and another store's products stay its own", async () => {
      // The foreign store's SKU is free here: a store sees and claims only its own register.
      const response = await post('/v1/products/bulk', [{ title: 'Same SKU, other store', sku: suite.foreign.skus.mug, price: 3 }]);
      expect(response.status, response.text).toBe(201);
      const theirs = await post('/v1/skus/lookup', { skus: [suite.foreign.skus.mug] }, { token: suite.other.token });
      expect(theirs.body).toEqual({ found: [{ sku: suite.foreign.skus.mug, productId: suite.foreign.mug, variationId: null, price: 4.2 }], unknown: [] });
    });

    it('takes 1000 products and refuses 1001 (and an empty array) as invalid JSON structure', async () => {
      const tag = unique();
      const thousand = Array.from({ length: 1000 }, (_, index) => ({ title: `P${index}`, sku: `K-${tag}-${index}`, price: index / 100 }));
      const before = await snapshot();
      for (const body of [[...thousand, { title: 'one more', price: 1 }], []]) {
        const refused = await post('/v1/products/bulk', body);
        expectError(refused, 422, 10);
        expect((refused.body as { message: string }).message).toMatch(/^Invalid JSON structure/);
      }
      expect(await snapshot()).toEqual(before);
      const response = await post('/v1/products/bulk', thousand);
      expect(response.status, response.text.slice(0, 300)).toBe(201);
      const created = response.body as Array<{ sku: string }>;
      expect(created).toHaveLength(1000);
      expect(created[999]!.sku).toBe(`K-${tag}-999`);
    });

    it('refuses more than 10 000 variations in one request as a whole, and creates nothing', async () => {
      const tag = unique();
      const variations = (product: number) => Array.from({ length: 1000 }, (_, index) => ({ sku: `V-${tag}-${product}-${index}` }));
      const items = Array.from({ length: 11 }, (_, product) => ({ title: `Many ${product}`, price: 1, variations: variations(product) }));
      const before = await snapshot();
      const response = await post('/v1/products/bulk', items);
      expectError(response, 422, 10);
      expect(response.body).toEqual({
        code: 10,
        message: 'Invalid JSON structure: the products carry 11000 variations, at most 10000 in one request',
        errors: [{ field: null, message: 'the products carry 11000 variations, at most 10000 in one request' }],
      });
      expect(await snapshot()).toEqual(before);
    });

    it('replays an Idempotency-Key: the same answer, nothing created twice', async () => {
      const tag = unique();
      const key = `products-${tag}`;
      const body = [{ title: 'Once', sku: `ONCE-${tag}`, price: 1 }];
      const first = await post('/v1/products/bulk', body, { headers: { 'idempotency-key': key } });
      expect(first.status).toBe(201);
      const before = await snapshot();
      const second = await post('/v1/products/bulk', body, { headers: { 'idempotency-key': key } });
      expect(second.status).toBe(201);
      expect(second.headers['idempotent-replayed']).toBe('true');
      expect(second.text).toBe(first.text);
      expect(await snapshot()).toEqual(before);
      const other = await post('/v1/products/bulk', [{ ...body[0], price: 2 }], { headers: { 'idempotency-key': key } });
      expectError(other, 422, 13);
    });

    it('stays all or nothing while other requests run between its batches: one of two writers of a SKU wins, whole', async () => {
      // 300 products of 5 variations: 1800 rows, several turns of the event loop inside the
      // transaction. A single create of the last product's SKU is sent meanwhile: on PostgreSQL it
      // commits first (while the bulk create writes, or before its check), and the bulk create is
      // refused at its last product; on SQLite it waits for the bulk create's transaction. Either
      // way exactly one of them has the SKU, and the bulk create is all there or not at all.
      const tag = unique();
      const items = Array.from({ length: 300 }, (_, product) => ({
        title: `Batch ${product}`,
        sku: `B-${tag}-${product}`,
        price: 1,
        variations: Array.from({ length: 5 }, (_, variation) => ({ sku: `B-${tag}-${product}-${variation}` })),
      }));
      const lastSku = items.at(-1)!.sku;
      const count = async () => ((await suite.server.request('GET', '/v1/products/count', { token: suite.tenant.token })).body as { count: number }).count;
      const before = await count();
      const bulk = post('/v1/products/bulk', items);
      await new Promise((resolve) => setTimeout(resolve, 30));
      const [bulkAnswer, singleAnswer] = await Promise.all([bulk, post('/v1/products', { title: 'Meanwhile', sku: lastSku, price: 2 })]);
      const holders = (await suite.server.request('GET', `/v1/products?sku=${encodeURIComponent(lastSku)}`, { token: suite.tenant.token })).body as Array<{
        title: string;
      }>;
      const firstHolders = (
        await suite.server.request('GET', `/v1/products?sku=${encodeURIComponent(items[0]!.variations[0]!.sku)}`, { token: suite.tenant.token })
      ).body as unknown[];
      if (bulkAnswer.status === 201) {
        expectError(singleAnswer, 422, 10);
        expect(holders.map((product) => product.title)).toEqual(['Batch 299']);
        expect(firstHolders).toHaveLength(1);
        expect(await count()).toBe(before + items.length);
      } else {
        expect(singleAnswer.status, singleAnswer.text).toBe(201);
        expectError(bulkAnswer, 422, 10);
        expect(problemsOf(bulkAnswer.body)).toEqual([expect.objectContaining({ index: 299, field: 'sku' })]);
        expect(holders.map((product) => product.title)).toEqual(['Meanwhile']);
        // Nothing of the first 299 products remains: the whole transaction rolled back.
        expect(firstHolders).toEqual([]);
        expect(await count()).toBe(before + 1);
      }
    });
  });

  it.each(['/v1/products/bulk', '/v1/customers/bulk'])('answers other methods on %s with 405 Allow: POST, not as a record id', async (path) => {
    for (const method of ['GET', 'PUT', 'DELETE']) {
      const response = await suite.server.request(method, path, { token: suite.tenant.token, ...(method === 'PUT' && { body: {} }) });
      expectError(response, 405, 6);
      expect(response.headers.allow).toBe('POST');
    }
  });

  describe('POST /v1/customers/bulk', () => {
    it('creates customers in request order, each as a single create would, with its event', async () => {
      const tag = unique();
      const list = (await post('/v1/price-lists', { name: `List ${tag}`, kind: 'percentage', percentage: 10 })).body as { id: number };
      const items = [{ email: `a-${tag}@example.com`, trade: true, companyName: 'Acme', priceListIds: [list.id] }, { email: `b-${tag}@example.com` }];
      const after = await lastEventId();
      const response = await post('/v1/customers/bulk', items);
      expect(response.status, response.text).toBe(201);
      const created = response.body as Array<{
        id: number;
        email: string;
        trade: boolean;
        active: boolean;
        priceListIds: number[];
        companyName: string | null;
      }>;
      expect(created.map(({ email, trade, active, priceListIds, companyName }) => ({ email, trade, active, priceListIds, companyName }))).toEqual([
        { email: `a-${tag}@example.com`, trade: true, active: true, priceListIds: [list.id], companyName: 'Acme' },
        { email: `b-${tag}@example.com`, trade: false, active: true, priceListIds: [], companyName: null },
      ]);
      for (const customer of created)
        expect((await suite.server.request('GET', `/v1/customers/${customer.id}`, { token: suite.tenant.token })).body).toEqual(customer);
      const events = await eventsAfter(after);
      expect(events.map((event) => [event.topic, event.subjectId, event.data])).toEqual(created.map((customer) => ['customer.created', customer.id, customer]));
    });

    it('reports every invalid item with its index and field, and creates nothing', async () => {
      const tag = unique();
      const taken = (
        (await suite.server.request('GET', `/v1/customers/${suite.catalog.tradeCustomer}`, { token: suite.tenant.token })).body as { email: string }
      ).email;
      const before = await snapshot();
      const response = await post('/v1/customers/bulk', [
        { email: `fine-${tag}@example.com` },
        { email: taken.toUpperCase() },
        { email: `FINE-${tag}@example.com` },
        { email: 'not an e-mail address' },
        { email: `lists-${tag}@example.com`, priceListIds: [999_999_999] },
        { firstName: 'No e-mail' },
        { email: `extra-${tag}@example.com`, vip: true },
      ]);
      expectError(response, 422, 10);
      expect((response.body as { message: string }).message).toBe('Validation failed: 6 of 7 items are invalid');
      expect(problemsOf(response.body)).toEqual([
        { index: 1, field: 'email', message: 'is already used by another customer of this store' },
        { index: 2, field: 'email', message: 'is also sent by item 0' },
        { index: 3, field: 'email', message: expect.stringMatching(/email/), value: 'not an e-mail address' },
        { index: 4, field: 'priceListIds[0]', message: 'Price list 999999999 does not exist in this store' },
        { index: 5, field: 'email', message: 'is required' },
        { index: 6, field: 'vip', message: 'is not a known field' },
      ]);
      expect(await snapshot()).toEqual(before);
    });

    it("checks e-mail addresses against this store only: another store's customer does not block one", async () => {
      const theirs = (
        (await suite.server.request('GET', `/v1/customers/${suite.foreign.tradeCustomer}`, { token: suite.other.token })).body as { email: string }
      ).email;
      const response = await post('/v1/customers/bulk', [{ email: theirs }]);
      expect(response.status, response.text).toBe(201);
      const created = (response.body as Array<{ id: number }>)[0]!;
      expect((await suite.server.request('GET', `/v1/customers/${created.id}`, { token: suite.other.token })).status).toBe(404);
    });

    it('takes 1000 customers and refuses 1001', async () => {
      const tag = unique();
      const thousand = Array.from({ length: 1000 }, (_, index) => ({ email: `c${index}-${tag}@example.com` }));
      const before = await snapshot();
      const refused = await post('/v1/customers/bulk', [...thousand, { email: `more-${tag}@example.com` }]);
      expectError(refused, 422, 10);
      expect((refused.body as { message: string }).message).toMatch(/^Invalid JSON structure/);
      expect(await snapshot()).toEqual(before);
      const response = await post('/v1/customers/bulk', thousand);
      expect(response.status).toBe(201);
      expect((response.body as unknown[]).length).toBe(1000);
    });

    it('needs trade_prices:write for an item with priceListIds (403 before 422), catalog:write alone otherwise', async () => {
      const writer = await suite.server.createTenant(['catalog:write']);
      const before = await snapshot(writer);
      const refused = await post('/v1/customers/bulk', [{ email: 'x@example.com' }, { email: 'not valid', priceListIds: [] }], { token: writer.token });
      expectError(refused, 403, 4);
      expect((refused.body as { message: string }).message).toContain("'trade_prices:write'");
      expect(await snapshot(writer)).toEqual(before);
      expect((await post('/v1/customers/bulk', [{ email: 'x@example.com' }], { token: writer.token })).status).toBe(201);
    });

    it('replays an Idempotency-Key', async () => {
      const tag = unique();
      const key = `customers-${tag}`;
      const body = [{ email: `once-${tag}@example.com` }];
      const first = await post('/v1/customers/bulk', body, { headers: { 'idempotency-key': key } });
      expect(first.status).toBe(201);
      const second = await post('/v1/customers/bulk', body, { headers: { 'idempotency-key': key } });
      expect(second.status).toBe(201);
      expect(second.headers['idempotent-replayed']).toBe('true');
      expect(second.text).toBe(first.text);
    });
  });
});

import { describe, expect, it } from 'vitest';
import type { ProblemBody } from '../support/bodies.js';
import { expectError } from '../support/conventions.js';
import { enginesUnderTest } from '../support/engines.js';
import { snapshotStore } from '../support/store-snapshot.js';
import { suiteServer } from '../support/suite-server.js';
import type { Tenant } from '../support/test-server.js';

/** The issue-24 endpoints under hostile input: every refusal has the documented shape and stores nothing. */
describe.each(await enginesUnderTest())('catalog bulk creates and SKU lookup, hostile input, on %s', (engine) => {
  const suite = suiteServer(engine, { catalogs: true });
  let run = 0;
  const unique = () => `${engine}-${Date.now()}-${++run}`;
  const post = (path: string, body: unknown, options: { token?: string; headers?: Record<string, string> } = {}) =>
    suite.server.request('POST', path, { token: options.token ?? suite.tenant.token, body, headers: options.headers ?? {} });
  const snapshot = (tenant: Tenant = suite.tenant) => snapshotStore(suite.server.services.database, tenant.storeId);
  const problemsOf = (body: unknown) => (body as ProblemBody).errors;
  /** A second credential of the tenant's store. */
  const sameStoreKey = async (): Promise<string> => (await suite.server.services.credentials.issueKey(suite.tenant.storeId)).token;

  /** A 422 code 10 whose `errors` each carry an `index` (bulk) or a `field`, and nothing stored. */
  const expectRefusedUnchanged = async (path: string, body: unknown, bulk: boolean) => {
    const before = await snapshot();
    const response = await post(path, body);
    expectError(response, 422, 10);
    const problems = problemsOf(response.body);
    expect(problems.length).toBeGreaterThan(0);
    for (const problem of problems) {
      expect(typeof problem.message).toBe('string');
      expect(problem.field === null || typeof problem.field === 'string').toBe(true);
      if (bulk && problem.field !== null) expect(Number.isInteger(problem.index), JSON.stringify(problem)).toBe(true);
    }
    expect(await snapshot()).toEqual(before);
    return problems;
  };

  describe('POST /v1/skus/lookup', () => {
    it.each([
      ['a null SKU', { skus: [null] }],
      ['a nested array', { skus: [['A']] }],
      ['an object SKU', { skus: [{ sku: 'A' }] }],
      ['a number SKU', { skus: [12] }],
      ['a string instead of an array', { skus: 'A' }],
      ['no skus', {}],
      ['an unknown field', { skus: ['A'], store: 2 }],
      ['an empty SKU', { skus: [''] }],
      ['a 256-character SKU', { skus: ['S'.repeat(256)] }],
      ['a control character', { skus: ['A\u0000B'] }],
      ['a bare array', ['A']],
      ['null', null],
    ])('refuses %s with a 422 naming the field', async (_name, body) => {
      const problems = await expectRefusedUnchanged('/v1/skus/lookup', body, false);
      expect(problems.every((problem) => problem.index === undefined)).toBe(true);
    });

    it('answers a GET with 405 and an Allow header naming POST', async () => {
      const response = await suite.server.request('GET', '/v1/skus/lookup', { token: suite.tenant.token });
      expectError(response, 405, 6);
      expect(response.headers.allow).toContain('POST');
    });
  });

  describe('POST /v1/products/bulk', () => {
    it.each([
      ['a null item', [null]],
      ['a nested array item', [[{ title: 'x', price: 1 }]]],
      ['a string price', [{ title: 'x', price: '1' }]],
      ['a null variation', [{ title: 'x', price: 1, variations: [null] }]],
      ['a variation with a null SKU', [{ title: 'x', price: 1, variations: [{ sku: null }] }]],
      ['a variation with an unknown field', [{ title: 'x', price: 1, variations: [{ sku: 'V', colour: 'red' }] }]],
      ['a SKU with a control character', [{ title: 'x', price: 1, sku: 'A\u0007' }]],
      ['a category id 0', [{ title: 'x', price: 1, categoryIds: [0] }]],
      ['a category id as a string', [{ title: 'x', price: 1, categoryIds: ['1'] }]],
      ['an object body', { title: 'x', price: 1 }],
    ])('refuses %s, with an index, and stores nothing', async (_name, body) => {
      await expectRefusedUnchanged('/v1/products/bulk', body, true);
    });

    it("refuses another store's category", async () => {
      const theirs = (await post('/v1/categories', { title: `Theirs ${unique()}` }, { token: suite.other.token })).body as { id: number };
      const problems = await expectRefusedUnchanged('/v1/products/bulk', [{ title: 'x', price: 1, categoryIds: [theirs.id] }], true);
      expect(problems).toEqual([{ index: 0, field: 'categoryIds', message: `Category ${theirs.id} does not exist in this store` }]);
    });

    it('needs catalog:write: catalog:read or trade_prices:write alone is a 403', async () => {
      for (const scopes of [['catalog:read'], ['trade_prices:write']] as const) {
        const key = await suite.server.createTenant([...scopes]);
        const before = await snapshot(key);
        expectError(await post('/v1/products/bulk', [{ title: 'x', price: 1 }], { token: key.token }), 403, 4);
        expect(await snapshot(key)).toEqual(before);
      }
    });

    it('refuses an Idempotency-Key replayed with a different body (422 code 13)', async () => {
      const tag = unique();
      const key = `products-${tag}`;
      expect((await post('/v1/products/bulk', [{ title: 'a', price: 1, sku: `A-${tag}` }], { headers: { 'idempotency-key': key } })).status).toBe(201);
      const before = await snapshot();
      expectError(await post('/v1/products/bulk', [{ title: 'b', price: 1, sku: `B-${tag}` }], { headers: { 'idempotency-key': key } }), 422, 13);
      expect(await snapshot()).toEqual(before);
    });

    it("does not give another credential of the store the first one's answer", async () => {
      const tag = unique();
      const key = `products-${tag}`;
      const body = [{ title: 'a', price: 1, sku: `A-${tag}` }];
      expect((await post('/v1/products/bulk', body, { headers: { 'idempotency-key': key } })).status).toBe(201);
      const second = await post('/v1/products/bulk', body, { token: await sameStoreKey(), headers: { 'idempotency-key': key } });
      expect(second.headers['idempotent-replayed']).toBeUndefined();
      expectError(second, 422, 10);
      const other = await post('/v1/products/bulk', body, { token: suite.other.token, headers: { 'idempotency-key': key } });
      expect(other.headers['idempotent-replayed']).toBeUndefined();
      expect(other.status).toBe(201);
    });
  });

  describe('POST /v1/customers/bulk', () => {
    it.each([
      ['a null item', [null]],
      ['a null e-mail', [{ email: null }]],
      ['an e-mail as a number', [{ email: 5 }]],
      ['a null price list id', [{ email: 'n@example.com', priceListIds: [null] }]],
      ['a nested price list id', [{ email: 'n@example.com', priceListIds: [[1]] }]],
      ['trade as a string', [{ email: 'n@example.com', trade: 'true' }]],
      ['a control character in a name', [{ email: 'n@example.com', firstName: 'A\u0000' }]],
      ['an object body', { email: 'n@example.com' }],
    ])('refuses %s, with an index, and stores nothing', async (_name, body) => {
      await expectRefusedUnchanged('/v1/customers/bulk', body, true);
    });

    it('refuses two items whose e-mails differ only in case, and an e-mail the store has in another case', async () => {
      const tag = unique();
      expect((await post('/v1/customers', { email: `taken-${tag}@example.com` })).status).toBe(201);
      const problems = await expectRefusedUnchanged(
        '/v1/customers/bulk',
        [{ email: `Twice-${tag}@example.com` }, { email: `twice-${tag}@EXAMPLE.com` }, { email: `TAKEN-${tag}@example.com` }],
        true,
      );
      expect(problems.map(({ index, field }) => [index, field])).toEqual([
        [1, 'email'],
        [2, 'email'],
      ]);
    });

    it("refuses another store's price list", async () => {
      const theirs = (await post('/v1/price-lists', { name: `Theirs ${unique()}`, kind: 'fixed' }, { token: suite.other.token })).body as { id: number };
      const problems = await expectRefusedUnchanged('/v1/customers/bulk', [{ email: `pl-${unique()}@example.com`, priceListIds: [theirs.id] }], true);
      expect(problems).toEqual([{ index: 0, field: 'priceListIds[0]', message: `Price list ${theirs.id} does not exist in this store` }]);
    });

    it('needs catalog:write: trade_prices:write alone is a 403, with or without priceListIds', async () => {
      const key = await suite.server.createTenant(['trade_prices:write', 'catalog:read']);
      const before = await snapshot(key);
      expectError(await post('/v1/customers/bulk', [{ email: 'x@example.com' }], { token: key.token }), 403, 4);
      expectError(await post('/v1/customers/bulk', [{ email: 'x@example.com', priceListIds: [] }], { token: key.token }), 403, 4);
      expect(await snapshot(key)).toEqual(before);
    });

    it('refuses an Idempotency-Key replayed with a different body (422 code 13)', async () => {
      const tag = unique();
      const key = `customers-${tag}`;
      expect((await post('/v1/customers/bulk', [{ email: `a-${tag}@example.com` }], { headers: { 'idempotency-key': key } })).status).toBe(201);
      const before = await snapshot();
      expectError(await post('/v1/customers/bulk', [{ email: `b-${tag}@example.com` }], { headers: { 'idempotency-key': key } }), 422, 13);
      expect(await snapshot()).toEqual(before);
    });

    it("does not replay one credential's answer to a narrower credential of the store", async () => {
      const tag = unique();
      const key = `customers-${tag}`;
      const list = (await post('/v1/price-lists', { name: `Mine ${tag}`, kind: 'fixed' })).body as { id: number };
      const body = [{ email: `pl-${tag}@example.com`, priceListIds: [list.id] }];
      expect((await post('/v1/customers/bulk', body, { headers: { 'idempotency-key': key } })).status).toBe(201);
      const narrow = (await suite.server.services.credentials.issueKey(suite.tenant.storeId, ['catalog:write'])).token;
      const second = await post('/v1/customers/bulk', body, { token: narrow, headers: { 'idempotency-key': key } });
      expect(second.headers['idempotent-replayed']).toBeUndefined();
      expectError(second, 403, 4);
    });
  });
});

import { beforeAll, describe, expect, it } from 'vitest';
import type { PriceHistoryEntry } from '../../src/contract/price-history.js';
import { GENESIS_HASH, chainHash } from '../../src/modules/history/history-chain.js';
import type { ChangeOrigin, HistoryRecord } from '../../src/modules/history/history-entry.js';
import { expectError } from '../support/conventions.js';
import { enginesUnderTest } from '../support/engines.js';
import { suiteServer } from '../support/suite-server.js';

const KEY: ChangeOrigin = { actor: { type: 'key', id: 7, name: 'erp' }, source: 'api', sourceId: null, requestId: 'req-1' };
const STAFF: ChangeOrigin = { actor: { type: 'staff', id: 7, name: 'Ada' }, source: 'admin', sourceId: null, requestId: 'req-2' };
const IMPORT: ChangeOrigin = { actor: { type: 'key', id: 9, name: 'pk_abc' }, source: 'import', sourceId: 12, requestId: 'req-3' };

const customer = {
  id: 5,
  email: 'ada@example.com',
  firstName: 'Ada',
  lastName: 'Lovelace',
  companyName: 'Engines Ltd',
  trade: true,
  active: true,
  priceListIds: [],
  createdAt: '2026-03-01T09:00:00.000Z',
};
const tradePrice = {
  id: 40,
  customerId: 5,
  productId: 3,
  sku: 'TEE-M',
  price: 7.25,
  minQuantity: 1,
  validFrom: null,
  validUntil: null,
  createdAt: '2026-03-02T09:00:00.000Z',
};
const listEntry = {
  id: 41,
  priceListId: 2,
  productId: 3,
  sku: 'TEE-L',
  price: 6.5,
  minQuantity: 1,
  validFrom: null,
  validUntil: null,
  createdAt: '2026-03-03T09:00:00.000Z',
};

const record = (overrides: Partial<HistoryRecord> & Pick<HistoryRecord, 'resource' | 'resourceId' | 'change'>): HistoryRecord => ({
  before: null,
  after: null,
  customerId: null,
  productId: null,
  priceListId: null,
  sku: null,
  ...overrides,
});

describe.each(await enginesUnderTest())('GET /v1/price-history on %s', (engine) => {
  const suite = suiteServer(engine, { tenants: 2 });
  /** A key of the store with `trade_prices:read` alone. */
  let tradeOnly: string;

  /** The store's history: 1 customer created (key), 2 trade price created (staff), 3 list entry created (import), 4 trade price deleted (key). */
  beforeAll(async () => {
    const { uow } = suite.server.services;
    const append = (storeId: number, at: string, origin: ChangeOrigin, records: HistoryRecord[]) =>
      uow.transaction(async (repos) => {
        await repos.history.lockChain(storeId);
        await repos.history.append(storeId, at, origin, records);
      });
    const store = suite.tenant.storeId;
    await append(store, '2026-03-01T09:00:00.000Z', KEY, [record({ resource: 'customer', resourceId: 5, change: 'created', after: customer, customerId: 5 })]);
    await append(store, '2026-03-02T09:00:00.000Z', STAFF, [
      record({ resource: 'trade_price', resourceId: 40, change: 'created', after: tradePrice, customerId: 5, productId: 3, sku: 'TEE-M' }),
    ]);
    await append(store, '2026-03-03T09:00:00.000Z', IMPORT, [
      record({ resource: 'price_list_entry', resourceId: 41, change: 'created', after: listEntry, priceListId: 2, productId: 3, sku: 'TEE-L' }),
    ]);
    await append(store, '2026-03-04T09:00:00.000Z', KEY, [
      record({ resource: 'trade_price', resourceId: 40, change: 'deleted', before: tradePrice, customerId: 5, productId: 3, sku: 'TEE-M' }),
    ]);
    // The other store's history is never shown.
    await append(suite.other.storeId, '2026-03-01T10:00:00.000Z', KEY, [
      record({ resource: 'customer', resourceId: 99, change: 'created', after: { ...customer, id: 99 }, customerId: 5 }),
    ]);
    tradeOnly = (await suite.server.services.credentials.issueKey(store, ['trade_prices:read'])).token;
  });

  const get = async (query: string, token = suite.tenant.token) => {
    const response = await suite.api.request('GET', `/v1/price-history${query}`, { token });
    expect(response.status, response.text).toBe(200);
    return response.body as PriceHistoryEntry[];
  };
  const count = async (query: string) => {
    const response = await suite.api.request('GET', `/v1/price-history/count${query}`, { token: suite.tenant.token });
    expect(response.status, response.text).toBe(200);
    return (response.body as { count: number }).count;
  };

  it('answers the entries newest first, each with its place in the chain, its origin and its hashes', async () => {
    const entries = await get('');
    expect(entries.map((entry) => entry.id)).toEqual([4, 3, 2, 1]);
    expect(entries[3]).toEqual({
      id: 1,
      at: '2026-03-01T09:00:00.000Z',
      resource: 'customer',
      resourceId: 5,
      change: 'created',
      before: null,
      after: customer,
      actor: { type: 'key', id: 7, name: 'erp' },
      source: 'api',
      sourceId: null,
      requestId: 'req-1',
      hash: expect.stringMatching(/^[0-9a-f]{64}$/),
      prevHash: GENESIS_HASH,
    });
    expect(entries[1]).toMatchObject({ id: 3, source: 'import', sourceId: 12, actor: { type: 'key', id: 9, name: 'pk_abc' }, after: listEntry });
    expect(entries[0]).toMatchObject({ id: 4, change: 'deleted', before: tradePrice, after: null });
    // Each entry follows the one before it.
    for (let index = 0; index < entries.length - 1; index++) expect(entries[index]!.prevHash).toBe(entries[index + 1]!.hash);
    expect(await count('')).toBe(4);
  });

  it('narrows by customer, SKU, product, list, actor, resource and moment, the count alike', async () => {
    const ids = async (query: string) => (await get(query)).map((entry) => entry.id);
    const cases: Array<[string, number[]]> = [
      ['?customerId=5', [4, 2, 1]],
      ['?sku=TEE-M', [4, 2]],
      ['?productId=3', [4, 3, 2]],
      ['?priceListId=2', [3]],
      ['?actorId=7', [4, 2, 1]],
      ['?actorType=staff', [2]],
      ['?actorType=key&actorId=7', [4, 1]],
      ['?resource=trade_price', [4, 2]],
      ['?from=2026-03-02T09:00:00Z', [4, 3, 2]],
      ['?until=2026-03-02T09:00:00Z', [1]],
      ['?from=2026-03-02T10:00:00%2B01:00&until=2026-03-04T09:00:00.000Z', [3, 2]],
      ['?customerId=5&resource=customer', [1]],
      ['?customerId=6', []],
    ];
    for (const [query, expected] of cases) {
      expect(await ids(query), query).toEqual(expected);
      expect(await count(query), query).toBe(expected.length);
    }
  });

  it('pages with count and offset, and keeps only the fields asked for', async () => {
    expect((await get('?count=2')).map((entry) => entry.id)).toEqual([4, 3]);
    expect((await get('?count=2&offset=2')).map((entry) => entry.id)).toEqual([2, 1]);
    expect(await get('?offset=4')).toEqual([]);
    expect(await get('?fields=id,change&count=1')).toEqual([{ id: 4, change: 'deleted' }]);
  });

  it('refuses what other lists refuse: 400 code 9 naming the parameter', async () => {
    for (const query of [
      '?count=0',
      '?count=101',
      '?offset=-1',
      '?count=abc',
      '?customerId=0',
      '?actorType=robot',
      '?resource=order',
      '?from=yesterday',
      '?fields=id,secret',
      '?colour=red',
      '?embed=customer',
    ]) {
      const response = await suite.api.request('GET', `/v1/price-history${query}`, { token: suite.tenant.token });
      expectError(response, 400, 9);
    }
    expectError(await suite.api.request('GET', '/v1/price-history/count?count=5', { token: suite.tenant.token }), 400, 9);
  });

  it('shows customers’ personal fields only to a credential that reads customers', async () => {
    const [first] = await get('?resource=customer', tradeOnly);
    expect(first!.after).toEqual({ id: 5, trade: true, active: true, priceListIds: [], createdAt: customer.createdAt });
    // Other entries are whole: a trade price names its customer by id only.
    expect((await get('?resource=trade_price&count=1', tradeOnly))[0]!.before).toEqual(tradePrice);
    // The hash still covers what is stored: the entry's hashes are as a full reader sees them.
    expect(first!.hash).toBe((await get('?resource=customer'))[0]!.hash);
  });

  it('needs trade_prices:read', async () => {
    const catalogOnly = (await suite.server.services.credentials.issueKey(suite.tenant.storeId, ['catalog:read'])).token;
    expectError(await suite.api.request('GET', '/v1/price-history', { token: catalogOnly }), 403, 4);
    expectError(await suite.api.request('GET', '/v1/price-history/count', { token: catalogOnly }), 403, 4);
  });

  it('answers the head of the store’s chain, an anchor to keep elsewhere, and seq 0 for a store without history', async () => {
    const head = await suite.api.request('GET', '/v1/price-history/head', { token: tradeOnly });
    expect(head.status, head.text).toBe(200);
    const [newest] = await get('?count=1');
    expect(head.body).toEqual({ seq: 4, hash: newest!.hash, at: '2026-03-04T09:00:00.000Z' });
    expect((await suite.api.request('GET', '/v1/price-history/head?fields=seq', { token: suite.tenant.token })).body).toEqual({ seq: 4 });
    const empty = await suite.server.createTenant();
    expect((await suite.api.request('GET', '/v1/price-history/head', { token: empty.token })).body).toEqual({ seq: 0, hash: GENESIS_HASH, at: null });
    expectError(await suite.api.request('GET', '/v1/price-history/head?seq=3', { token: suite.tenant.token }), 400, 9);
    const catalogOnly = (await suite.server.services.credentials.issueKey(suite.tenant.storeId, ['catalog:read'])).token;
    expectError(await suite.api.request('GET', '/v1/price-history/head', { token: catalogOnly }), 403, 4);
  });

  it('answers hashes that a client can check again from the entries', async () => {
    const entries = (await get('')).reverse();
    let previous = GENESIS_HASH;
    for (const entry of entries) {
      expect(entry.prevHash).toBe(previous);
      previous = entry.hash;
    }
    // The first entry's hash is SHA-256 of the genesis hash and the canonical entry.
    const stored = await suite.server.services.uow.repos.history.chain(suite.tenant.storeId, { seq: 0, id: 0 }, 1);
    const { prevHash, hash, ...entry } = stored[0]!;
    expect(chainHash(prevHash, entry)).toBe(hash);
    expect(hash).toBe(entries[0]!.hash);
  });
});

describe.each(await enginesUnderTest())('the price history of changes made through the API on %s', (engine) => {
  const suite = suiteServer(engine, { tenants: 1 });

  it('answers who created and deleted a trade price, when, with the record as it was, and the chain holds', async () => {
    const token = suite.tenant.token;
    const call = async (method: string, path: string, body?: unknown) => {
      const response = await suite.api.request(method, path, { token, body });
      expect(response.status, response.text).toBeLessThan(300);
      return response;
    };
    const customer = (await call('POST', '/v1/customers', { email: 'grace@example.com', firstName: 'Grace', trade: true })).body as { id: number };
    const product = (await call('POST', '/v1/products', { title: 'Tee', sku: 'TEE', price: 10, variations: [{ sku: 'TEE-M', price: 11 }] })).body as {
      id: number;
    };
    const created = (
      await call('POST', '/v1/trade-customer-product-prices/bulk', [{ customerId: customer.id, productId: product.id, sku: 'TEE-M', price: 7.25 }])
    ).body as Array<{ id: number }>;
    await call('DELETE', `/v1/trade-customer-product-prices/${created[0]!.id}`);

    const response = await suite.api.request('GET', `/v1/price-history?customerId=${customer.id}&resource=trade_price`, { token });
    expect(response.status).toBe(200);
    const [deleted, made] = response.body as PriceHistoryEntry[];
    const record = {
      id: created[0]!.id,
      customerId: customer.id,
      productId: product.id,
      sku: 'TEE-M',
      price: 7.25,
      minQuantity: 1,
      validFrom: null,
      validUntil: null,
      createdAt: expect.any(String),
    };
    expect(made).toMatchObject({
      resource: 'trade_price',
      resourceId: created[0]!.id,
      change: 'created',
      before: null,
      after: record,
      actor: { type: 'key', id: suite.tenant.keyId },
      source: 'api',
      sourceId: null,
    });
    expect(deleted).toMatchObject({
      resource: 'trade_price',
      resourceId: created[0]!.id,
      change: 'deleted',
      before: record,
      after: null,
      actor: { type: 'key', id: suite.tenant.keyId },
      source: 'api',
    });
    expect(deleted!.id).toBeGreaterThan(made!.id);
    expect(typeof deleted!.requestId).toBe('string');
    expect(deleted!.requestId).not.toBe(made!.requestId);

    // By SKU: the variation's creation and both price entries; the customer's own entry by customerId.
    const bySku = (await suite.api.request('GET', '/v1/price-history?sku=TEE-M', { token })).body as PriceHistoryEntry[];
    expect(bySku.map((entry) => `${entry.resource}:${entry.change}`)).toEqual(['trade_price:deleted', 'trade_price:created', 'variation:created']);
    const ofCustomer = (await suite.api.request('GET', `/v1/price-history?customerId=${customer.id}&resource=customer`, { token })).body as PriceHistoryEntry[];
    expect(ofCustomer).toHaveLength(1);
    expect(ofCustomer[0]!.after).toMatchObject({ email: 'grace@example.com', firstName: 'Grace' });

    // The whole chain verifies, entry by entry, from the answers alone.
    const all = ((await suite.api.request('GET', '/v1/price-history?count=100', { token })).body as PriceHistoryEntry[]).reverse();
    expect(all[0]!.prevHash).toBe(GENESIS_HASH);
    for (let index = 1; index < all.length; index++) expect(all[index]!.prevHash).toBe(all[index - 1]!.hash);
    expect(all.map((entry) => entry.id)).toEqual(all.map((_entry, index) => index + 1));
  });
});

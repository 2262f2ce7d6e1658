import { describe, expect, it } from 'vitest';
import type { ReplaceTradePricesResult, TradePrice } from '../../src/contract/trade-prices.js';
import { TIMESTAMP } from '../support/bodies.js';
import { createCatalog } from '../support/catalog-fixture.js';
import { expectError } from '../support/conventions.js';
import { enginesUnderTest } from '../support/engines.js';
import { snapshotStore } from '../support/store-snapshot.js';
import { suiteServer } from '../support/suite-server.js';

const PATH = '/v1/trade-customer-product-prices';

describe.each(await enginesUnderTest())('replacing a customer’s trade prices on %s', (engine) => {
  const suite = suiteServer(engine, { catalogs: true });

  const replace = (body: unknown, headers: Record<string, string> = {}) =>
    suite.api.request('POST', `${PATH}/replace`, { token: suite.tenant.token, body, headers });
  const pricesOf = async (customerId: number) =>
    (await suite.api.request('GET', `${PATH}?customerId=${customerId}&count=100`, { token: suite.tenant.token })).body as TradePrice[];
  const eventsAfter = async (after: number) =>
    (
      (await suite.api.request('GET', `/v1/events?after=${after}&count=100`, { token: suite.tenant.token })).body as Array<{
        id: number;
        topic: string;
        subjectId: number;
      }>
    ).filter((event) => event.topic.startsWith('trade_customer_product_price.'));
  const lastEventId = async () => {
    const all = (await suite.api.request('GET', '/v1/events?count=100', { token: suite.tenant.token })).body as Array<{ id: number }>;
    let last = all.at(-1)?.id ?? 0;
    for (let page = all; page.length === 100;) {
      page = (await suite.api.request('GET', `/v1/events?after=${last}&count=100`, { token: suite.tenant.token })).body as Array<{ id: number }>;
      last = page.at(-1)?.id ?? last;
    }
    return last;
  };

  /** A fresh catalog whose trade customer has three prices: TEE-RED-M 9 and 8 (from 10), MUG 3. */
  async function customerWithPrices() {
    const catalog = await createCatalog(suite.server, suite.tenant);
    const items = [
      { customerId: catalog.tradeCustomer, productId: catalog.tee, sku: catalog.skus.teeRedM, price: 9 },
      { customerId: catalog.tradeCustomer, productId: catalog.tee, sku: catalog.skus.teeRedM, price: 8, minQuantity: 10 },
      { customerId: catalog.tradeCustomer, productId: catalog.mug, sku: catalog.skus.mug, price: 3 },
    ];
    const created = await suite.api.request('POST', `${PATH}/bulk`, { token: suite.tenant.token, body: items });
    expect(created.status).toBe(201);
    return { catalog, records: created.body as TradePrice[] };
  }

  it('makes the customer’s set exactly the prices sent: equal ones keep their ids, the rest goes and comes, each with its event', async () => {
    const { catalog, records } = await customerWithPrices();
    const [teeM, teeM10, mug] = records as [TradePrice, TradePrice, TradePrice];
    const before = await lastEventId();
    const desired = [
      { productId: catalog.tee, sku: catalog.skus.teeRedM, price: 8, minQuantity: 10 },
      { productId: catalog.tee, sku: catalog.skus.teeRedL, price: 11.5, validFrom: '2026-12-01T01:00:00+01:00' },
      { productId: catalog.tee, sku: catalog.skus.teeRedM, price: 9 },
    ];
    const response = await replace({ customerId: catalog.tradeCustomer, scope: 'customer', prices: desired });
    expect(response.status).toBe(200);
    const result = response.body as ReplaceTradePricesResult;
    expect(result.unchanged).toBe(2);
    expect(result.deleted).toEqual([mug]);
    expect(result.created).toEqual([
      {
        id: expect.any(Number),
        customerId: catalog.tradeCustomer,
        productId: catalog.tee,
        sku: catalog.skus.teeRedL,
        price: 11.5,
        minQuantity: 1,
        validFrom: '2026-12-01T00:00:00.000Z',
        validUntil: null,
        createdAt: expect.stringMatching(TIMESTAMP),
      },
    ]);
    const now = await pricesOf(catalog.tradeCustomer);
    expect(now.map((record) => record.id)).toEqual([teeM.id, teeM10.id, result.created[0]!.id]);
    expect(await eventsAfter(before)).toEqual([
      expect.objectContaining({ topic: 'trade_customer_product_price.deleted', subjectId: mug.id }),
      expect.objectContaining({ topic: 'trade_customer_product_price.created', subjectId: result.created[0]!.id }),
    ]);

    // The same request again changes nothing and writes no event.
    const again = await replace({ customerId: catalog.tradeCustomer, scope: 'customer', prices: desired });
    expect(again.body).toEqual({ created: [], deleted: [], unchanged: 3 });
    expect(await eventsAfter(before)).toHaveLength(2);
  });

  it('with scope "skus" replaces only the SKUs named, and an empty set for a customer clears it', async () => {
    const { catalog, records } = await customerWithPrices();
    const [teeM, teeM10, mug] = records as [TradePrice, TradePrice, TradePrice];
    const response = await replace({
      customerId: catalog.tradeCustomer,
      scope: 'skus',
      prices: [{ productId: catalog.tee, sku: catalog.skus.teeRedM, price: 7 }],
    });
    const result = response.body as ReplaceTradePricesResult;
    expect(result.deleted.map((record) => record.id)).toEqual([teeM.id, teeM10.id]);
    expect(result.created.map((record) => record.price)).toEqual([7]);
    expect((await pricesOf(catalog.tradeCustomer)).map((record) => record.id)).toEqual([mug.id, result.created[0]!.id]);

    expect((await replace({ customerId: catalog.tradeCustomer, scope: 'skus', prices: [] })).body).toEqual({ created: [], deleted: [], unchanged: 0 });
    const cleared = (await replace({ customerId: catalog.tradeCustomer, scope: 'customer', prices: [] })).body as ReplaceTradePricesResult;
    expect(cleared.deleted).toHaveLength(2);
    expect(await pricesOf(catalog.tradeCustomer)).toEqual([]);
  });

  it('in a dry run answers the same diff, with no ids for what it would create, and changes nothing', async () => {
    const { catalog, records } = await customerWithPrices();
    const before = await snapshotStore(suite.server.services.database, suite.tenant.storeId);
    const body = {
      customerId: catalog.tradeCustomer,
      scope: 'customer',
      dryRun: true,
      prices: [
        { productId: catalog.mug, sku: catalog.skus.mug, price: 3 },
        { productId: catalog.mug, sku: catalog.skus.mug, price: 3 },
      ],
    };
    const response = await replace(body);
    expect(response.status).toBe(200);
    const result = response.body as ReplaceTradePricesResult;
    expect(result.unchanged).toBe(1);
    expect(result.deleted).toEqual(records.slice(0, 2));
    expect(result.created).toEqual([
      {
        id: null,
        customerId: catalog.tradeCustomer,
        productId: catalog.mug,
        sku: catalog.skus.mug,
        price: 3,
        minQuantity: 1,
        validFrom: null,
        validUntil: null,
        createdAt: null,
      },
    ]);
    expect(await snapshotStore(suite.server.services.database, suite.tenant.storeId)).toEqual(before);

    // The real run gives the same diff, with ids.
    const real = (await replace({ ...body, dryRun: false })).body as ReplaceTradePricesResult;
    expect({ ...real, created: real.created.map((record) => ({ ...record, id: null, createdAt: null })) }).toEqual(result);
  });

  it('reports every invalid item with its index and field, as a bulk create does, and stores nothing', async () => {
    const { catalog } = await customerWithPrices();
    const before = await snapshotStore(suite.server.services.database, suite.tenant.storeId);
    const valid = { productId: catalog.tee, sku: catalog.skus.tee, price: 5 };
    const response = await replace({
      customerId: catalog.tradeCustomer,
      scope: 'customer',
      prices: [
        valid,
        { ...valid, productId: 999_999 },
        { ...valid, sku: catalog.skus.mug },
        { ...valid, price: -1 },
        { ...valid, minQuantity: 0 },
        { ...valid, validFrom: '2026-02-01T00:00:00Z', validUntil: '2026-01-01T00:00:00Z' },
        { ...valid, customerId: catalog.tradeCustomer },
        null,
        { ...valid, productId: suite.foreign.tee },
      ],
    });
    expectError(response, 422, 10);
    const errors = (response.body as { errors: Array<{ index?: number; field: string | null }> }).errors;
    expect(errors.map(({ index, field }) => [index, field])).toEqual([
      [1, 'productId'],
      [2, 'sku'],
      [3, 'price'],
      [4, 'minQuantity'],
      [5, 'validUntil'],
      [6, 'customerId'],
      [7, null],
      [8, 'productId'],
    ]);
    expect(await snapshotStore(suite.server.services.database, suite.tenant.storeId)).toEqual(before);
  });

  it('reports the store’s problems of an item beside the schema’s, and the customer’s first', async () => {
    const { catalog } = await customerWithPrices();
    const before = await snapshotStore(suite.server.services.database, suite.tenant.storeId);
    const valid = { productId: catalog.tee, sku: catalog.skus.tee, price: 5 };
    const response = await replace({
      customerId: catalog.regularCustomer,
      scope: 'customer',
      prices: [valid, { ...valid, productId: 999_999, price: -1 }, { ...valid, sku: 'NO-SUCH-SKU', minQuantity: 0 }],
    });
    expectError(response, 422, 10);
    const errors = (response.body as { errors: Array<{ index?: number; field: string | null; message: string }> }).errors;
    expect(errors.map(({ index, field }) => [index, field])).toEqual([
      [undefined, 'customerId'],
      [1, 'price'],
      [1, 'productId'],
      [2, 'minQuantity'],
      [2, 'sku'],
    ]);
    expect(errors[0]!.message).toBe(`Customer ${catalog.regularCustomer} is not a trade customer`);
    expect(await snapshotStore(suite.server.services.database, suite.tenant.storeId)).toEqual(before);
  });

  it.each([
    ['an unknown customer', () => ({ customerId: 999_999, scope: 'customer', prices: [] }), [[undefined, 'customerId']]],
    [
      'a regular customer given prices',
      (c: { regularCustomer: number; mug: number; skus: { mug: string } }) => ({
        customerId: c.regularCustomer,
        scope: 'customer',
        prices: [{ productId: c.mug, sku: c.skus.mug, price: 1 }],
      }),
      [[undefined, 'customerId']],
    ],
    ['no scope', (c: { tradeCustomer: number }) => ({ customerId: c.tradeCustomer, prices: [] }), [[undefined, 'scope']]],
    ['an unknown scope', (c: { tradeCustomer: number }) => ({ customerId: c.tradeCustomer, scope: 'all', prices: [] }), [[undefined, 'scope']]],
    ['prices that are no array', (c: { tradeCustomer: number }) => ({ customerId: c.tradeCustomer, scope: 'customer', prices: {} }), [[undefined, 'prices']]],
    [
      '10 001 prices',
      (c: { tradeCustomer: number }) => ({
        customerId: c.tradeCustomer,
        scope: 'customer',
        prices: Array.from({ length: 10_001 }, () => ({ productId: 1, sku: 'X', price: 1 })),
      }),
      [[undefined, 'prices']],
    ],
    [
      'an unknown field',
      (c: { tradeCustomer: number }) => ({ customerId: c.tradeCustomer, scope: 'customer', prices: [], force: true }),
      [[undefined, 'force']],
    ],
  ])('refuses %s with a 422 naming the field', async (_name, bodyOf, expected) => {
    const response = await replace(bodyOf(suite.catalog as never));
    expectError(response, 422, 10);
    expect((response.body as { errors: Array<{ index?: number; field: string | null }> }).errors.map(({ index, field }) => [index, field])).toEqual(expected);
  });

  it('replaces 10 000 prices in one request, and another store’s customer is unknown', async () => {
    const catalog = await createCatalog(suite.server, suite.tenant);
    const prices = Array.from({ length: 10_000 }, (_, i) => ({ productId: catalog.mug, sku: catalog.skus.mug, price: i / 100, minQuantity: 1 + (i % 5) }));
    const response = await replace({ customerId: catalog.tradeCustomer, scope: 'customer', prices });
    expect(response.status).toBe(200);
    expect((response.body as ReplaceTradePricesResult).created).toHaveLength(10_000);
    expect(
      ((await suite.api.request('GET', `${PATH}/count?customerId=${catalog.tradeCustomer}`, { token: suite.tenant.token })).body as { count: number }).count,
    ).toBe(10_000);
    const again = await replace({ customerId: catalog.tradeCustomer, scope: 'customer', prices });
    expect((again.body as ReplaceTradePricesResult).unchanged).toBe(10_000);

    const foreign = await replace({ customerId: suite.foreign.tradeCustomer, scope: 'customer', prices: [] });
    expectError(foreign, 422, 10);
  });

  it('replays a key’s first answer, needs trade_prices:write, and has no GET', async () => {
    const { catalog } = await customerWithPrices();
    const body = { customerId: catalog.tradeCustomer, scope: 'skus', prices: [{ productId: catalog.mug, sku: catalog.skus.mug, price: 2.5 }] };
    const first = await replace(body, { 'idempotency-key': `replace-${engine}-1` });
    const second = await replace(body, { 'idempotency-key': `replace-${engine}-1` });
    expect(second.status).toBe(200);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.body).toEqual(first.body);
    expect((await pricesOf(catalog.tradeCustomer)).filter((record) => record.sku === catalog.skus.mug)).toHaveLength(1);

    const reader = await suite.server.services.credentials.issueKey(suite.tenant.storeId, ['trade_prices:read']);
    expectError(await suite.api.request('POST', `${PATH}/replace`, { token: reader.token, body }), 403, 4);
    expectError(await suite.api.request('GET', `${PATH}/replace`, { token: suite.tenant.token }), 405, 6);
  });
});

import { describe, expect, it } from 'vitest';
import type { TradePrice } from '../../src/contract/trade-prices.js';
import { TIMESTAMP } from '../support/bodies.js';
import { createCatalog } from '../support/catalog-fixture.js';
import { enginesUnderTest } from '../support/engines.js';
import { suiteServer } from '../support/suite-server.js';
import { requestStatements, startTestServer } from '../support/test-server.js';

const PATH = '/v1/trade-customer-product-prices';

describe.each(await enginesUnderTest())('trade customer product prices on %s', (engine) => {
  const suite = suiteServer(engine, { catalogs: true });

  const bulk = (body: unknown, headers: Record<string, string> = {}, token = suite.tenant.token) =>
    suite.server.request('POST', `${PATH}/bulk`, { token, body, headers });
  const count = async (query = '') =>
    ((await suite.server.request('GET', `${PATH}/count${query}`, { token: suite.tenant.token })).body as { count: number }).count;

  it('creates records in request order and returns every value exactly as sent', async () => {
    const items = [
      { customerId: suite.catalog.tradeCustomer, productId: suite.catalog.tee, sku: suite.catalog.skus.teeRedM, price: 12.5 },
      { customerId: suite.catalog.tradeCustomer, productId: suite.catalog.mug, sku: suite.catalog.skus.mug, price: 0.1 },
      { customerId: suite.catalog.otherTradeCustomer, productId: suite.catalog.tee, sku: suite.catalog.skus.tee, price: 1234.5678 },
      { customerId: suite.catalog.otherTradeCustomer, productId: suite.catalog.tee, sku: suite.catalog.skus.teeRedL, price: 999_999_999.9999 },
      { customerId: suite.catalog.otherTradeCustomer, productId: suite.catalog.mug, sku: suite.catalog.skus.mug, price: 0 },
    ];
    const response = await bulk(items);
    expect(response.status).toBe(201);
    const records = response.body as TradePrice[];
    expect(records.map(({ customerId, productId, sku, price }) => ({ customerId, productId, sku, price }))).toEqual(items);
    expect(response.text).toContain('"price":12.5,');
    expect(response.text).toContain('"price":0.1,');
    expect(response.text).toContain('"price":1234.5678,');
    expect(response.text).toContain('"price":999999999.9999,');
    const ids = records.map((record) => record.id);
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
    for (const record of records) {
      const fetched = await suite.server.request('GET', `${PATH}/${record.id}`, { token: suite.tenant.token });
      expect(fetched.status).toBe(200);
      expect(fetched.body).toEqual(record);
    }
  });

  it('never de-duplicates: the same item twice makes two records', async () => {
    const item = { customerId: suite.catalog.tradeCustomer, productId: suite.catalog.mug, sku: suite.catalog.skus.mug, price: 3 };
    const before = await count(`?customerId=${suite.catalog.tradeCustomer}&sku=${suite.catalog.skus.mug}`);
    const first = await bulk([item, item]);
    const second = await bulk([item]);
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(await count(`?customerId=${suite.catalog.tradeCustomer}&sku=${suite.catalog.skus.mug}`)).toBe(before + 3);
  });

  it('reports each stated cause with its index and field, and creates nothing', async () => {
    const valid = { customerId: suite.catalog.tradeCustomer, productId: suite.catalog.tee, sku: suite.catalog.skus.tee, price: 5 };
    const before = await count();
    const response = await bulk([
      valid,
      { ...valid, customerId: 999_999 },
      { ...valid, customerId: suite.foreign.tradeCustomer },
      { ...valid, customerId: suite.catalog.regularCustomer },
      { ...valid, productId: 999_999 },
      { ...valid, productId: suite.foreign.tee },
      { ...valid, sku: suite.catalog.skus.mug },
      { ...valid, sku: suite.catalog.skus.teeRedM.toLowerCase() },
      { customerId: valid.customerId, productId: valid.productId, sku: valid.sku },
      { productId: valid.productId, sku: valid.sku, price: 1 },
      'not an object',
      { ...valid, customerId: String(valid.customerId) },
      { ...valid, price: 1.23456 },
      { ...valid, price: -1 },
      { ...valid, price: 1_000_000_000 },
      { ...valid, colour: 'red' },
      { ...valid, sku: '' },
    ]);
    expect(response.status).toBe(422);
    const body = response.body as { code: number; message: string; errors: Array<{ index: number; field: string | null; message: string }> };
    expect(body.code).toBe(10);
    expect(body.message).toBe('Validation failed: 16 of 17 items are invalid');
    const found = body.errors.map(({ index, field }) => [index, field]);
    expect(found).toEqual([
      [1, 'customerId'],
      [2, 'customerId'],
      [3, 'customerId'],
      [4, 'productId'],
      [5, 'productId'],
      [6, 'sku'],
      [7, 'sku'],
      [8, 'price'],
      [9, 'customerId'],
      [10, null],
      [11, 'customerId'],
      [12, 'price'],
      [13, 'price'],
      [14, 'price'],
      [15, 'colour'],
      [16, 'sku'],
    ]);
    expect(body.errors.find((error) => error.index === 8)?.message).toBe('is required');
    expect(body.errors.find((error) => error.index === 3)?.message).toMatch(/not a trade customer/);
    expect(body.errors.find((error) => error.index === 6)?.message).toMatch(/does not belong to product/);
    expect(await count()).toBe(before);
  });

  it('reports the store’s problems of an item beside the schema’s, in one answer', async () => {
    const valid = { customerId: suite.catalog.tradeCustomer, productId: suite.catalog.tee, sku: suite.catalog.skus.tee, price: 5 };
    const before = await count();
    const response = await bulk([
      { ...valid, productId: 999_999, price: 1.23456 },
      { ...valid, customerId: 'x', sku: suite.catalog.skus.mug },
      { ...valid, customerId: suite.catalog.regularCustomer, validFrom: 'next tuesday' },
      { ...valid, productId: 'p', sku: 'NO-SUCH-SKU' },
      { ...valid, productId: 'p', sku: suite.catalog.skus.mug, minQuantity: 0 },
      valid,
    ]);
    expect(response.status).toBe(422);
    const body = response.body as { message: string; errors: Array<{ index: number; field: string | null; message: string }> };
    expect(body.message).toBe('Validation failed: 5 of 6 items are invalid');
    expect(body.errors.map(({ index, field }) => [index, field])).toEqual([
      [0, 'price'],
      [0, 'productId'],
      [1, 'customerId'],
      [1, 'sku'],
      [2, 'validFrom'],
      [2, 'customerId'],
      [3, 'productId'],
      [3, 'sku'],
      [4, 'productId'],
      [4, 'minQuantity'],
    ]);
    expect(body.errors[1]!.message).toBe('Product 999999 does not exist in this store');
    expect(body.errors[3]!.message).toBe(`SKU '${suite.catalog.skus.mug}' does not belong to product ${suite.catalog.tee}`);
    expect(body.errors[5]!.message).toBe(`Customer ${suite.catalog.regularCustomer} is not a trade customer`);
    expect(body.errors[7]!.message).toBe("SKU 'NO-SUCH-SKU' does not exist in this store");
    expect(await count()).toBe(before);
  });

  it('quotes the value each problem refused, as sent: a price computed in JavaScript shows its fifth decimal', async () => {
    const valid = { customerId: suite.catalog.tradeCustomer, productId: suite.catalog.tee, sku: suite.catalog.skus.tee, price: 5 };
    const before = await count();
    const longSku = `${'X'.repeat(60)}\u0007`;
    const response = await bulk([
      { ...valid, price: 1 + 14 / 100 },
      { ...valid, price: 5.12345 },
      { ...valid, customerId: String(valid.customerId) },
      { ...valid, sku: longSku },
      { customerId: valid.customerId, productId: valid.productId, sku: valid.sku },
      { ...valid, price: { amount: 5 } },
      { ...valid, price: null },
    ]);
    expect(response.status).toBe(422);
    expect((response.body as { errors: unknown }).errors).toEqual([
      { index: 0, field: 'price', message: 'must have at most 4 decimal places', value: 1.1400000000000001 },
      { index: 1, field: 'price', message: 'must have at most 4 decimal places', value: 5.12345 },
      { index: 2, field: 'customerId', message: 'must be integer', value: String(valid.customerId) },
      { index: 3, field: 'sku', message: expect.any(String) as unknown, value: `${'X'.repeat(40)}…` },
      // No value for a missing field, nor for an object: there is no single value to quote.
      { index: 4, field: 'price', message: 'is required' },
      { index: 5, field: 'price', message: 'must be number' },
      { index: 6, field: 'price', message: 'must be number', value: null },
    ]);
    // The number as JSON writes it: the binary artefact the client sent is what it is shown.
    expect(response.text).toContain('"value":1.1400000000000001');
    expect(await count()).toBe(before);
  });

  it.each([
    ['an object', { customerId: 1 }],
    ['an empty array', []],
    ['null', null],
    ['1001 items', Array.from({ length: 1001 }, () => ({ customerId: 1, productId: 1, sku: 'X', price: 1 }))],
  ])('refuses a body that is %s as invalid JSON structure', async (_name, body) => {
    const response = await bulk(body);
    expect(response.status).toBe(422);
    expect(response.body).toMatchObject({ code: 10, errors: [{ field: null }] });
    expect((response.body as { errors: Array<{ index?: number }> }).errors.every((error) => error.index === undefined)).toBe(true);
  });

  it('a batch with more problems than a report lists is refused whole, never half-checked', async () => {
    const before = await count();
    const response = await bulk(Array.from({ length: 1000 }, (_, i) => ({ customerId: `c${i}`, productId: 'p', sku: i, price: 'x' })));
    expect(response.status).toBe(422);
    const body = response.body as { code: number; message: string; errors: unknown[] };
    expect(body.code).toBe(10);
    expect(body.message).toBe('Validation failed: 1000 of 1000 items are invalid');
    expect(body.errors).toHaveLength(1000);
    expect(await count()).toBe(before);
  });

  it('lists by customer in id order with count, offset, fields and embeds', async () => {
    const customer = (await suite.server.request('POST', '/v1/customers', { token: suite.tenant.token, body: { email: 'lister@example.com', trade: true } }))
      .body as { id: number };
    const items = Array.from({ length: 7 }, (_, i) => ({
      customerId: customer.id,
      productId: suite.catalog.mug,
      sku: suite.catalog.skus.mug,
      price: i + 0.25,
    }));
    const created = (await bulk(items)).body as TradePrice[];
    const page = await suite.server.request('GET', `${PATH}?customerId=${customer.id}&count=3&offset=2`, { token: suite.tenant.token });
    expect(page.status).toBe(200);
    expect(page.body).toEqual(created.slice(2, 5));
    expect(await count(`?customerId=${customer.id}`)).toBe(7);
    const narrow = await suite.server.request('GET', `${PATH}?customerId=${customer.id}&fields=id,price&count=2`, { token: suite.tenant.token });
    expect(narrow.body).toEqual(created.slice(0, 2).map(({ id, price }) => ({ id, price })));
    const embedded = await suite.server.request('GET', `${PATH}/${created[0]!.id}?embed=customer,product`, { token: suite.tenant.token });
    expect(embedded.body).toMatchObject({
      id: created[0]!.id,
      customer: { id: customer.id, email: 'lister@example.com' },
      product: { id: suite.catalog.mug, title: 'Mug', sku: suite.catalog.skus.mug, price: 4.2 },
    });
    const embeddedList = await suite.server.request('GET', `${PATH}?customerId=${customer.id}&embed=product&fields=id`, { token: suite.tenant.token });
    expect((embeddedList.body as Array<{ id: number; product: { id: number } }>).map((record) => [Object.keys(record), record.product.id])).toEqual(
      created.map(() => [['id', 'product'], suite.catalog.mug]),
    );
    const other = await suite.server.request('GET', `${PATH}?customerId=${customer.id}`, { token: (await suite.server.createTenant()).token });
    expect(other.body).toEqual([]);
  });

  it('deletes one record; another store cannot see or delete it', async () => {
    const [record] = (await bulk([{ customerId: suite.catalog.tradeCustomer, productId: suite.catalog.mug, sku: suite.catalog.skus.mug, price: 2 }]))
      .body as TradePrice[];
    expect((await suite.server.request('GET', `${PATH}/${record!.id}`, { token: suite.other.token })).status).toBe(404);
    expect((await suite.server.request('DELETE', `${PATH}/${record!.id}`, { token: suite.other.token })).status).toBe(404);
    const deleted = await suite.server.request('DELETE', `${PATH}/${record!.id}`, { token: suite.tenant.token });
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    expect((await suite.server.request('GET', `${PATH}/${record!.id}`, { token: suite.tenant.token })).status).toBe(404);
    expect((await suite.server.request('DELETE', `${PATH}/${record!.id}`, { token: suite.tenant.token })).status).toBe(404);
  });

  it('explains the effective price: newest trade price wins, older ones are shadowed', async () => {
    const fixture = await createCatalog(suite.server, suite.tenant);
    const effective = (customerId: number, sku: string) =>
      suite.server.request('GET', `${PATH}/effective?customerId=${customerId}&sku=${encodeURIComponent(sku)}`, { token: suite.tenant.token });
    expect((await effective(fixture.tradeCustomer, fixture.skus.teeRedM)).body).toEqual({
      customerId: fixture.tradeCustomer,
      sku: fixture.skus.teeRedM,
      productId: fixture.tee,
      variationId: expect.any(Number),
      quantity: 1,
      at: expect.stringMatching(TIMESTAMP),
      price: 12.5,
      source: 'variation',
      tradePriceId: null,
      priceListId: null,
      priceListPriceId: null,
      validUntil: null,
      nextChangeAt: null,
      quantityRule: null,
      shadowedTradePriceIds: [],
      candidateCount: 0,
      candidates: [],
    });
    expect((await effective(fixture.tradeCustomer, fixture.skus.teeRedL)).body).toMatchObject({ price: 10, source: 'product' });
    expect((await effective(fixture.tradeCustomer, fixture.skus.tee)).body).toMatchObject({ price: 10, source: 'product', variationId: null });

    const item = { customerId: fixture.tradeCustomer, productId: fixture.tee, sku: fixture.skus.teeRedM };
    const [older] = (await bulk([{ ...item, price: 9 }])).body as TradePrice[];
    const [newer] = (await bulk([{ ...item, price: 8.75 }])).body as TradePrice[];
    expect((await effective(fixture.tradeCustomer, fixture.skus.teeRedM)).body).toMatchObject({
      price: 8.75,
      source: 'trade',
      tradePriceId: newer!.id,
      shadowedTradePriceIds: [older!.id],
    });
    await suite.server.request('DELETE', `${PATH}/${newer!.id}`, { token: suite.tenant.token });
    expect((await effective(fixture.tradeCustomer, fixture.skus.teeRedM)).body).toMatchObject({
      price: 9,
      source: 'trade',
      tradePriceId: older!.id,
      shadowedTradePriceIds: [],
    });

    // Trade prices apply only while the customer is a trade customer.
    await suite.server.request('PUT', `/v1/customers/${fixture.tradeCustomer}`, { token: suite.tenant.token, body: { trade: false } });
    expect((await effective(fixture.tradeCustomer, fixture.skus.teeRedM)).body).toMatchObject({
      price: 12.5,
      source: 'variation',
      tradePriceId: null,
      shadowedTradePriceIds: [older!.id],
    });

    expect((await effective(fixture.tradeCustomer, 'NO-SUCH-SKU')).status).toBe(404);
    expect((await effective(999_999, fixture.skus.tee)).status).toBe(404);
    expect((await effective(suite.foreign.tradeCustomer, suite.foreign.skus.tee)).status).toBe(404);
    const missing = await suite.server.request('GET', `${PATH}/effective?sku=${fixture.skus.tee}`, { token: suite.tenant.token });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ code: 9 });
    expect((missing.body as { message: string }).message).toContain('customerId');
  });

  it('deleting a customer deletes its trade prices in the same transaction', async () => {
    const fixture = await createCatalog(suite.server, suite.tenant);
    await bulk([{ customerId: fixture.tradeCustomer, productId: fixture.mug, sku: fixture.skus.mug, price: 1 }]);
    expect(await count(`?customerId=${fixture.tradeCustomer}`)).toBe(1);
    expect((await suite.server.request('DELETE', `/v1/customers/${fixture.tradeCustomer}`, { token: suite.tenant.token })).status).toBe(204);
    expect(await count(`?customerId=${fixture.tradeCustomer}`)).toBe(0);
  });

  describe('Idempotency-Key', () => {
    const item = () => ({ customerId: suite.catalog.tradeCustomer, productId: suite.catalog.mug, sku: suite.catalog.skus.mug, price: 6.5 });

    it('replays the first response for the same key and body, and creates nothing more', async () => {
      const key = `replay-${engine}-${Date.now()}`;
      const before = await count();
      const first = await bulk([item(), item()], { 'idempotency-key': key });
      const second = await bulk([item(), item()], { 'idempotency-key': key });
      expect(first.status).toBe(201);
      expect(first.headers['idempotent-replayed']).toBeUndefined();
      expect(second.status).toBe(201);
      expect(second.headers['idempotent-replayed']).toBe('true');
      expect(second.text).toBe(first.text);
      expect(await count()).toBe(before + 2);
      // The key belongs to the store: another store's identical request is its own.
      expect(
        (
          await bulk(
            [{ customerId: suite.foreign.tradeCustomer, productId: suite.foreign.mug, sku: suite.foreign.skus.mug, price: 1 }],
            { 'idempotency-key': key },
            suite.other.token,
          )
        ).headers['idempotent-replayed'],
      ).toBeUndefined();
    });

    it('refuses the same key with another body (422, code 13)', async () => {
      const key = `different-${engine}-${Date.now()}`;
      expect((await bulk([item()], { 'idempotency-key': key })).status).toBe(201);
      const before = await count();
      const reused = await bulk([{ ...item(), price: 7 }], { 'idempotency-key': key });
      expect(reused.status).toBe(422);
      expect(reused.body).toMatchObject({ code: 13 });
      expect(await count()).toBe(before);
    });

    it('the fingerprint is the raw bytes: the same JSON written differently is another body', async () => {
      const key = `bytes-${engine}-${Date.now()}`;
      const body = JSON.stringify([item()]);
      expect(
        (
          await suite.server.request('POST', `${PATH}/bulk`, {
            token: suite.tenant.token,
            rawBody: body,
            headers: { 'content-type': 'application/json', 'idempotency-key': key },
          })
        ).status,
      ).toBe(201);
      const spaced = await suite.server.request('POST', `${PATH}/bulk`, {
        token: suite.tenant.token,
        rawBody: ` ${body}`,
        headers: { 'content-type': 'application/json', 'idempotency-key': key },
      });
      expect(spaced.status).toBe(422);
      expect(spaced.body).toMatchObject({ code: 13 });
    });

    it('20 concurrent requests with one key create exactly one batch', async () => {
      const key = `concurrent-${engine}-${Date.now()}`;
      const before = await count();
      const responses = await Promise.all(Array.from({ length: 20 }, () => bulk([item(), item(), item()], { 'idempotency-key': key })));
      const statuses = responses.map((response) => response.status);
      expect(statuses.every((status) => status === 201 || status === 409)).toBe(true);
      const created = responses.filter((response) => response.status === 201);
      expect(created.filter((response) => response.headers['idempotent-replayed'] === undefined)).toHaveLength(1);
      expect(new Set(created.map((response) => response.text)).size).toBe(1);
      for (const conflict of responses.filter((response) => response.status === 409)) expect(conflict.body).toMatchObject({ code: 13 });
      expect(await count()).toBe(before + 3);
    });

    it('a failed create does not consume its key', async () => {
      const key = `failed-${engine}-${Date.now()}`;
      expect((await bulk([{ ...item(), customerId: 999_999 }], { 'idempotency-key': key })).status).toBe(422);
      expect((await bulk([{ ...item(), customerId: 999_999 }], { 'idempotency-key': key })).body).toMatchObject({ code: 10 });
    });

    it.each([
      ['too long', 'k'.repeat(256)],
      ['empty', ''],
    ])('refuses a key that is %s', async (_name, key) => {
      const response = await bulk([item()], { 'idempotency-key': key });
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ code: 9 });
    });
  });

  it('20 concurrent 1000-item bulk creates: all 201, ids distinct, exact count', async () => {
    const customer = (
      await suite.server.request('POST', '/v1/customers', { token: suite.tenant.token, body: { email: `bulk-${engine}@example.com`, trade: true } })
    ).body as { id: number };
    const batch = (n: number) =>
      Array.from({ length: 1000 }, (_, i) => ({
        customerId: customer.id,
        productId: suite.catalog.tee,
        sku: suite.catalog.skus.teeRedM,
        price: (n * 10_000 + i) / 10_000,
      }));
    const responses = await Promise.all(Array.from({ length: 20 }, (_, n) => bulk(batch(n))));
    expect(responses.map((response) => response.status)).toEqual(Array(20).fill(201));
    const ids = responses.flatMap((response) => (response.body as TradePrice[]).map((record) => record.id));
    expect(new Set(ids).size).toBe(20_000);
    responses.forEach((response, n) => expect((response.body as TradePrice[]).map((record) => record.price)).toEqual(batch(n).map((item) => item.price)));
    expect(await count(`?customerId=${customer.id}`)).toBe(20_000);
  });
});

describe('bulk create cost', () => {
  it('runs the same number of SQL statements for 1 item and for 1000', async () => {
    const server = await startTestServer('sqlite');
    try {
      const tenant = await server.createTenant();
      const catalog = await createCatalog(server, tenant);
      const item = { customerId: catalog.tradeCustomer, productId: catalog.tee, sku: catalog.skus.teeRedM, price: 1 };
      const statementsFor = async (items: unknown[]) => {
        server.statements.length = 0;
        const response = await server.request('POST', `${PATH}/bulk`, { token: tenant.token, body: items });
        expect(response.status).toBe(201);
        return requestStatements(server.statements).length;
      };
      const one = await statementsFor([item]);
      const thousand = await statementsFor(Array.from({ length: 1000 }, () => item));
      expect(thousand).toBe(one);
      // Three set-based reference checks, one multi-row insert, one for the events; the price
      // history's three: the chain's lock, its entries, its new head; and the store's approval
      // setting, read for a credential without trade_prices:direct (docs/change-sets.md).
      expect(one).toBeLessThanOrEqual(9);
    } finally {
      await server.close();
    }
  });
});

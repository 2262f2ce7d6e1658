import { beforeAll, describe, expect, it } from 'vitest';
import type { Order } from '../../src/contract/orders.js';
import { type ProblemBody, TIMESTAMP } from '../support/bodies.js';
import { createCatalog } from '../support/catalog-fixture.js';
import { expectError } from '../support/conventions.js';
import { enginesUnderTest } from '../support/engines.js';
import { suiteServer } from '../support/suite-server.js';
import { requestStatements, startTestServer } from '../support/test-server.js';

const PATH = '/v1/orders';
let sequence = 0;

describe.each(await enginesUnderTest())('orders on %s', (engine) => {
  const suite = suiteServer(engine, { catalogs: true });
  let inactiveCustomer: number;
  let inactiveProductSku: string;
  let tinySku: string;
  let hugeSku: string;

  beforeAll(async () => {
    inactiveCustomer = await post('/v1/customers', { email: 'gone@example.com', trade: true, active: false });
    [inactiveProductSku, tinySku, hugeSku] = ['RETIRED', 'TINY', 'HUGE'].map((name) => `${name}-${engine}`) as [string, string, string];
    await post('/v1/products', { title: 'Retired', sku: inactiveProductSku, price: 1, active: false });
    await post('/v1/products', { title: 'Tiny', sku: tinySku, price: 0.0001 });
    await post('/v1/products', { title: 'Huge', sku: hugeSku, price: 999_999_999.9999 });
  });

  async function post(path: string, body: unknown): Promise<number> {
    const response = await suite.server.request('POST', path, { token: suite.tenant.token, body });
    expect(response.status, response.text).toBe(201);
    return (response.body as { id: number }).id;
  }
  const place = (body: unknown, headers: Record<string, string> = {}, token = suite.tenant.token) =>
    suite.server.request('POST', PATH, { token, body, headers });
  const placed = async (body: unknown): Promise<Order> => {
    const response = await place(body);
    expect(response.status, response.text).toBe(201);
    return response.body as Order;
  };
  const get = (path: string, token = suite.tenant.token) => suite.server.request('GET', path, { token });
  const count = async (query = '') => ((await get(`${PATH}/count${query}`)).body as { count: number }).count;
  const addTradePrice = async (customerId: number, productId: number, sku: string, price: number): Promise<number> => {
    const response = await suite.server.request('POST', '/v1/trade-customer-product-prices/bulk', {
      token: suite.tenant.token,
      body: [{ customerId, productId, sku, price }],
    });
    expect(response.status, response.text).toBe(201);
    return (response.body as Array<{ id: number }>)[0]!.id;
  };

  it('keeps the currency the order was placed in when the store changes its own; the quote and the new order name the new one', async () => {
    const fixture = await createCatalog(suite.server, suite.tenant);
    const body = { customerId: fixture.tradeCustomer, lines: [{ sku: fixture.skus.mug, quantity: 1 }] };
    const before = await placed(body);
    expect(before.currency).toBe('GBP');
    await suite.server.services.credentials.setMoney(suite.tenant.storeId, { currency: 'EUR' });
    try {
      expect(((await get(`${PATH}/${before.id}`)).body as Order).currency).toBe('GBP');
      expect((await placed(body)).currency).toBe('EUR');
      expect(((await suite.server.request('POST', '/v1/quotes', { token: suite.tenant.token, body })).body as { currency: string }).currency).toBe('EUR');
      expect(((await get(`${PATH}?customerId=${fixture.tradeCustomer}`)).body as Order[]).map((order) => order.currency)).toEqual(['GBP', 'EUR']);
    } finally {
      await suite.server.services.credentials.setMoney(suite.tenant.storeId, { currency: 'GBP' });
    }
  });

  it('prices at the newest trade price, captures it, and later price changes touch only new orders', async () => {
    const fixture = await createCatalog(suite.server, suite.tenant);
    await addTradePrice(fixture.tradeCustomer, fixture.tee, fixture.skus.teeRedM, 9);
    const newer = await addTradePrice(fixture.tradeCustomer, fixture.tee, fixture.skus.teeRedM, 8.75);
    const body = {
      customerId: fixture.tradeCustomer,
      lines: [
        { sku: fixture.skus.teeRedM, quantity: 2 },
        { sku: fixture.skus.mug, quantity: 3 },
      ],
    };

    const first = await place(body);
    expect(first.status).toBe(201);
    const order = first.body as Order;
    expect(order).toEqual({
      id: expect.any(Number),
      customerId: fixture.tradeCustomer,
      status: 'placed',
      currency: 'GBP',
      lines: [
        {
          sku: fixture.skus.teeRedM,
          quantity: 2,
          productId: fixture.tee,
          variationId: expect.any(Number),
          unitPrice: 8.75,
          lineTotal: 17.5,
          source: 'trade',
          tradePriceId: newer,
          priceListId: null,
          priceListPriceId: null,
        },
        {
          sku: fixture.skus.mug,
          quantity: 3,
          productId: fixture.mug,
          variationId: null,
          unitPrice: 4.2,
          lineTotal: 12.6,
          source: 'product',
          tradePriceId: null,
          priceListId: null,
          priceListPriceId: null,
        },
      ],
      total: 30.1,
      createdAt: expect.stringMatching(TIMESTAMP),
    });
    // 4.2 × 3 is 12.600000000000001 in binary floating point.
    expect(first.text).toContain('"lineTotal":12.6,');
    expect(first.text).toContain('"total":30.1,');

    expect((await suite.server.request('DELETE', `/v1/trade-customer-product-prices/${newer}`, { token: suite.tenant.token })).status).toBe(204);
    const second = await placed(body);
    expect(second.lines.map((line) => line.unitPrice)).toEqual([9, 4.2]);
    expect(second.total).toBe(30.6);

    // More changes after both orders: a new trade price, a new catalog price.
    await addTradePrice(fixture.tradeCustomer, fixture.mug, fixture.skus.mug, 1);
    expect((await suite.server.request('PUT', `/v1/products/${fixture.mug}`, { token: suite.tenant.token, body: { price: 5 } })).status).toBe(200);
    expect((await get(`${PATH}/${order.id}`)).body).toEqual(order);
    expect((await get(`${PATH}/${second.id}`)).body).toEqual(second);
  });

  it('a regular customer pays the catalog price even with trade records: the variation’s, else the product’s', async () => {
    const fixture = await createCatalog(suite.server, suite.tenant);
    for (const sku of [fixture.skus.teeRedM, fixture.skus.teeRedL, fixture.skus.tee]) await addTradePrice(fixture.tradeCustomer, fixture.tee, sku, 1.5);
    expect((await suite.server.request('PUT', `/v1/customers/${fixture.tradeCustomer}`, { token: suite.tenant.token, body: { trade: false } })).status).toBe(
      200,
    );
    const order = await placed({
      customerId: fixture.tradeCustomer,
      lines: [
        { sku: fixture.skus.teeRedM, quantity: 1 },
        { sku: fixture.skus.teeRedL, quantity: 1 },
        { sku: fixture.skus.tee, quantity: 1 },
      ],
    });
    expect(order.lines.map(({ unitPrice, variationId }) => [unitPrice, variationId === null])).toEqual([
      [12.5, false],
      [10, false],
      [10, true],
    ]);
    expect(order.total).toBe(32.5);
    const regular = await placed({ customerId: fixture.regularCustomer, lines: [{ sku: fixture.skus.teeRedL, quantity: 2 }] });
    expect(regular.lines[0]).toMatchObject({ unitPrice: 10, lineTotal: 20 });
  });

  it('totals are exact decimals, up to just below 100 000 000 000', async () => {
    const tiny = await place({ customerId: suite.catalog.regularCustomer, lines: [{ sku: tinySku, quantity: 999_999 }] });
    expect(tiny.text).toContain('"unitPrice":0.0001,"lineTotal":99.9999,');
    expect(tiny.text).toContain('"total":99.9999,');
    const huge = await place({
      customerId: suite.catalog.regularCustomer,
      lines: [
        { sku: hugeSku, quantity: 3 },
        { sku: tinySku, quantity: 999_999 },
      ],
    });
    expect(huge.text).toContain('"unitPrice":999999999.9999,"lineTotal":2999999999.9997,');
    expect(huge.text).toContain('"total":3000000099.9996,');
    expect((await get(`${PATH}/${(huge.body as Order).id}`)).text).toBe(huge.text);
    const largest = await place({ customerId: suite.catalog.regularCustomer, lines: [{ sku: hugeSku, quantity: 100 }] });
    expect(largest.status).toBe(201);
    expect(largest.text).toContain('"total":99999999999.99,');
  });

  describe('validation: 422 code 10, every problem with its line index and field, nothing stored', () => {
    const line = (sku: string, quantity: unknown = 1) => ({ sku, quantity });
    const order = (lines: unknown[], customerId: unknown = suite.catalog.tradeCustomer) => ({ customerId, lines });
    type Expected = Array<[number | undefined, string | null]>;
    const cases: Array<[string, () => unknown, Expected]> = [
      ['unknown customer', () => order([line(suite.catalog.skus.mug)], 999_999), [[undefined, 'customerId']]],
      ['another store’s customer', () => order([line(suite.catalog.skus.mug)], suite.foreign.tradeCustomer), [[undefined, 'customerId']]],
      ['inactive customer', () => order([line(suite.catalog.skus.mug)], inactiveCustomer), [[undefined, 'customerId']]],
      ['customerId as a string', () => order([line(suite.catalog.skus.mug)], String(suite.catalog.tradeCustomer)), [[undefined, 'customerId']]],
      ['missing customerId', () => ({ lines: [line(suite.catalog.skus.mug)] }), [[undefined, 'customerId']]],
      [
        'unknown SKUs, each listed',
        () => order([line(suite.catalog.skus.mug), line('NOPE-1'), line(suite.catalog.skus.tee), line('NOPE-2')]),
        [
          [1, 'sku'],
          [3, 'sku'],
        ],
      ],
      [
        'another store’s SKU and a SKU in other case',
        () => order([line(suite.foreign.skus.mug), line(suite.catalog.skus.teeRedM.toLowerCase())]),
        [
          [0, 'sku'],
          [1, 'sku'],
        ],
      ],
      ['a SKU of an inactive product', () => order([line(suite.catalog.skus.mug), line(inactiveProductSku)]), [[1, 'sku']]],
      [
        'a SKU repeating an earlier line',
        () => order([line(suite.catalog.skus.mug), line(suite.catalog.skus.tee), line(suite.catalog.skus.mug, 2)]),
        [[2, 'sku']],
      ],
      ...[0, -1, 1.5, '2', null, 1_000_001].map((quantity): [string, () => unknown, Expected] => [
        `quantity ${JSON.stringify(quantity)}`,
        () => order([line(suite.catalog.skus.mug, quantity)]),
        [[0, 'quantity']],
      ]),
      ['a missing quantity', () => order([{ sku: suite.catalog.skus.mug }]), [[0, 'quantity']]],
      ['a line that is not an object', () => order([line(suite.catalog.skus.mug), 'mug']), [[1, null]]],
      // Answered 500 before: the pricing step read the SKU of a null line.
      ['a null line', () => order([null]), [[0, null]]],
      ['a null line after a valid one', () => order([line(suite.catalog.skus.mug), null]), [[1, null]]],
      ['empty lines', () => order([]), [[undefined, 'lines']]],
      ['lines not an array', () => order({ sku: suite.catalog.skus.mug } as unknown as unknown[]), [[undefined, 'lines']]],
      ['501 lines', () => order(Array.from({ length: 501 }, (_, i) => line(`SKU-${i}`))), [[undefined, 'lines']]],
      ['an unknown order field', () => ({ ...order([line(suite.catalog.skus.mug)]), note: 'x' }), [[undefined, 'note']]],
      ['an unknown line field', () => order([{ ...line(suite.catalog.skus.mug), colour: 'red' }]), [[0, 'colour']]],
      ['a body that is not an object', () => [line(suite.catalog.skus.mug)], [[undefined, null]]],
      ['a line total of 100 000 000 000 or more', () => order([line(hugeSku, 101)]), [[0, 'quantity']]],
      ['an order total of 100 000 000 000 or more', () => order([line(hugeSku, 100), line(tinySku, 999_999)]), [[undefined, 'lines']]],
      [
        'schema and store problems together',
        () =>
          order([line(suite.catalog.skus.mug, 0), line('NOPE'), line(suite.catalog.skus.tee, '3'), line(suite.catalog.skus.teeRedM), line('NOPE')], 999_999),
        [
          [undefined, 'customerId'],
          [0, 'quantity'],
          [1, 'sku'],
          [2, 'quantity'],
          [4, 'sku'],
        ],
      ],
    ];

    it.each(cases)('%s', async (_name, body, expected) => {
      const before = await count();
      const response = await place(body());
      expectError(response, 422, 10);
      const problems = (response.body as ProblemBody).errors;
      expect(problems.map((problem) => [problem.index, problem.field])).toEqual(expected);
      for (const problem of problems) expect('index' in problem).toBe(problem.index !== undefined);
      expect(await count()).toBe(before);
    });

    it('names the line a repeated SKU was first ordered on', async () => {
      const response = await place(order([line(suite.catalog.skus.tee), line(suite.catalog.skus.mug), line(suite.catalog.skus.mug)]));
      expect((response.body as ProblemBody).errors).toEqual([{ index: 2, field: 'sku', message: expect.stringContaining('line 1') }]);
    });
  });

  it('lists in id order with customerId, count, offset and fields; counts with the same filter', async () => {
    const buyer = await post('/v1/customers', { email: `buyer-${++sequence}@example.com` });
    const created: Order[] = [];
    for (let quantity = 1; quantity <= 4; quantity++)
      created.push(
        await placed({
          customerId: buyer,
          lines: [
            { sku: suite.catalog.skus.mug, quantity },
            { sku: suite.catalog.skus.tee, quantity: 1 },
          ],
        }),
      );
    await placed({ customerId: suite.catalog.regularCustomer, lines: [{ sku: suite.catalog.skus.mug, quantity: 1 }] });

    expect((await get(`${PATH}?customerId=${buyer}`)).body).toEqual(created);
    expect((await get(`${PATH}?customerId=${buyer}&count=2&offset=1`)).body).toEqual(created.slice(1, 3));
    expect((await get(`${PATH}?customerId=${buyer}&fields=id,total`)).body).toEqual(created.map(({ id, total }) => ({ id, total })));
    expect((await get(`${PATH}/${created[0]!.id}?fields=lines`)).body).toEqual({ lines: created[0]!.lines });
    expect(await count(`?customerId=${buyer}`)).toBe(4);
    expect(await count()).toBeGreaterThan(4);
    expectError(await get(`${PATH}?fields=price`), 400, 9);
    expectError(await get(`${PATH}?count=101`), 400, 9);
    expectError(await get(`${PATH}/count?customerId=abc`), 400, 9);
  });

  it('another store’s orders are 404 and never listed', async () => {
    const order = await placed({ customerId: suite.catalog.tradeCustomer, lines: [{ sku: suite.catalog.skus.mug, quantity: 1 }] });
    expectError(await get(`${PATH}/${order.id}`, suite.other.token), 404, 5);
    expect((await get(`${PATH}?customerId=${suite.catalog.tradeCustomer}`, suite.other.token)).body).toEqual([]);
    expect(((await get(`${PATH}/count`, suite.other.token)).body as { count: number }).count).toBe(0);
    expectError(await get(`${PATH}/999999999`), 404, 5);
    expectError(await get(`${PATH}/abc`), 404, 5);
  });

  it('has no PUT or DELETE: 405 with Allow', async () => {
    const order = await placed({ customerId: suite.catalog.tradeCustomer, lines: [{ sku: suite.catalog.skus.mug, quantity: 1 }] });
    for (const [method, path, allowed] of [
      ['PUT', `${PATH}/${order.id}`, 'GET'],
      ['DELETE', `${PATH}/${order.id}`, 'GET'],
      ['PUT', PATH, 'GET, POST'],
      ['DELETE', PATH, 'GET, POST'],
    ] as const) {
      const response = await suite.server.request(method, path, { token: suite.tenant.token, body: method === 'PUT' ? { customerId: 1 } : undefined });
      expectError(response, 405, 6);
      expect(response.headers.allow, `${method} ${path}`).toBe(allowed);
    }
    expect((await get(`${PATH}/${order.id}`)).body).toEqual(order);
  });

  it('needs orders:write to place and orders:read to read', async () => {
    const reader = await suite.server.createTenant(['orders:read']);
    const writer = await suite.server.createTenant(['orders:write']);
    expectError(await place({ customerId: 1, lines: [{ sku: 'X', quantity: 1 }] }, {}, reader.token), 403, 4);
    expectError(await get(PATH, writer.token), 403, 4);
    expect((await get(PATH, reader.token)).status).toBe(200);
  });

  it('replays an Idempotency-Key and places nothing more', async () => {
    const key = `order-${engine}-${++sequence}`;
    const body = { customerId: suite.catalog.tradeCustomer, lines: [{ sku: suite.catalog.skus.tee, quantity: 2 }] };
    const before = await count();
    const first = await place(body, { 'idempotency-key': key });
    const second = await place(body, { 'idempotency-key': key });
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.text).toBe(first.text);
    expect(await count()).toBe(before + 1);
    const reused = await place({ ...body, lines: [{ sku: suite.catalog.skus.tee, quantity: 3 }] }, { 'idempotency-key': key });
    expect(reused.status).toBe(422);
    expect(reused.body).toMatchObject({ code: 13 });
    expect(await count()).toBe(before + 1);
  });

  it('an order outlives the deletion of its customer and products', async () => {
    const fixture = await createCatalog(suite.server, suite.tenant);
    const order = await placed({
      customerId: fixture.regularCustomer,
      lines: [
        { sku: fixture.skus.teeRedM, quantity: 1 },
        { sku: fixture.skus.mug, quantity: 1 },
      ],
    });
    expect((await suite.server.request('DELETE', `/v1/products/${fixture.tee}`, { token: suite.tenant.token })).status).toBe(204);
    expect((await suite.server.request('DELETE', `/v1/customers/${fixture.regularCustomer}`, { token: suite.tenant.token })).status).toBe(204);
    expect((await get(`${PATH}/${order.id}`)).body).toEqual(order);
    expect(await count(`?customerId=${fixture.regularCustomer}`)).toBe(1);
  });
});

describe('order cost', () => {
  it('runs the same number of SQL statements for 1 line and 500, and for a page of 1 order and of 50', async () => {
    const server = await startTestServer('sqlite');
    try {
      const tenant = await server.createTenant();
      const catalog = await createCatalog(server, tenant);
      const skus = Array.from({ length: 500 }, (_, i) => `BULK-${i}`);
      const product = await server.request('POST', '/v1/products', {
        token: tenant.token,
        body: { title: 'Many', price: 1, variations: skus.map((sku, i) => ({ sku, price: i / 10_000 })) },
      });
      expect(product.status).toBe(201);
      const statementsFor = async (method: string, path: string, body?: unknown) => {
        server.statements.length = 0;
        const response = await server.request(method, path, { token: tenant.token, body });
        expect(response.status, response.text).toBeLessThan(300);
        return requestStatements(server.statements).length;
      };
      const order = (lines: string[]) => ({ customerId: catalog.tradeCustomer, lines: lines.map((sku) => ({ sku, quantity: 1 })) });
      const one = await statementsFor('POST', '/v1/orders', order(skus.slice(0, 1)));
      expect(await statementsFor('POST', '/v1/orders', order(skus))).toBe(one);
      // The customer and its lists, the resolution rule's reads (catalog, the customer's price
      // lists with the store's rounding, their trade prices; list entries when a fixed list is
      // among them), active products, the order, its lines, its event.
      expect(one).toBeLessThanOrEqual(9);
      for (let i = 0; i < 48; i++) await statementsFor('POST', '/v1/orders', order(skus.slice(i, i + 3)));
      const pageOfOne = await statementsFor('GET', '/v1/orders?count=1');
      expect(await statementsFor('GET', '/v1/orders?count=50')).toBe(pageOfOne);
    } finally {
      await server.close();
    }
  });
});

import { describe, expect, it } from 'vitest';
import { TRADE_PRICE_SORTS, type TradePrice } from '../../src/contract/trade-prices.js';
import { expectError } from '../support/conventions.js';
import { enginesUnderTest } from '../support/engines.js';
import { suiteServer } from '../support/suite-server.js';

type Row = Pick<TradePrice, 'id' | 'productId' | 'sku' | 'price' | 'minQuantity' | 'validFrom' | 'validUntil'>;

/** SKUs of mixed case, one with a letter outside A–Z in both cases: finding folds A–Z only. */
const SKUS = ['bolt-10', 'BOLT-20', 'Bolt-3', 'NUT-1', 'Écrou-1', 'écrou-2', 'washer-Bolt'];
/** Products of their own: a customer's prices of three products, sorted by product. */
const OTHER_PRODUCTS = [
  { title: 'anchors', sku: 'ANCHOR-1' },
  { title: 'Zinc plates', sku: 'ZP-1' },
];
const DAY = (day: number) => `2027-01-${String(day).padStart(2, '0')}T00:00:00.000Z`;

/** The order the API promises: the field (a missing start first, a missing end last), then id, the same way; text by code point. */
function modelOrder(rows: readonly Row[], sort: string): Row[] {
  const descending = sort.startsWith('-');
  const field = sort.replace(/^-/, '') as keyof Row;
  const key = (row: Row): [number, string | number] => {
    const value = row[field];
    if (field === 'validFrom') return value === null ? [0, ''] : [1, value];
    if (field === 'validUntil') return value === null ? [1, ''] : [0, value];
    return [0, value as string | number];
  };
  const compare = (a: Row, b: Row): number => {
    const [rankA, valueA] = key(a);
    const [rankB, valueB] = key(b);
    if (rankA !== rankB) return rankA - rankB;
    if (valueA !== valueB) return valueA < valueB ? -1 : 1;
    return a.id - b.id;
  };
  return [...rows].sort((a, b) => (descending ? compare(b, a) : compare(a, b)));
}

/**
 * `GET /v1/trade-customer-product-prices?sort=&skuContains=` and `GET /v1/skus?contains=`: the
 * orders and the finding the admin page's prices table and SKU picker use, extensions a client
 * of the interface never sends (without them, the list is as before: by id).
 */
describe.each(await enginesUnderTest())('sorted and searched trade prices, and SKUs found by part, on %s', (engine) => {
  const suite = suiteServer(engine);
  let customerId: number;
  let productId: number;
  let rows: Row[] = [];
  const list = (query: string, token = suite.tenant.token) => suite.server.request('GET', `/v1/trade-customer-product-prices?${query}`, { token });

  /** Every page of `query`, 3 a page: offsets count in the order asked for. */
  async function allPages(query: string): Promise<Row[]> {
    const found: Row[] = [];
    for (let offset = 0; offset < 100; offset += 3) {
      const page = await list(`${query}&count=3&offset=${offset}&fields=id,productId,sku,price,minQuantity,validFrom,validUntil`);
      expect(page.status, page.text).toBe(200);
      found.push(...(page.body as Row[]));
      if ((page.body as Row[]).length < 3) return found;
    }
    throw new Error('more pages than prices');
  }

  it('is made of prices with ties, missing starts and ends', async () => {
    const product = await suite.server.request('POST', '/v1/products', {
      token: suite.tenant.token,
      body: { title: 'Fixings', price: 1, sku: SKUS[0], variations: SKUS.slice(1).map((sku) => ({ sku })) },
    });
    expect(product.status, product.text).toBe(201);
    productId = (product.body as { id: number }).id;
    const skus = [...SKUS];
    const owners = new Map(SKUS.map((sku) => [sku, productId]));
    for (const other of OTHER_PRODUCTS) {
      const made = await suite.server.request('POST', '/v1/products', { token: suite.tenant.token, body: { ...other, price: 1 } });
      expect(made.status, made.text).toBe(201);
      const id = (made.body as { id: number }).id;
      owners.set(other.sku, id);
      skus.push(other.sku);
    }
    const customer = await suite.server.request('POST', '/v1/customers', {
      token: suite.tenant.token,
      body: { email: `order-${engine}@example.com`, trade: true },
    });
    customerId = (customer.body as { id: number }).id;
    // Prices, breaks and windows that repeat, so every order has ties that id must break.
    const items = Array.from({ length: 24 }, (_, index) => ({
      customerId,
      productId: owners.get(skus[index % skus.length]!)!,
      sku: skus[index % skus.length]!,
      price: [5, 2.5, 7.25, 2.5][index % 4]!,
      minQuantity: [1, 10, 1, 50, 10][index % 5]!,
      ...(index % 3 === 0 ? {} : { validFrom: DAY(1 + (index % 4)) }),
      ...(index % 4 === 1 ? {} : { validUntil: DAY(10 + (index % 3)) }),
    }));
    const created = await suite.server.request('POST', '/v1/trade-customer-product-prices/bulk', { token: suite.tenant.token, body: items });
    expect(created.status, created.text).toBe(201);
    rows = (created.body as Row[]).map(({ id, productId: owner, sku, price, minQuantity, validFrom, validUntil }) => ({
      id,
      productId: owner,
      sku,
      price,
      minQuantity,
      validFrom,
      validUntil,
    }));
  });

  it.each(TRADE_PRICE_SORTS)('sort=%s answers every page in that order, ties by id the same way', async (sort) => {
    expect(await allPages(`customerId=${customerId}&sort=${encodeURIComponent(sort)}`)).toEqual(modelOrder(rows, sort));
  });

  it('without sort answers by id, as the interface lists them', async () => {
    expect(await allPages(`customerId=${customerId}`)).toEqual(modelOrder(rows, 'id'));
  });

  it('skuContains finds SKUs with the letters A–Z in either case, other characters as typed, and the count agrees', async () => {
    const cases: Array<[string, string[]]> = [
      ['bolt', ['bolt-10', 'BOLT-20', 'Bolt-3', 'washer-Bolt']],
      ['OLT-2', ['BOLT-20']],
      // É and é are not A–Z: each finds its own.
      ['écrou', ['écrou-2']],
      ['ÉCROU', ['Écrou-1']],
      ['crou-', ['Écrou-1', 'écrou-2']],
      ['%', []],
      ['_', []],
    ];
    for (const [text, skus] of cases) {
      const query = `customerId=${customerId}&skuContains=${encodeURIComponent(text)}`;
      const found = await allPages(`${query}&sort=-price`);
      expect(found, text).toEqual(
        modelOrder(
          rows.filter((row) => skus.includes(row.sku)),
          '-price',
        ),
      );
      const count = await suite.server.request('GET', `/v1/trade-customer-product-prices/count?${query}`, { token: suite.tenant.token });
      expect(count.body, text).toEqual({ count: found.length });
    }
    // With the other filters: valid at a moment, and a SKU exactly.
    const at = DAY(2);
    const valid = (row: Row) => (row.validFrom === null || row.validFrom <= at) && (row.validUntil === null || row.validUntil > at);
    expect(await allPages(`customerId=${customerId}&skuContains=BOLT&validAt=${at}&sort=validUntil`)).toEqual(
      modelOrder(
        rows.filter((row) => row.sku.toLowerCase().includes('bolt') && valid(row)),
        'validUntil',
      ),
    );
    expect(await allPages(`customerId=${customerId}&skuContains=bolt&sku=BOLT-20`)).toEqual(rows.filter((row) => row.sku === 'BOLT-20'));
  });

  it('never reaches another store’s prices', async () => {
    expect(await list(`customerId=${customerId}&sort=-price&skuContains=bolt`, suite.other.token).then((response) => response.body)).toEqual([]);
    const count = await suite.server.request('GET', `/v1/trade-customer-product-prices/count?skuContains=bolt`, { token: suite.other.token });
    expect(count.body).toEqual({ count: 0 });
  });

  it('refuses an unknown order and an empty search with 400, code 9', async () => {
    expectError(await list(`customerId=${customerId}&sort=price%20desc`), 400, 9, /sort/);
    expectError(await list(`customerId=${customerId}&sort=createdAt`), 400, 9, /sort/);
    expectError(await list(`customerId=${customerId}&skuContains=`), 400, 9, /skuContains/);
    expectError(await suite.server.request('GET', `/v1/trade-customer-product-prices/count?sort=-id`, { token: suite.tenant.token }), 400, 9);
  });

  it('GET /v1/skus?contains= answers the store’s SKUs containing the text, by code point, with title and catalog price', async () => {
    const search = (query: string, token = suite.tenant.token) => suite.server.request('GET', `/v1/skus?${query}`, { token });
    const product = (await suite.server.request('GET', `/v1/products/${productId}`, { token: suite.tenant.token })).body as {
      variations: Array<{ id: number; sku: string }>;
    };
    const variationOf = (sku: string) => product.variations.find((variation) => variation.sku === sku)!.id;
    const found = await search('contains=bolt');
    expect(found.status, found.text).toBe(200);
    expect(found.body).toEqual(
      ['BOLT-20', 'Bolt-3', 'bolt-10', 'washer-Bolt'].map((sku) => ({
        sku,
        productId,
        variationId: sku === 'bolt-10' ? null : variationOf(sku),
        title: 'Fixings',
        price: 1,
      })),
    );
    expect(((await search('contains=bolt&count=2')).body as Array<{ sku: string }>).map((item) => item.sku)).toEqual(['BOLT-20', 'Bolt-3']);
    expect(((await search('contains=%C3%A9crou')).body as Array<{ sku: string }>).map((item) => item.sku)).toEqual(['écrou-2']);
    expect((await search('contains=zzz')).body).toEqual([]);
    // Another store's SKUs are never found.
    expect((await search('contains=bolt', suite.other.token)).body).toEqual([]);
    expectError(await search(''), 400, 9, /contains/);
    expectError(await search('contains='), 400, 9, /contains/);
    expectError(await search('contains=bolt&count=51'), 400, 9, /count/);
  });
});

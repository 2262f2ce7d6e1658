import { beforeAll, describe, expect, it } from 'vitest';
import type { Order, OrderLine } from '../../src/contract/orders.js';
import type { Quote } from '../../src/contract/quotes.js';
import type { EffectivePrice, TradePrice } from '../../src/contract/trade-prices.js';
import { type ProblemBody, TIMESTAMP } from '../support/bodies.js';
import { type CatalogFixture, createCatalog } from '../support/catalog-fixture.js';
import { expectError } from '../support/conventions.js';
import { enginesUnderTest } from '../support/engines.js';
import { snapshotStore } from '../support/store-snapshot.js';
import { suiteServer } from '../support/suite-server.js';
import { requestStatements } from '../support/test-server.js';
import { SCOPES } from '../../src/modules/stores/scopes.js';

const TRADE = '/v1/trade-customer-product-prices';
/** A contract price's window: from New Year (inclusive) until February (exclusive). */
const FROM = '2027-01-01T00:00:00.000Z';
const UNTIL = '2027-02-01T00:00:00.000Z';

/** Who a price comes from, as effective prices, candidates, quote and order lines name it (an order line's source may be null). */
type PriceOrigin = Pick<OrderLine, 'source' | 'tradePriceId' | 'priceListId' | 'priceListPriceId'>;

const origin = ({ source, tradePriceId, priceListId, priceListPriceId }: PriceOrigin): PriceOrigin => ({ source, tradePriceId, priceListId, priceListPriceId });
const trade = (id: number): PriceOrigin => ({ source: 'trade', tradePriceId: id, priceListId: null, priceListPriceId: null });
const entry = (listId: number, id: number): PriceOrigin => ({ source: 'price_list', tradePriceId: null, priceListId: listId, priceListPriceId: id });
const percentageList = (listId: number): PriceOrigin => ({ source: 'price_list', tradePriceId: null, priceListId: listId, priceListPriceId: null });
const catalogPrice = (source: 'variation' | 'product'): PriceOrigin => ({ source, tradePriceId: null, priceListId: null, priceListPriceId: null });

let sequence = 0;

describe.each(await enginesUnderTest())('pricing on %s', (engine) => {
  const suite = suiteServer(engine, { tenants: 1 });

  const request = (method: string, path: string, body?: unknown, token = suite.tenant.token) => suite.api.request(method, path, { token, body });
  async function created<T>(path: string, body: unknown): Promise<T> {
    const response = await request('POST', path, body);
    expect(response.status, response.text).toBe(201);
    return response.body as T;
  }
  const customer = async (body: { trade?: boolean; priceListIds?: number[] } = {}) =>
    (await created<{ id: number }>('/v1/customers', { email: `pricing-${++sequence}@example.com`, ...body })).id;
  const product = async (price: number, variations: Array<{ sku: string; price?: number }> = []) => {
    const sku = `PRICED-${++sequence}`;
    return { sku, id: (await created<{ id: number }>('/v1/products', { title: 'Priced', sku, price, variations })).id };
  };
  const tradePrices = (items: unknown[]) => created<TradePrice[]>(`${TRADE}/bulk`, items);
  const priceList = async (kind: 'fixed' | 'percentage', percentage?: number) =>
    (await created<{ id: number }>('/v1/price-lists', { name: `List ${++sequence}`, kind, percentage })).id;
  const entries = async (listId: number, items: unknown[]) =>
    (await created<Array<{ id: number }>>(`/v1/price-lists/${listId}/prices/bulk`, items)).map((record) => record.id);
  const effective = async (customerId: number, sku: string, query: Record<string, string | number> = {}): Promise<EffectivePrice> => {
    const params = new URLSearchParams({
      customerId: String(customerId),
      sku,
      ...Object.fromEntries(Object.entries(query).map(([key, value]) => [key, String(value)])),
    });
    const response = await request('GET', `${TRADE}/effective?${params}`);
    expect(response.status, response.text).toBe(200);
    return response.body as EffectivePrice;
  };
  const quote = (body: unknown, token?: string) => request('POST', '/v1/quotes', body, token);

  describe('trade price rule fields', () => {
    let fixture: CatalogFixture;
    beforeAll(async () => {
      fixture = await createCatalog(suite.server, suite.tenant);
    });
    const item = (extra: Record<string, unknown> = {}) => ({
      customerId: fixture.tradeCustomer,
      productId: fixture.mug,
      sku: fixture.skus.mug,
      price: 3,
      ...extra,
    });
    const count = async (query = '') => ((await request('GET', `${TRADE}/count${query}`)).body as { count: number }).count;

    it('records answer minQuantity, validFrom and validUntil on create, get and list, defaults and canonical forms included', async () => {
      const records = await tradePrices([
        item(),
        item({ minQuantity: 10, validFrom: '2027-01-01T01:00:00+01:00', validUntil: '2027-02-01T00:00:00.123456Z' }),
        item({ minQuantity: 1_000_000, validFrom: null, validUntil: '2026-12-31T19:00:00-05:00' }),
      ]);
      expect(records.map(({ minQuantity, validFrom, validUntil }) => ({ minQuantity, validFrom, validUntil }))).toEqual([
        { minQuantity: 1, validFrom: null, validUntil: null },
        { minQuantity: 10, validFrom: FROM, validUntil: '2027-02-01T00:00:00.123Z' },
        { minQuantity: 1_000_000, validFrom: null, validUntil: FROM },
      ]);
      for (const record of records) {
        expect(Object.keys(record).sort()).toEqual(['createdAt', 'customerId', 'id', 'minQuantity', 'price', 'productId', 'sku', 'validFrom', 'validUntil']);
        expect((await request('GET', `${TRADE}/${record.id}`)).body).toEqual(record);
      }
      const listed = (await request('GET', `${TRADE}?customerId=${fixture.tradeCustomer}&sku=${fixture.skus.mug}`)).body as TradePrice[];
      expect(listed.slice(-3)).toEqual(records);
    });

    it.each([
      ['minQuantity 0', { minQuantity: 0 }, 'minQuantity'],
      ['minQuantity 1.5', { minQuantity: 1.5 }, 'minQuantity'],
      ['minQuantity 1000001', { minQuantity: 1_000_001 }, 'minQuantity'],
      ['minQuantity "2"', { minQuantity: '2' }, 'minQuantity'],
      ['a validFrom that is not a timestamp', { validFrom: 'next tuesday' }, 'validFrom'],
      ['a validFrom on 30 February', { validFrom: '2026-02-30T00:00:00Z' }, 'validFrom'],
      ['a validUntil without a time zone', { validUntil: '2027-02-01T00:00:00' }, 'validUntil'],
      ['a validUntil at 24:00', { validUntil: '2027-02-01T24:00:00Z' }, 'validUntil'],
      ['a window that ends where it starts', { validFrom: FROM, validUntil: '2027-01-01T01:00:00+01:00' }, 'validUntil'],
      ['a window that ends before it starts', { validFrom: UNTIL, validUntil: FROM }, 'validUntil'],
    ])('refuses %s with its index and field, and stores nothing', async (_name, extra, field) => {
      const before = await count();
      const response = await request('POST', `${TRADE}/bulk`, [item(), item(extra)]);
      expectError(response, 422, 10);
      expect((response.body as ProblemBody).errors.map(({ index, field: named }) => [index, named])).toEqual([[1, field]]);
      expect(await count()).toBe(before);
    });

    it('lists and counts the records valid at validAt: from validFrom (inclusive) until validUntil (exclusive)', async () => {
      const buyer = await customer({ trade: true });
      const [always, january, fromFebruary, untilNewYear] = await tradePrices([
        item({ customerId: buyer }),
        item({ customerId: buyer, validFrom: FROM, validUntil: UNTIL }),
        item({ customerId: buyer, validFrom: UNTIL }),
        item({ customerId: buyer, validUntil: FROM }),
      ]);
      const cases: Array<[string, TradePrice[]]> = [
        ['2026-06-01T00:00:00Z', [always!, untilNewYear!]],
        ['2027-01-01T01:00:00+01:00', [always!, january!]],
        ['2027-01-31T23:59:59.999Z', [always!, january!]],
        [UNTIL, [always!, fromFebruary!]],
      ];
      for (const [validAt, expected] of cases) {
        const query = `customerId=${buyer}&validAt=${encodeURIComponent(validAt)}`;
        expect((await request('GET', `${TRADE}?${query}`)).body, validAt).toEqual(expected);
        expect(await count(`?${query}`)).toBe(expected.length);
      }
    });

    it.each(['yesterday', '2026-02-30T00:00:00Z', '2027-01-01T00:00:00', ''])('lists and counts refuse validAt=%s (400, code 9)', async (validAt) => {
      for (const path of [TRADE, `${TRADE}/count`]) {
        expectError(await request('GET', `${path}?validAt=${encodeURIComponent(validAt)}`), 400, 9, /validAt/);
      }
    });
  });

  describe('the effective price', () => {
    it.each([
      [1, 3.9, 'newest', { newest: null, hundred: 'below minimum quantity 100', ten: 'below minimum quantity 10', oldest: 'newer record wins' }],
      [10, 3.5, 'ten', { newest: 'higher quantity break wins', hundred: 'below minimum quantity 100', ten: null, oldest: 'higher quantity break wins' }],
      [100, 3, 'hundred', { newest: 'higher quantity break wins', hundred: null, ten: 'higher quantity break wins', oldest: 'higher quantity break wins' }],
    ] as const)('at quantity %i takes the highest break reached, then the newest record (%d)', async (quantity, price, winner, reasons) => {
      const fixture = await createCatalog(suite.server, suite.tenant);
      const item = (unitPrice: number, minQuantity: number) => ({
        customerId: fixture.tradeCustomer,
        productId: fixture.mug,
        sku: fixture.skus.mug,
        price: unitPrice,
        minQuantity,
      });
      const [oldest, ten, hundred, newest] = (await tradePrices([item(4, 1), item(3.5, 10), item(3, 100), item(3.9, 1)])).map((record) => record.id) as [
        number,
        number,
        number,
        number,
      ];
      const ids = { oldest, ten, hundred, newest };
      const body = await effective(fixture.tradeCustomer, fixture.skus.mug, { quantity, at: FROM });
      expect(body).toMatchObject({ quantity, at: FROM, price, ...trade(ids[winner]), validUntil: null, nextChangeAt: null });
      expect(body.shadowedTradePriceIds).toEqual([newest, hundred, ten, oldest].filter((id) => id !== ids[winner]));
      const newestFirst = ['newest', 'hundred', 'ten', 'oldest'] as const;
      expect(body.candidates.map((candidate) => [candidate.tradePriceId, candidate.applies, candidate.reason])).toEqual(
        newestFirst.map((name) => [ids[name], reasons[name] === null, reasons[name]]),
      );
    });

    describe('a dated contract price', () => {
      const ids = { hidden: 0, undated: 0, contract: 0 };
      let fixture: CatalogFixture;
      beforeAll(async () => {
        fixture = await createCatalog(suite.server, suite.tenant);
        const item = (price: number, window: { validFrom?: string; validUntil?: string }) => ({
          customerId: fixture.tradeCustomer,
          productId: fixture.tee,
          sku: fixture.skus.teeRedM,
          price,
          ...window,
        });
        // The hidden price's window opens in March, but the newer undated price outranks it then.
        [ids.hidden, ids.undated, ids.contract] = (
          await tradePrices([item(8, { validFrom: '2027-03-01T00:00:00Z' }), item(11, {}), item(9, { validFrom: FROM, validUntil: UNTIL })])
        ).map((record) => record.id) as [number, number, number];
      });

      it.each([
        [
          'before its window',
          '2026-12-15T00:00:00Z',
          '2026-12-15T00:00:00.000Z',
          'undated',
          11,
          null,
          FROM,
          { contract: `not valid until ${FROM}`, undated: null },
        ],
        ['from its first moment', '2027-01-01T01:00:00+01:00', FROM, 'contract', 9, UNTIL, UNTIL, { contract: null, undated: 'newer record wins' }],
        [
          'until its last millisecond',
          '2027-01-31T23:59:59.999Z',
          '2027-01-31T23:59:59.999Z',
          'contract',
          9,
          UNTIL,
          UNTIL,
          { contract: null, undated: 'newer record wins' },
        ],
        ['after it ends', UNTIL, UNTIL, 'undated', 11, null, null, { contract: `expired ${UNTIL}`, undated: null }],
      ] as const)('%s (at=%s)', async (_name, at, answeredAt, winner, price, validUntil, nextChangeAt, reasons) => {
        const body = await effective(fixture.tradeCustomer, fixture.skus.teeRedM, { at });
        expect(body).toMatchObject({ at: answeredAt, price, ...trade(ids[winner]), validUntil, nextChangeAt });
        expect(body.candidates.map((candidate) => [candidate.tradePriceId, candidate.reason])).toEqual([
          [ids.contract, reasons.contract],
          [ids.undated, reasons.undated],
          [ids.hidden, 'not valid until 2027-03-01T00:00:00.000Z'],
        ]);
      });
    });

    describe('price lists', () => {
      const origins: Record<string, PriceOrigin> = {};
      const buyers: Record<string, number> = {};
      let fixture: CatalogFixture;
      beforeAll(async () => {
        fixture = await createCatalog(suite.server, suite.tenant);
        const { mug, tee, skus } = fixture;
        const [first, second, percentage] = [await priceList('fixed'), await priceList('fixed'), await priceList('percentage', 12.5)];
        const [firstMug, firstMugFifty] = await entries(first, [
          { productId: mug, sku: skus.mug, price: 3.3 },
          { productId: mug, sku: skus.mug, price: 3, minQuantity: 50 },
        ]);
        const [secondMug, secondRedM, secondRedL] = await entries(second, [
          { productId: mug, sku: skus.mug, price: 3.1 },
          { productId: tee, sku: skus.teeRedM, price: 9.9 },
          { productId: tee, sku: skus.teeRedL, price: 8.8 },
        ]);
        buyers.trader = await customer({ trade: true, priceListIds: [first, second, percentage] });
        buyers.regular = await customer({ priceListIds: [second, first] });
        buyers.lapsed = await customer({ trade: true, priceListIds: [first] });
        buyers.plain = fixture.regularCustomer;
        const [traderRedL, lapsedMug] = await tradePrices([
          { customerId: buyers.trader, productId: tee, sku: skus.teeRedL, price: 7.7 },
          { customerId: buyers.lapsed, productId: mug, sku: skus.mug, price: 2.5 },
        ]);
        expect((await request('PUT', `/v1/customers/${buyers.lapsed}`, { trade: false })).status).toBe(200);
        Object.assign(origins, {
          firstMug: entry(first, firstMug!),
          firstMugFifty: entry(first, firstMugFifty!),
          secondMug: entry(second, secondMug!),
          secondRedM: entry(second, secondRedM!),
          secondRedL: entry(second, secondRedL!),
          percentage: percentageList(percentage),
          traderRedL: trade(traderRedL!.id),
          lapsedMug: trade(lapsedMug!.id),
          variation: catalogPrice('variation'),
          product: catalogPrice('product'),
        });
      });

      type Sku = keyof CatalogFixture['skus'];
      const earlier = 'earlier price list wins';
      it.each<[string, string, Sku, number, number, string, Array<[string, string | null]>]>([
        [
          'the first fixed list with an entry',
          'trader',
          'mug',
          1,
          3.3,
          'firstMug',
          [
            ['firstMugFifty', 'below minimum quantity 50'],
            ['firstMug', null],
            ['secondMug', earlier],
            ['percentage', earlier],
          ],
        ],
        [
          'an entry’s own quantity break',
          'trader',
          'mug',
          50,
          3,
          'firstMugFifty',
          [
            ['firstMugFifty', null],
            ['firstMug', 'higher quantity break wins'],
            ['secondMug', earlier],
            ['percentage', earlier],
          ],
        ],
        [
          'a later fixed list when the first has no entry',
          'trader',
          'teeRedM',
          1,
          9.9,
          'secondRedM',
          [
            ['secondRedM', null],
            ['percentage', earlier],
          ],
        ],
        ['the percentage list when no fixed list prices the SKU: 12.5 % off 10', 'trader', 'tee', 1, 8.75, 'percentage', [['percentage', null]]],
        [
          'the trade price before every list',
          'trader',
          'teeRedL',
          1,
          7.7,
          'traderRedL',
          [
            ['traderRedL', null],
            ['secondRedL', 'trade price wins'],
            ['percentage', 'trade price wins'],
          ],
        ],
        [
          'a non-trade customer’s lists, in its order',
          'regular',
          'mug',
          1,
          3.1,
          'secondMug',
          [
            ['secondMug', null],
            ['firstMugFifty', 'below minimum quantity 50'],
            ['firstMug', earlier],
          ],
        ],
        [
          'a lapsed trade customer’s lists, not its trade prices',
          'lapsed',
          'mug',
          1,
          3.3,
          'firstMug',
          [
            ['lapsedMug', 'customer is not a trade customer'],
            ['firstMugFifty', 'below minimum quantity 50'],
            ['firstMug', null],
          ],
        ],
        ['the variation’s price', 'plain', 'teeRedM', 1, 12.5, 'variation', []],
        ['the product’s price for a variation without one', 'plain', 'teeRedL', 1, 10, 'product', []],
      ])('%s (%s, %s × %i: %d)', async (_name, buyer, sku, quantity, price, winner, candidates) => {
        const body = await effective(buyers[buyer]!, fixture.skus[sku], { quantity, at: FROM });
        expect({ price: body.price, ...origin(body) }).toEqual({ price, ...origins[winner] });
        expect(body.candidates.map((candidate) => ({ ...origin(candidate), applies: candidate.applies, reason: candidate.reason }))).toEqual(
          candidates.map(([name, reason]) => ({ ...origins[name], applies: reason === null, reason })),
        );
        if (buyer === 'lapsed') expect(body.shadowedTradePriceIds).toEqual([origins.lapsedMug!.tradePriceId]);
      });
    });

    it.each([
      [12.5, 10, undefined, '8.75', 8.75],
      [33.3333, 10, undefined, '6.67', 6.6667],
      [12.5, 19.99, undefined, '17.49', 17.4913],
      [33.3333, 0.0003, undefined, '0', 0.0002],
      [50, 0.0003, undefined, '0', 0.0002],
      [0, 7.25, undefined, '7.25', 7.25],
      [100, 7.25, undefined, '0', 0],
      [12.5, 19.99, { increment: 0.05, mode: 'up' }, '17.5', 17.4913],
      [12.5, 19.99, { increment: 0.05, mode: 'half-up' }, '17.5', 17.4913],
      [12.5, 19.99, { increment: 1, mode: 'down' }, '17', 17.4913],
      [12.5, 19.99, { increment: 0.0001, mode: 'half-up' }, '17.4913', 17.4913],
    ])(
      'a %d percent list prices %d, rounded by %o, at %s (the store is GBP: to the penny, half-up)',
      async (percentage, catalog, rounding, expected, unrounded) => {
        const { sku } = await product(catalog);
        const list = (await created<{ id: number }>('/v1/price-lists', { name: `List ${++sequence}`, kind: 'percentage', percentage, rounding })).id;
        const buyer = await customer({ priceListIds: [list] });
        const response = await request('GET', `${TRADE}/effective?customerId=${buyer}&sku=${sku}`);
        expect(response.text).toContain(`"price":${expected},`);
        expect((response.body as EffectivePrice).candidates).toEqual([
          expect.objectContaining({ priceListId: list, price: Number(expected), unroundedPrice: unrounded, applies: true }),
        ]);
        const quoted = await quote({ customerId: buyer, lines: [{ sku, quantity: 3 }] });
        expect(quoted.body).toMatchObject({
          currency: 'GBP',
          lines: [{ unitPrice: Number(expected), lineTotal: (Math.round(Number(expected) * 10_000) * 3) / 10_000 }],
        });
      },
    );

    it.each([
      ['quantity', '0'],
      ['quantity', '1.5'],
      ['quantity', '1000001'],
      ['at', 'garbage'],
      ['at', '2026-02-30T00:00:00Z'],
      ['at', '2027-01-01T00:00:00'],
    ])('refuses %s=%s (400, code 9, naming it)', async (name, value) => {
      const response = await request('GET', `${TRADE}/effective?customerId=1&sku=X&${name}=${encodeURIComponent(value)}`);
      expectError(response, 400, 9, new RegExp(`'${name}'`));
    });
  });

  describe('quotes', () => {
    it('prices every line by the rule at its quantity and `at`, in exact decimals, a SKU as often as it comes', async () => {
      const fixture = await createCatalog(suite.server, suite.tenant);
      const { mug, tee, skus } = fixture;
      const [fixed, percentage] = [await priceList('fixed'), await priceList('percentage', 12.5)];
      const [mugEntry] = await entries(fixed, [{ productId: mug, sku: skus.mug, price: 3.3 }]);
      const buyer = await customer({ trade: true, priceListIds: [fixed, percentage] });
      const [bulkRedM, contractRedL] = await tradePrices([
        { customerId: buyer, productId: tee, sku: skus.teeRedM, price: 9, minQuantity: 10 },
        { customerId: buyer, productId: tee, sku: skus.teeRedL, price: 7, validFrom: FROM, validUntil: UNTIL },
      ]);
      const lines = [
        { sku: skus.teeRedM, quantity: 10 },
        { sku: skus.teeRedM, quantity: 1 },
        { sku: skus.mug, quantity: 2 },
        { sku: skus.tee, quantity: 1 },
        { sku: skus.teeRedL, quantity: 1 },
      ];
      const response = await quote({ customerId: buyer, at: '2027-01-01T01:00:00+01:00', lines });
      expect(response.status, response.text).toBe(200);
      const teeVariation = { productId: tee, variationId: expect.any(Number) };
      expect(response.body).toEqual({
        customerId: buyer,
        at: FROM,
        currency: 'GBP',
        lines: [
          { sku: skus.teeRedM, ...teeVariation, quantity: 10, unitPrice: 9, lineTotal: 90, ...trade(bulkRedM!.id) },
          { sku: skus.teeRedM, ...teeVariation, quantity: 1, unitPrice: 10.94, lineTotal: 10.94, ...percentageList(percentage) },
          { sku: skus.mug, productId: mug, variationId: null, quantity: 2, unitPrice: 3.3, lineTotal: 6.6, ...entry(fixed, mugEntry!) },
          { sku: skus.tee, productId: tee, variationId: null, quantity: 1, unitPrice: 8.75, lineTotal: 8.75, ...percentageList(percentage) },
          { sku: skus.teeRedL, ...teeVariation, quantity: 1, unitPrice: 7, lineTotal: 7, ...trade(contractRedL!.id) },
        ],
        // 12.5 % off 12.50 is 10.9375: charged 10.94, to the store's penny, half-up.
        total: 123.29,
      });
      // Outside the contract's window, the list prices the variation again (12.5 % off 10).
      const later = await quote({ customerId: buyer, at: UNTIL, lines: lines.slice(4) });
      expect((later.body as Quote).lines[0]).toMatchObject({ unitPrice: 8.75, ...percentageList(percentage) });
    });

    it('adds up exactly: 0.1 × 3 is 0.3, not 0.30000000000000004', async () => {
      const [dime, fifth] = [await product(0.1), await product(0.2)];
      const response = await quote({
        customerId: await customer(),
        lines: [
          { sku: dime.sku, quantity: 3 },
          { sku: fifth.sku, quantity: 1 },
        ],
      });
      expect(response.status).toBe(200);
      expect(response.text).toContain('"unitPrice":0.1,"lineTotal":0.3,');
      expect(response.text).toContain('"total":0.5}');
      expect((response.body as Quote).at).toMatch(TIMESTAMP);
    });

    describe('validation: 422 code 10, each problem with its index and field, nothing stored', () => {
      let fixture: CatalogFixture;
      beforeAll(async () => {
        fixture = await createCatalog(suite.server, suite.tenant);
      });
      const body = (extra: Record<string, unknown> = {}) => ({ customerId: fixture.tradeCustomer, lines: [{ sku: fixture.skus.mug, quantity: 1 }], ...extra });
      const cases: Array<[string, () => unknown, Array<[number | undefined, string]>]> = [
        ['an unknown customer', () => body({ customerId: 987_654_321 }), [[undefined, 'customerId']]],
        [
          'an unknown SKU',
          () =>
            body({
              lines: [
                { sku: fixture.skus.mug, quantity: 1 },
                { sku: 'NO-SUCH-SKU', quantity: 1 },
              ],
            }),
          [[1, 'sku']],
        ],
        ['an `at` that is not a moment', () => body({ at: 'tomorrow' }), [[undefined, 'at']]],
        ['an `at` on 30 February', () => body({ at: '2026-02-30T00:00:00Z' }), [[undefined, 'at']]],
        ['an `at` without a time zone', () => body({ at: '2027-01-01T00:00:00' }), [[undefined, 'at']]],
        ['a quantity of 0', () => body({ lines: [{ sku: fixture.skus.mug, quantity: 0 }] }), [[0, 'quantity']]],
        [
          'all of them at once',
          () => ({
            customerId: 987_654_321,
            at: 'soon',
            lines: [
              { sku: 'NOPE', quantity: 1 },
              { sku: fixture.skus.mug, quantity: 1 },
              { sku: 'NOPE', quantity: 2 },
            ],
          }),
          [
            [undefined, 'at'],
            [undefined, 'customerId'],
            [0, 'sku'],
            [2, 'sku'],
          ],
        ],
      ];

      it.each(cases)('%s', async (_name, make, expected) => {
        const response = await quote(make());
        expectError(response, 422, 10);
        expect((response.body as ProblemBody).errors.map(({ index, field }) => [index, field])).toEqual(expected);
      });

      it('stores nothing, answered or refused', async () => {
        const before = await snapshotStore(suite.server.services.database, suite.tenant.storeId);
        expect((await quote(body({ at: FROM }))).status).toBe(200);
        for (const [, make] of cases) expect((await quote(make())).status).toBe(422);
        expect(await snapshotStore(suite.server.services.database, suite.tenant.storeId)).toEqual(before);
      });
    });

    it('runs as many SQL statements for 1000 lines as for 1', async () => {
      const variations = Array.from({ length: 1000 }, (_, i) => ({ sku: `BULK-${engine}-${i}`, ...(i % 2 === 0 && { price: (100 + i) / 100 }) }));
      const bulk = await product(5, variations);
      const fixed = await priceList('fixed');
      await entries(
        fixed,
        variations.slice(0, 300).map(({ sku }) => ({ productId: bulk.id, sku, price: 0.5, minQuantity: 2 })),
      );
      const buyer = await customer({ trade: true, priceListIds: [fixed, await priceList('percentage', 10)] });
      await tradePrices(variations.slice(0, 100).map(({ sku }) => ({ customerId: buyer, productId: bulk.id, sku, price: 0.25, validFrom: FROM })));
      const statementsFor = async (lines: Array<{ sku: string }>) => {
        suite.server.statements.length = 0;
        const response = await quote({ customerId: buyer, at: UNTIL, lines: lines.map(({ sku }) => ({ sku, quantity: 2 })) });
        expect(response.status, response.text.slice(0, 300)).toBe(200);
        const quoteStatements = requestStatements(suite.server.statements);
        return { body: response.body as Quote, statements: quoteStatements.length };
      };
      const one = await statementsFor(variations.slice(0, 1));
      const all = await statementsFor(variations);
      expect(all.statements).toBe(one.statements);
      const sources = all.body.lines.map((line) => (line.priceListPriceId !== null ? 'entry' : line.source));
      expect([
        sources.filter((source) => source === 'trade').length,
        sources.filter((source) => source === 'entry').length,
        sources.filter((source) => source === 'price_list').length,
      ]).toEqual([100, 200, 700]);
    });

    it('needs the scopes trade_prices:read and catalog:read (it shows catalog prices), and only them', async () => {
      const { credentials } = suite.server.services;
      const reader = await credentials.issueKey(suite.tenant.storeId, ['trade_prices:read', 'catalog:read']);
      const pricesOnly = await credentials.issueKey(suite.tenant.storeId, ['trade_prices:read']);
      const everythingElse = await credentials.issueKey(
        suite.tenant.storeId,
        SCOPES.filter((scope) => scope !== 'trade_prices:read'),
      );
      const fixture = await createCatalog(suite.server, suite.tenant);
      const body = { customerId: fixture.regularCustomer, lines: [{ sku: fixture.skus.mug, quantity: 1 }] };
      expect((await quote(body, reader.token)).status).toBe(200);
      expectError(await quote(body, pricesOnly.token), 403, 4, /'catalog:read'/);
      expectError(await quote(body, everythingElse.token), 403, 4, /'trade_prices:read'/);
    });
  });

  it('orders price each line by the rule at its quantity, and keep where each price came from', async () => {
    const fixture = await createCatalog(suite.server, suite.tenant);
    const { mug, tee, skus } = fixture;
    const [fixed, percentage] = [await priceList('fixed'), await priceList('percentage', 12.5)];
    const [teeEntry] = await entries(fixed, [{ productId: tee, sku: skus.tee, price: 9.5 }]);
    const buyer = await customer({ trade: true, priceListIds: [fixed] });
    const [mugBreak] = await tradePrices([
      { customerId: buyer, productId: mug, sku: skus.mug, price: 3.5, minQuantity: 10 },
      { customerId: buyer, productId: tee, sku: skus.teeRedL, price: 1, minQuantity: 10 },
    ]);
    const lines = [
      { sku: skus.mug, quantity: 12 },
      { sku: skus.teeRedL, quantity: 9 },
      { sku: skus.tee, quantity: 1 },
      { sku: skus.teeRedM, quantity: 2 },
    ];
    const response = await request('POST', '/v1/orders', { customerId: buyer, lines });
    expect(response.status, response.text).toBe(201);
    const order = response.body as Order;
    expect(order.lines.map(({ sku, quantity, unitPrice, lineTotal, ...rest }) => ({ sku, quantity, unitPrice, lineTotal, ...origin(rest) }))).toEqual([
      { ...lines[0], unitPrice: 3.5, lineTotal: 42, ...trade(mugBreak!.id) },
      { ...lines[1], unitPrice: 10, lineTotal: 90, ...catalogPrice('product') },
      { ...lines[2], unitPrice: 9.5, lineTotal: 9.5, ...entry(fixed, teeEntry!) },
      { ...lines[3], unitPrice: 12.5, lineTotal: 25, ...catalogPrice('variation') },
    ]);
    expect(order.total).toBe(166.5);
    expect((await request('GET', `/v1/orders/${order.id}`)).body).toEqual(order);

    // Two mugs miss the break: the same customer pays the catalog price, a percentage list's customer its list's.
    const small = { lines: [{ sku: skus.mug, quantity: 2 }] };
    const again = await request('POST', '/v1/orders', { customerId: buyer, ...small });
    expect((again.body as typeof order).lines[0]).toMatchObject({ unitPrice: 4.2, lineTotal: 8.4, ...catalogPrice('product') });
    const listed = await request('POST', '/v1/orders', { customerId: await customer({ priceListIds: [percentage] }), ...small });
    // 12.5 % off 4.20 is 3.675: charged 3.68, to the penny, half-up.
    expect((listed.body as typeof order).lines[0]).toMatchObject({ unitPrice: 3.68, lineTotal: 7.36, ...percentageList(percentage) });
  });
});

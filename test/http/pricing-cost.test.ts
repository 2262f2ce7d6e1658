import { beforeAll, describe, expect, it } from 'vitest';
import type { Quote } from '../../src/contract/quotes.js';
import type { EffectivePrice, PriceCandidate } from '../../src/contract/trade-prices.js';
import type { NewTradePrice } from '../../src/modules/trade-prices/trade-price-repository.js';
import { type CatalogFixture, createCatalog } from '../support/catalog-fixture.js';
import { expectError } from '../support/conventions.js';
import { enginesUnderTest } from '../support/engines.js';
import { suiteServer } from '../support/suite-server.js';

/**
 * What a customer holding thousands of records of one SKU costs the pricing paths (issue
 * "Pricing cost", docs/pricing.md "Cost"), answered right: the next change found among thousands
 * of window bounds, candidates paged, and each line of a 1000-line quote priced by the rule from
 * the SKU's winners. The records go in through the repository, as a bulk create would store
 * them, to keep the setup fast.
 */
const TRADE = '/v1/trade-customer-product-prices';
const DAY_MS = 86_400_000;
/** Record i of the dated ones applies for the first 12 hours of day i from here. */
const FIRST_DAY = Date.parse('2031-01-01T00:00:00.000Z');
const moment = (ms: number) => new Date(ms).toISOString();
const windowOf = (day: number) => ({ validFrom: moment(FIRST_DAY + day * DAY_MS), validUntil: moment(FIRST_DAY + day * DAY_MS + DAY_MS / 2) });

let sequence = 0;

describe.each(await enginesUnderTest())('pricing cost on %s', (engine) => {
  const suite = suiteServer(engine, { tenants: 1 });
  const request = (method: string, path: string, body?: unknown) => suite.api.request(method, path, { token: suite.tenant.token, body });
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
  /** Stores the records as one bulk create would (no events: they are setup), and answers their ids in order. */
  const stored = async (items: NewTradePrice[]): Promise<number[]> => {
    const records = await suite.server.services.uow.transaction((repos) => repos.tradePrices.insertMany(suite.tenant.storeId, items, new Date().toISOString()));
    return records.map((record) => record.id);
  };
  const created = async <T>(path: string, body: unknown): Promise<T> => {
    const response = await request('POST', path, body);
    expect(response.status, response.text).toBe(201);
    return response.body as T;
  };

  describe('the next change among 3000 dated records', () => {
    const DATED = 3000;
    let fixture: CatalogFixture;
    let dated: number[];
    beforeAll(async () => {
      fixture = await createCatalog(suite.server, suite.tenant, `cost-${engine}-${++sequence}`);
      dated = await stored(
        Array.from({ length: DATED }, (_, day) => ({
          customerId: fixture.tradeCustomer,
          productId: fixture.mug,
          sku: fixture.skus.mug,
          price: 1,
          minQuantity: 1,
          ...windowOf(day),
        })),
      );
    });

    it('is the start of the next window, or the end of the one that applies', async () => {
      const before = await effective(fixture.tradeCustomer, fixture.skus.mug, { at: moment(FIRST_DAY - DAY_MS) });
      expect(before).toMatchObject({ source: 'product', price: 4.2, tradePriceId: null, nextChangeAt: windowOf(0).validFrom, candidateCount: DATED });
      const during = await effective(fixture.tradeCustomer, fixture.skus.mug, { at: moment(FIRST_DAY + 1500 * DAY_MS + 3_600_000) });
      expect(during).toMatchObject({
        source: 'trade',
        price: 1,
        tradePriceId: dated[1500],
        validUntil: windowOf(1500).validUntil,
        nextChangeAt: windowOf(1500).validUntil,
      });
      const between = await effective(fixture.tradeCustomer, fixture.skus.mug, { at: windowOf(1500).validUntil });
      expect(between).toMatchObject({ source: 'product', nextChangeAt: windowOf(1501).validFrom });
      const afterLast = await effective(fixture.tradeCustomer, fixture.skus.mug, { at: windowOf(DATED - 1).validUntil });
      expect(afterLast).toMatchObject({ source: 'product', nextChangeAt: null });
    });

    it('is null when a newer undated record outranks every window, and the answer still lists all the others as shadowed', async () => {
      const customerId = fixture.otherTradeCustomer;
      const hidden = await stored(
        dated.map((_, day) => ({ customerId, productId: fixture.mug, sku: fixture.skus.mug, price: 1, minQuantity: 1, ...windowOf(day) })),
      );
      const [undated] = await created<Array<{ id: number }>>(`${TRADE}/bulk`, [{ customerId, productId: fixture.mug, sku: fixture.skus.mug, price: 2 }]);
      const body = await effective(customerId, fixture.skus.mug, { at: moment(FIRST_DAY - DAY_MS) });
      expect(body).toMatchObject({ source: 'trade', price: 2, tradePriceId: undated!.id, nextChangeAt: null, candidateCount: DATED + 1 });
      expect(body.shadowedTradePriceIds).toEqual([...hidden].reverse());
      expect(body.candidates).toHaveLength(100);
      expect(body.candidates[0]).toMatchObject({ tradePriceId: undated!.id, applies: true, reason: null });
      expect(body.candidates[1]).toMatchObject({ tradePriceId: hidden.at(-1), applies: false, reason: `not valid until ${windowOf(DATED - 1).validFrom}` });
    });
  });

  describe('candidates, 100 at most, paged', () => {
    let fixture: CatalogFixture;
    let buyer: number;
    /** Every candidate in the rule's order: the trade prices newest first, the fixed list's entries newest first, the percentage list. */
    let order: Array<Pick<PriceCandidate, 'source' | 'tradePriceId' | 'priceListId' | 'priceListPriceId'>>;
    beforeAll(async () => {
      fixture = await createCatalog(suite.server, suite.tenant, `page-${engine}-${++sequence}`);
      const fixed = (await created<{ id: number }>('/v1/price-lists', { name: `Paged ${++sequence}`, kind: 'fixed' })).id;
      const percentage = (await created<{ id: number }>('/v1/price-lists', { name: `Paged ${++sequence}`, kind: 'percentage', percentage: 10 })).id;
      const entries = await created<Array<{ id: number }>>(
        `/v1/price-lists/${fixed}/prices/bulk`,
        Array.from({ length: 30 }, (_, n) => ({ productId: fixture.mug, sku: fixture.skus.mug, price: (300 + n) / 100 })),
      );
      buyer = (
        await created<{ id: number }>('/v1/customers', { email: `paged-${engine}-${++sequence}@example.com`, trade: true, priceListIds: [fixed, percentage] })
      ).id;
      const trade = await stored(
        Array.from({ length: 130 }, (_, n) => ({
          customerId: buyer,
          productId: fixture.mug,
          sku: fixture.skus.mug,
          price: (200 + n) / 100,
          minQuantity: 1,
          validFrom: null,
          validUntil: null,
        })),
      );
      order = [
        ...[...trade].reverse().map((id) => ({ source: 'trade' as const, tradePriceId: id, priceListId: null, priceListPriceId: null })),
        ...entries
          .map((entry) => entry.id)
          .reverse()
          .map((id) => ({ source: 'price_list' as const, tradePriceId: null, priceListId: fixed, priceListPriceId: id })),
        { source: 'price_list' as const, tradePriceId: null, priceListId: percentage, priceListPriceId: null },
      ];
    });
    const ids = (candidates: PriceCandidate[]) =>
      candidates.map(({ source, tradePriceId, priceListId, priceListPriceId }) => ({ source, tradePriceId, priceListId, priceListPriceId }));

    it('answers the first 100 and how many there are; candidatesOffset and candidatesCount page the rest in the same order', async () => {
      const first = await effective(buyer, fixture.skus.mug);
      expect(first.candidateCount).toBe(161);
      expect(ids(first.candidates)).toEqual(order.slice(0, 100));
      expect(first.shadowedTradePriceIds).toHaveLength(129);
      const rest = await effective(buyer, fixture.skus.mug, { candidatesOffset: 100 });
      expect(rest.candidateCount).toBe(161);
      expect(ids(rest.candidates)).toEqual(order.slice(100));
      const paged: PriceCandidate[] = [];
      for (let offset = 0; offset < 161; offset += 7)
        paged.push(...(await effective(buyer, fixture.skus.mug, { candidatesOffset: offset, candidatesCount: 7 })).candidates);
      expect(paged).toEqual([...first.candidates, ...rest.candidates]);
      const beyond = await effective(buyer, fixture.skus.mug, { candidatesOffset: 161 });
      expect(beyond).toMatchObject({ candidateCount: 161, candidates: [], source: 'trade', tradePriceId: order[0]!.tradePriceId });
    });

    it.each([
      ['candidatesCount', '0'],
      ['candidatesCount', '101'],
      ['candidatesCount', '1.5'],
      ['candidatesOffset', '-1'],
      ['candidatesOffset', 'x'],
    ])('refuses %s=%s (400, code 9, naming it)', async (name, value) => {
      const response = await request('GET', `${TRADE}/effective?customerId=${buyer}&sku=${fixture.skus.mug}&${name}=${value}`);
      expectError(response, 400, 9, new RegExp(`'${name}'`));
    });
  });

  it("explains a list's 4500 entries of one SKU, every one a candidate, newest first (PostgreSQL reads them a page at a time)", async () => {
    const fixture = await createCatalog(suite.server, suite.tenant, `list-${engine}-${++sequence}`);
    const list = (await created<{ id: number }>('/v1/price-lists', { name: `Long ${++sequence}`, kind: 'fixed' })).id;
    const entries = await suite.server.services.uow.transaction((repos) =>
      repos.priceLists.insertPrices(
        suite.tenant.storeId,
        list,
        Array.from({ length: 4500 }, (_, n) => ({
          productId: fixture.mug,
          sku: fixture.skus.mug,
          price: 1 + n / 100,
          minQuantity: 1,
          ...windowOf(n),
          quantityRule: null,
        })),
        new Date().toISOString(),
      ),
    );
    const buyer = (await created<{ id: number }>('/v1/customers', { email: `long-${engine}-${++sequence}@example.com`, trade: true, priceListIds: [list] })).id;
    const during = windowOf(4321);
    const newestFirst = entries.map((entry) => entry.id).reverse();
    const body = await effective(buyer, fixture.skus.mug, {
      at: moment(Date.parse(during.validFrom) + 3_600_000),
      candidatesOffset: 100,
      candidatesCount: 100,
    });
    expect(body).toMatchObject({ source: 'price_list', price: 44.21, nextChangeAt: during.validUntil, candidateCount: 4500 });
    expect(body.candidates.map((candidate) => candidate.priceListPriceId)).toEqual(newestFirst.slice(100, 200));
  });

  it("prices each line of a 1000-line quote of one SKU by the rule, from the newest valid record of the line's break", async () => {
    const fixture = await createCatalog(suite.server, suite.tenant, `lines-${engine}-${++sequence}`);
    const at = moment(FIRST_DAY + 10 * DAY_MS + 3_600_000);
    const customerId = fixture.tradeCustomer;
    const item = (price: number, minQuantity: number, window: { validFrom: string | null; validUntil: string | null }): NewTradePrice => ({
      customerId,
      productId: fixture.mug,
      sku: fixture.skus.mug,
      price,
      minQuantity,
      ...window,
    });
    const always = { validFrom: null, validUntil: null };
    // For each break, older records, then the winner, then newer ones that do not apply at `at`
    // (expired, not yet valid): 1200 records in all.
    const winners = new Map<number, number>();
    for (const [minQuantity, price] of [
      [1, 3],
      [10, 2.5],
      [100, 2],
      [500, 1.5],
    ] as const) {
      await stored(Array.from({ length: 150 }, (_, n) => item(price + 1, minQuantity, n % 2 === 0 ? always : windowOf(n))));
      winners.set(minQuantity, (await stored([item(price, minQuantity, windowOf(10))]))[0]!);
      await stored(Array.from({ length: 149 }, (_, n) => item(price - 0.5, minQuantity, n % 2 === 0 ? windowOf(11 + n) : windowOf(n % 10))));
    }
    const lines = Array.from({ length: 1000 }, (_, index) => ({ sku: fixture.skus.mug, quantity: index + 1 }));
    const response = await request('POST', '/v1/quotes', { customerId, at, lines });
    expect(response.status, response.text.slice(0, 300)).toBe(200);
    const breakOf = (quantity: number) => (quantity >= 500 ? 500 : quantity >= 100 ? 100 : quantity >= 10 ? 10 : 1);
    const unitPrice = { 1: 3, 10: 2.5, 100: 2, 500: 1.5 } as Record<number, number>;
    expect(
      (response.body as Quote).lines.map(({ quantity, source, tradePriceId, unitPrice: price }) => ({
        quantity,
        source,
        tradePriceId,
        price,
      })),
    ).toEqual(lines.map(({ quantity }) => ({ quantity, source: 'trade', tradePriceId: winners.get(breakOf(quantity)), price: unitPrice[breakOf(quantity)] })));
    // The effective price agrees at each break's edge.
    for (const quantity of [1, 9, 10, 99, 100, 499, 500, 1000]) {
      expect(await effective(customerId, fixture.skus.mug, { quantity, at, candidatesCount: 1 }), `quantity ${quantity}`).toMatchObject({
        tradePriceId: winners.get(breakOf(quantity)),
      });
    }
  });
});

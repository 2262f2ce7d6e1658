import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_PREVIEW_PAIRS, MAX_PRICES_PER_SET } from '../../src/contract/change-sets.js';
import type { NewTradePrice } from '../../src/modules/trade-prices/trade-price-repository.js';
import { insertTradeCustomers } from '../support/bulk-customers.js';
import { createCatalog } from '../support/catalog-fixture.js';
import { enginesUnderTest } from '../support/engines.js';
import { startTestServer, type HttpResponse, type Tenant, type TestServer } from '../support/test-server.js';
import { besideNeighbour, describeNeighbour, expectGoodNeighbour, type NeighbourFigures } from './support/noisy-neighbour.js';
import { figure, percentile, reportLine } from './support/report.js';

/**
 * A change set's three steps at their maxima beside another store (docs/change-sets.md,
 * "Limits"; docs/reliability.md, "Noisy neighbours"): store A's set grows to MAX_PRICES_PER_SET
 * prices by adds, is previewed (a page, the next page, the CSV) over MAX_PREVIEW_PAIRS customer
 * and SKU pairs, and is applied, each step while store B reads (its GETs' p99 under 100 ms, the
 * loop's own work under 50 ms a stretch, held under 150 ms) and writes a one-row bulk create
 * every WRITE_EVERY_MS, whose longest wait is reported: on SQLite, whose one writer a step's
 * transaction holds, it is about that step's length.
 *
 * (At 20 000 prices the apply's commit alone, one synchronous write of SQLite's, held the loop
 * 58 ms of its own work on a loaded machine, past the 50 ms bound: hence a set's 10 000.)
 *
 * Store A: a product with 1000 SKUs, 10 trade customers who all hold a percentage list, and one
 * of them (C1) 1000 prices of its own (one a SKU, written through the repository). The set:
 *
 * 1. a `trade_prices.replace` of C1 (scope `skus`) with 4 500 prices, 1000 of them C1's own
 *    (kept) and 3 500 new (breaks 2 to 5 of each SKU), measured;
 * 2. 4 500 `trade_price.create` of C2, by adds of 1000 (an add's most), the last full one
 *    measured: creations held before it are not carried out again;
 * 3. the last add, 1000 operations: the deletion of 999 of C1's records and the list's
 *    percentage, which brings the set to its 10 000 prices, measured. It names records whose
 *    customer's replace the set holds, the most an add depends on: the replace is tried again
 *    before it.
 *
 * The preview then prices every SKU for every holder of the list: 10 000 pairs, some 26 000
 * rows. A warm-up set (a few operations, previewed and applied) runs first, unmeasured, so the
 * paths are compiled.
 */
const SKUS = 1000;
const CUSTOMERS = 10;
/** Store B's one-row write comes this often during each step. */
const WRITE_EVERY_MS = 200;
/** Operations one add takes at most. */
const ADD_MOST = 1000;
/** The last add: the deletion of all but one of C1's records, and the list's percentage (an add's most operations). */
const LAST_ADD = ADD_MOST;
/** C1's replace and C2's creations hold the rest of the set's prices, C1's 1000 records among the replace's. */
const C1_REPLACE = Math.ceil((MAX_PRICES_PER_SET - LAST_ADD) / 2);
const C2_CREATES = MAX_PRICES_PER_SET - LAST_ADD - C1_REPLACE;

interface Step {
  label: string;
  response: HttpResponse;
  figures: NeighbourFigures;
  writes: number[];
}

describe.each(await enginesUnderTest())('a change set at its maxima beside another store on %s', (engine) => {
  let server: TestServer;
  let storeA: Tenant;
  let storeB: Tenant;
  let productId: number;
  let customers: number[];
  let listId: number;
  let ownIds: number[];
  let writeBody: unknown;
  let setId: number;

  const a = (method: string, path: string, body?: unknown) => server.request(method, path, { token: storeA.token, ...(body !== undefined && { body }) });
  const sku = (index: number) => `CS-${index % SKUS}`;
  const price = (index: number) => (100 + (index % 700)) / 100;

  /** `work` beside store B's reads (besideNeighbour) and its one-row writes; the writes' latencies, ms. */
  async function step(label: string, work: () => Promise<HttpResponse>): Promise<Step> {
    let writing = true;
    const writes: number[] = [];
    const writer = (async () => {
      for (let round = 0; writing && round < 1000; round++) {
        const started = performance.now();
        const written = await server.request('POST', '/v1/trade-customer-product-prices/bulk', { token: storeB.token, body: writeBody });
        writes.push(performance.now() - started);
        expect(written.status, written.text.slice(0, 300)).toBe(201);
        await new Promise((resolve) => setTimeout(resolve, WRITE_EVERY_MS));
      }
    })();
    try {
      const { result, figures } = await besideNeighbour(server, storeB, work);
      return { label, response: result, figures, writes };
    } finally {
      writing = false;
      await writer;
    }
  }

  function report({ label, response, figures, writes }: Step, what: string): void {
    const waits =
      writes.length === 0 ? 'none' : `${writes.length}, slowest ${Math.max(...writes).toFixed(0)} ms, median ${percentile(writes, 0.5).toFixed(0)} ms`;
    reportLine(
      describeNeighbour(`noisy-change-sets/${label}/${engine}`, `${what} (${response.status}); the other store's one-row writes meanwhile: ${waits}`, figures),
    );
  }

  beforeAll(async () => {
    server = await startTestServer(engine);
    storeA = await server.createTenant();
    storeB = await server.createTenant();
    const catalogB = await createCatalog(server, storeB);
    writeBody = [{ customerId: catalogB.tradeCustomer, productId: catalogB.mug, sku: catalogB.skus.mug, price: 3 }];
    const product = await a('POST', '/v1/products', {
      title: 'Many',
      sku: sku(0),
      price: 20,
      variations: Array.from({ length: SKUS - 1 }, (_, index) => ({ sku: sku(index + 1) })),
    });
    expect(product.status, product.text.slice(0, 300)).toBe(201);
    productId = (product.body as { id: number }).id;
    customers = await insertTradeCustomers(server, storeA.storeId, CUSTOMERS, `noisy-cs-${storeA.storeId}`);
    const list = await a('POST', '/v1/price-lists', { name: 'Off', kind: 'percentage', percentage: 5 });
    expect(list.status, list.text).toBe(201);
    listId = (list.body as { id: number }).id;
    for (const customerId of customers) expect((await a('PUT', `/v1/customers/${customerId}`, { priceListIds: [listId] })).status).toBe(200);
    const own: NewTradePrice[] = Array.from({ length: SKUS }, (_, index) => ({
      customerId: customers[0]!,
      productId,
      sku: sku(index),
      price: price(index),
      minQuantity: 1,
      validFrom: null,
      validUntil: null,
    }));
    ownIds = (await server.services.uow.transaction((repos) => repos.tradePrices.insertMany(storeA.storeId, own, new Date().toISOString()))).map(
      (record) => record.id,
    );

    // The warm-up: every path of the three steps once, on a customer the measured set leaves alone.
    const warm = (await a('POST', '/v1/change-sets', { name: 'Warm-up' })).body as { id: number };
    const warmOps = [
      {
        type: 'trade_prices.replace',
        customerId: customers[9],
        scope: 'customer',
        prices: Array.from({ length: 500 }, (_, index) => ({ productId, sku: sku(index), price: price(index) })),
      },
      { type: 'trade_price.create', customerId: customers[9], productId, sku: sku(1), price: 1, minQuantity: 7 },
    ];
    expect((await a('POST', `/v1/change-sets/${warm.id}/operations`, warmOps)).status).toBe(201);
    expect((await a('POST', `/v1/change-sets/${warm.id}/operations`, [{ type: 'trade_price.delete', id: ownIds[SKUS - 1] }])).status).toBe(201);
    expect((await a('GET', `/v1/change-sets/${warm.id}/preview?format=csv`)).status).toBe(200);
    expect((await a('POST', `/v1/change-sets/${warm.id}/discard`, {})).status).toBe(200);
    const set = (await a('POST', '/v1/change-sets', { name: 'At the maxima' })).body as { id: number };
    setId = set.id;
  }, 120_000);
  afterAll(() => server?.close());

  it(`adds to a set until it holds ${figure(MAX_PRICES_PER_SET)} prices, the last add naming records its replace touches`, async () => {
    const c1 = Array.from({ length: C1_REPLACE }, (_, index) => ({
      productId,
      sku: sku(index),
      price: price(index),
      minQuantity: 1 + Math.floor(index / SKUS),
    }));
    const creates = Array.from({ length: C2_CREATES }, (_, index) => ({
      type: 'trade_price.create',
      customerId: customers[1],
      productId,
      sku: sku(index),
      price: price(index + 3),
      minQuantity: 1 + Math.floor(index / SKUS),
    }));
    const last = [
      ...ownIds.slice(SKUS - LAST_ADD + 1).map((id) => ({ type: 'trade_price.delete', id })),
      { type: 'price_list.set_percentage', priceListId: listId, percentage: 7.5 },
    ];
    const adds: Array<[string | undefined, unknown[]]> = [
      [
        `a replace of ${figure(C1_REPLACE)} prices (${figure(SKUS)} kept)`,
        [{ type: 'trade_prices.replace', customerId: customers[0], scope: 'skus', prices: c1 }],
      ],
    ];
    const lastFull = Math.floor(C2_CREATES / ADD_MOST) * ADD_MOST - ADD_MOST;
    for (let start = 0; start < C2_CREATES; start += ADD_MOST) {
      adds.push([start === lastFull ? `${figure(ADD_MOST)} creations, after ${figure(start)} held` : undefined, creates.slice(start, start + ADD_MOST)]);
    }
    adds.push([`${figure(last.length)} operations naming ${figure(last.length - 1)} records that the held replace of ${figure(C1_REPLACE)} keeps`, last]);
    for (const [what, operations] of adds) {
      const send = () => a('POST', `/v1/change-sets/${setId}/operations`, operations);
      if (what === undefined) {
        const added = await send();
        expect(added.status, added.text.slice(0, 300)).toBe(201);
        continue;
      }
      const added = await step('add', send);
      report(added, `an add of ${what}`);
      expect(added.response.status, added.response.text.slice(0, 300)).toBe(201);
      expectGoodNeighbour(added.figures);
    }
    expect(((await a('GET', `/v1/change-sets/${setId}`)).body as { counts: { operations: number } }).counts.operations).toBe(1 + C2_CREATES + last.length);
    // It is full: one more price is refused, nothing tried.
    const more = await a('POST', `/v1/change-sets/${setId}/operations`, [
      { type: 'trade_price.create', customerId: customers[2], productId, sku: sku(0), price: 1 },
    ]);
    expect(more.status, more.text).toBe(422);
    expect(more.body).toMatchObject({ code: 10, errors: [{ field: null, message: expect.stringContaining(`at most ${MAX_PRICES_PER_SET}`) }] });
  }, 120_000);

  it(`previews it over ${figure(MAX_PREVIEW_PAIRS)} customer and SKU pairs: a page, the next page and the CSV`, async () => {
    const pages = await step('preview', async () => {
      const first = await a('GET', `/v1/change-sets/${setId}/preview?count=100`);
      expect(first.status, first.text.slice(0, 300)).toBe(200);
      const next = await a('GET', `/v1/change-sets/${setId}/preview?count=100&offset=100`);
      expect(next.status, next.text.slice(0, 300)).toBe(200);
      return a('GET', `/v1/change-sets/${setId}/preview?format=csv`);
    });
    const lines = pages.response.text.split('\n').length - 2;
    report(pages, `a preview's first page, next page and CSV (${figure(lines)} rows, ${figure(Math.round(pages.response.text.length / 1024))} KiB)`);
    expect(pages.response.status).toBe(200);
    const preview = (await a('GET', `/v1/change-sets/${setId}/preview?fields=counts,problems,pricesComplete,total`)).body as {
      counts: { prices: number };
      problems: unknown[];
      pricesComplete: boolean;
      total: number;
    };
    expect(preview).toMatchObject({ problems: [], pricesComplete: true, total: lines });
    expectGoodNeighbour(pages.figures);
  }, 120_000);

  it(`applies it: ${figure(MAX_PRICES_PER_SET)} prices in one transaction`, async () => {
    const applied = await step('apply', () => a('POST', `/v1/change-sets/${setId}/apply`, {}));
    report(applied, `an apply of ${figure(MAX_PRICES_PER_SET)} prices`);
    expect(applied.response.status, applied.response.text.slice(0, 300)).toBe(200);
    expect(applied.response.body).toMatchObject({ state: 'applied' });
    const count = await a('GET', `/v1/trade-customer-product-prices/count?customerId=${customers[0]}`);
    expect(count.body).toEqual({ count: C1_REPLACE - (LAST_ADD - 1) });
    expect((await a('GET', `/v1/trade-customer-product-prices/count?customerId=${customers[1]}`)).body).toEqual({ count: C2_CREATES });
    expectGoodNeighbour(applied.figures);
  }, 120_000);
});

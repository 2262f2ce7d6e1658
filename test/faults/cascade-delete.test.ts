import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NewTradePrice } from '../../src/modules/trade-prices/trade-price-repository.js';
import { type CatalogFixture, createCatalog } from '../support/catalog-fixture.js';
import { enginesUnderTest } from '../support/engines.js';
import { startTestServer, type Tenant, type TestServer } from '../support/test-server.js';
import { figure, percentile, reportLine } from './support/report.js';

/**
 * A product with 200 000 trade prices is deleted while another store reads: the delete must
 * not hold up that store's GETs (p99 under 100 ms), and must write one removal event per
 * price, each exactly once, before the product's own. The prices go in straight through the
 * repository (40 inserts of 5000), not over HTTP.
 */
const PRICES = 200_000;
const INSERT_CHUNK = 5000;
const P99_LIMIT_MS = 100;
const GET_INTERVAL_MS = 10;

describe.each(await enginesUnderTest())('cascading delete on %s', (engine) => {
  let server: TestServer;
  let storeA: Tenant;
  let storeB: Tenant;
  let catalogA: CatalogFixture;

  beforeAll(async () => {
    server = await startTestServer(engine);
    storeA = await server.createTenant();
    storeB = await server.createTenant();
    catalogA = await createCatalog(server, storeA);
    await createCatalog(server, storeB);
  });
  afterAll(() => server.close());

  it(`deletes a product with ${figure(PRICES)} trade prices without delaying another store's reads`, async () => {
    const createdAt = new Date().toISOString();
    for (let start = 0; start < PRICES; start += INSERT_CHUNK) {
      const items: NewTradePrice[] = Array.from({ length: INSERT_CHUNK }, (_, index) => ({
        customerId: index % 2 === 0 ? catalogA.tradeCustomer : catalogA.otherTradeCustomer,
        productId: catalogA.tee,
        sku: catalogA.skus.teeRedM,
        price: (start + index) / 100,
        minQuantity: 1,
        validFrom: null,
        validUntil: null,
      }));
      await server.services.uow.transaction((repos) => repos.tradePrices.insertMany(storeA.storeId, items, createdAt));
    }
    // A price of another product of the same store stays.
    const kept = await server.request('POST', '/v1/trade-customer-product-prices/bulk', {
      token: storeA.token,
      body: [{ customerId: catalogA.tradeCustomer, productId: catalogA.mug, sku: catalogA.skus.mug, price: 3 }],
    });
    expect(kept.status).toBe(201);
    const db = server.services.database.db;
    const lastEventBefore = Number((await db.selectFrom('events').select((eb) => eb.fn.max('id').as('id')).executeTakeFirstOrThrow()).id);
    expect((await server.request('GET', '/v1/customers?count=10', { token: storeB.token })).status).toBe(200);

    const started = performance.now();
    let deleting = true;
    const deleted = server.request('DELETE', `/v1/products/${catalogA.tee}`, { token: storeA.token }).finally(() => (deleting = false));
    const latencies: number[] = [];
    // Bounded: 6000 reads (a minute at the interval) at most.
    for (let i = 0; deleting && i < 6000; i++) {
      const readStarted = performance.now();
      const response = await server.request('GET', i % 2 === 0 ? '/v1/customers?count=10' : '/v1/trade-customer-product-prices?count=10', { token: storeB.token });
      expect(response.status).toBe(200);
      latencies.push(performance.now() - readStarted);
      await new Promise((resolve) => setTimeout(resolve, GET_INTERVAL_MS));
    }
    const response = await deleted;
    const seconds = (performance.now() - started) / 1000;
    expect(response.status).toBe(204);

    const removals = await db
      .selectFrom('events')
      .select((eb) => [eb.fn.countAll<number>().as('events'), sql<number>`count(distinct ${eb.ref('subject_id')})`.as('prices')])
      .where('store_id', '=', storeA.storeId)
      .where('id', '>', lastEventBefore)
      .where('topic', '=', 'trade_customer_product_price.deleted')
      .executeTakeFirstOrThrow();
    const last = await db.selectFrom('events').select(['topic', 'subject_id']).where('id', '>', lastEventBefore).orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow();
    const p99 = percentile(latencies, 0.99);
    reportLine(
      `cascade/${engine}: a product with ${figure(PRICES)} trade prices deleted in ${seconds.toFixed(1)} s (${response.status}); ` +
        `${latencies.length} GETs of another store meanwhile, p99 ${p99.toFixed(0)} ms, slowest ${Math.max(...latencies).toFixed(0)} ms (limit p99 ${P99_LIMIT_MS} ms); ` +
        `${figure(Number(removals.events))} removal events for ${figure(Number(removals.prices))} prices, then product.deleted`,
    );
    expect(latencies.length).toBeGreaterThanOrEqual(10);
    expect(p99).toBeLessThan(P99_LIMIT_MS);
    expect(Number(removals.events)).toBe(PRICES);
    expect(Number(removals.prices)).toBe(PRICES);
    expect(last).toEqual({ topic: 'product.deleted', subject_id: catalogA.tee });
    const left = await server.request('GET', '/v1/trade-customer-product-prices/count', { token: storeA.token });
    expect(left.body).toEqual({ count: 1 });
    expect((await server.request('GET', `/v1/products/${catalogA.tee}`, { token: storeA.token })).status).toBe(404);
  }, 120_000);
});

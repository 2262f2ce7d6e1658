import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Pricebook } from '@pricebook/client';
import { MAX_REPLACE_ITEMS } from '../../src/contract/trade-prices.js';
import { exportPrices } from '../../src/main/prices/export-command.js';
import { eventOf } from '../../src/modules/events/events.js';
import type { NewTradePrice } from '../../src/modules/trade-prices/trade-price-repository.js';
import { type CatalogFixture, createCatalog } from '../support/catalog-fixture.js';
import { enginesUnderTest } from '../support/engines.js';
import { startTestServer, type Tenant, type TestServer } from '../support/test-server.js';
import { startWorker } from '../support/webhook-fixture.js';
import { besideNeighbour, describeNeighbour, expectGoodNeighbour } from './support/noisy-neighbour.js';
import { figure, reportLine } from './support/report.js';

/**
 * Store A's largest catalog operations beside store B's reads (docs/reliability.md, "Noisy
 * neighbours"): a replace of a customer's prices at the documented maximum (10 000 prices, each
 * replacing one of the customer's 10 000: 10 000 deleted, 10 000 created, 20 000 events, one
 * transaction), then a full export of the store (50 000 prices) page by page as `pricebook
 * prices export` does it, with the typed client. B's GET p99 stays under 100 ms, the loop's own
 * work never takes 50 ms in one stretch, and resident memory grows by less than 256 MiB. The cascading delete of a
 * product with many prices is the same check in cascade-delete.test.ts.
 */
const REPLACED = MAX_REPLACE_ITEMS;
const STORE_PRICES = 50_000;
const INSERT_CHUNK = 5000;
/** Events waiting to be fanned out when the delivery worker starts. */
const FAN_OUT_BACKLOG = 100_000;

describe.each(await enginesUnderTest())('store A’s catalog work beside store B on %s', (engine) => {
  let server: TestServer;
  let storeA: Tenant;
  let storeB: Tenant;
  let catalogA: CatalogFixture;

  beforeAll(async () => {
    server = await startTestServer(engine);
    storeA = await server.createTenant();
    storeB = await server.createTenant();
    catalogA = await createCatalog(server, storeA);
    const catalogB = await createCatalog(server, storeB);
    const created = await server.request('POST', '/v1/trade-customer-product-prices/bulk', {
      token: storeB.token,
      body: Array.from({ length: 50 }, (_, index) => ({ customerId: catalogB.tradeCustomer, productId: catalogB.mug, sku: catalogB.skus.mug, price: 3, minQuantity: index + 1 })),
    });
    expect(created.status).toBe(201);
    // Store A: the replaced customer's 10 000 prices (one quantity break each), and the rest of
    // the store's prices for another customer; written straight through the repository.
    const createdAt = new Date().toISOString();
    for (let start = 0; start < STORE_PRICES; start += INSERT_CHUNK) {
      const items: NewTradePrice[] = Array.from({ length: INSERT_CHUNK }, (_, offset) => {
        const index = start + offset;
        const replaced = index < REPLACED;
        return {
          customerId: replaced ? catalogA.tradeCustomer : catalogA.otherTradeCustomer,
          productId: catalogA.tee,
          sku: catalogA.skus.teeRedM,
          price: (1000 + (index % 1000)) / 100,
          minQuantity: replaced ? index + 1 : (index % REPLACED) + 1,
          validFrom: null,
          validUntil: null,
        };
      });
      await server.services.uow.transaction((repos) => repos.tradePrices.insertMany(storeA.storeId, items, createdAt));
    }
  });
  afterAll(() => server.close());

  it(`replaces ${figure(REPLACED)} prices of a customer (the maximum) without holding up another store`, async () => {
    const prices = Array.from({ length: REPLACED }, (_, index) => ({ productId: catalogA.tee, sku: catalogA.skus.teeRedM, price: (2000 + (index % 1000)) / 100, minQuantity: index + 1 }));
    const { result, figures } = await besideNeighbour(server, storeB, () =>
      server.request('POST', '/v1/trade-customer-product-prices/replace', { token: storeA.token, body: { customerId: catalogA.tradeCustomer, scope: 'customer', prices } }),
    );
    reportLine(describeNeighbour(`noisy-catalog/replace/${engine}`, `a replace of ${figure(REPLACED)} prices (${figure(REPLACED)} deleted, ${figure(REPLACED)} created)`, figures));
    expect(result.status, result.text.slice(0, 300)).toBe(200);
    const body = result.body as { created: unknown[]; deleted: unknown[]; unchanged: number };
    expect([body.created.length, body.deleted.length, body.unchanged]).toEqual([REPLACED, REPLACED, 0]);
    const count = await server.request('GET', `/v1/trade-customer-product-prices/count?customerId=${catalogA.tradeCustomer}`, { token: storeA.token });
    expect(count.body).toEqual({ count: REPLACED });
    expectGoodNeighbour(figures);
  });

  it(`exports a store of ${figure(STORE_PRICES)} prices page by page, as \`pricebook prices export\` does, without holding up another store`, async () => {
    const client = new Pricebook({ baseUrl: server.baseUrl, token: storeA.token, ca: server.ca });
    let rows = 0;
    let bytes = 0;
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        bytes += chunk.length;
        rows += chunk.toString('utf8').split('\n').length - 1;
        done();
      },
    });
    const { figures } = await besideNeighbour(server, storeB, () => exportPrices(client, { format: 'long' }, sink, { write: () => true })).finally(() => client.close());
    reportLine(describeNeighbour(`noisy-catalog/export/${engine}`, `an export of ${figure(STORE_PRICES)} prices (${figure(STORE_PRICES / 100)} pages, ${(bytes / 2 ** 20).toFixed(1)} MiB of CSV)`, figures));
    // The header and one line a price.
    expect(rows).toBe(STORE_PRICES + 1);
    expectGoodNeighbour(figures);
  });

  it(`fans out a backlog of ${figure(FAN_OUT_BACKLOG)} events with the delivery worker \`serve\` runs, without holding up another store`, async () => {
    const db = server.services.database.db;
    const waiting = async () =>
      Number((await db.selectFrom('events').select((eb) => eb.fn.countAll<number>().as('count')).where('fanned_out', '=', 0).executeTakeFirstOrThrow()).count);
    // The replace's 20 000 events, and more as a cascade or an import leaves them (written here
    // straight through the repository).
    const createdAt = new Date().toISOString();
    for (let written = await waiting(); written < FAN_OUT_BACKLOG; written += INSERT_CHUNK) {
      const events = Array.from({ length: INSERT_CHUNK }, (_, index) => eventOf(storeA.storeId, 'trade_customer_product_price.deleted', { id: written + index + 1 }));
      await server.services.uow.transaction((repos) => repos.events.append(events, createdAt));
    }
    const backlog = await waiting();
    expect(backlog).toBeGreaterThanOrEqual(FAN_OUT_BACKLOG);
    // As `serve` runs it (its default poll), started once the watch is on; the events are no
    // webhook's, so each is only marked as fanned out.
    let worker: ReturnType<typeof startWorker> | undefined;
    try {
      // Bounded: 600 looks, 30 s at most.
      const { figures } = await besideNeighbour(server, storeB, async () => {
        worker = startWorker(server, { pollIntervalMs: 200 });
        for (let i = 0; i < 600 && (await waiting()) > 0; i++) await new Promise((resolve) => setTimeout(resolve, 50));
      });
      reportLine(describeNeighbour(`noisy-catalog/fan-out/${engine}`, `a backlog of ${figure(backlog)} events fanned out by the delivery worker`, figures));
      expect(await waiting()).toBe(0);
      expectGoodNeighbour(figures);
    } finally {
      await worker?.stop();
    }
  });
});

import { Webhook as StandardWebhook } from 'standardwebhooks';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildDeliveryWorker } from '../../src/app/delivery-worker.js';
import { buildServices } from '../../src/app/services.js';
import type { DeliveryWorker } from '../../src/webhooks/delivery-worker.js';
import { createCatalog } from '../support/catalog-fixture.js';
import { enginesUnderTest } from '../support/engines.js';
import { suiteServer } from '../support/suite-server.js';
import { startTestServer, type Tenant } from '../support/test-server.js';
import { sleep, startWorker, subscribe, testWorkerLog, waitForActive } from '../support/webhook-fixture.js';
import { startReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';

/** Three attempts, 0.2 s apart. */
const SCHEDULE = '0.2,0.2,0.2';

describe.each(await enginesUnderTest())('webhook delivery on %s', (engine) => {
  const suite = suiteServer(engine, { env: { PRICEBOOK_WEBHOOK_ALLOW_PRIVATE: '1', PRICEBOOK_WEBHOOK_RETRY_SCHEDULE: SCHEDULE }, tenants: 0 });
  let worker: DeliveryWorker;
  let tenant: Tenant;
  let receiver: WebhookReceiver;

  beforeAll(() => {
    worker = startWorker(suite.server);
  });
  afterAll(() => worker.stop());
  beforeEach(async () => {
    tenant = await suite.server.createTenant();
    receiver = await startReceiver();
    return () => receiver.close();
  });

  const createCustomer = async (email: string) => {
    const created = await suite.server.request('POST', '/v1/customers', { token: tenant.token, body: { email } });
    expect(created.status).toBe(201);
    return created.body as { id: number };
  };

  it('posts the event signed per Standard Webhooks, with the event id as webhook-id', async () => {
    const { secret } = await subscribe(suite.server, tenant, 'customer.created', receiver.url);
    const customer = await createCustomer('signed@example.com');
    await receiver.waitFor(() => receiver.deliveries.length === 1);

    const delivery = receiver.deliveries[0]!;
    expect(delivery.headers['content-type']).toBe('application/json');
    const payload = new StandardWebhook(secret).verify(delivery.body, delivery.headers as Record<string, string>);
    const [event] = (await suite.server.request('GET', '/v1/events', { token: tenant.token })).body as Array<{ id: number }>;
    expect(payload).toEqual({ timestamp: expect.any(String), event });
    expect(event).toMatchObject({ topic: 'customer.created', subjectId: customer.id, storeId: tenant.storeId, data: customer });
    expect(delivery.headers['webhook-id']).toBe(String(event!.id));
    expect(Math.abs(Number(delivery.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(30);
    // Another secret does not verify it.
    expect(() =>
      new StandardWebhook('whsec_' + Buffer.alloc(24, 7).toString('base64')).verify(delivery.body, delivery.headers as Record<string, string>),
    ).toThrow();
  });

  it('delivers each of 1000 prices created in one bulk call exactly once', async () => {
    const catalog = await createCatalog(suite.server, tenant);
    await subscribe(suite.server, tenant, 'trade_customer_product_price.created', receiver.url);
    const items = Array.from({ length: 1000 }, (_item, index) => ({
      customerId: catalog.tradeCustomer,
      productId: catalog.tee,
      sku: catalog.skus.tee,
      price: index / 100,
    }));
    const started = Date.now();
    const bulk = await suite.server.request('POST', '/v1/trade-customer-product-prices/bulk', { token: tenant.token, body: items });
    expect(bulk.status).toBe(201);
    await receiver.waitFor(() => receiver.deliveries.length >= 1000, 60_000);
    const seconds = (Date.now() - started) / 1000;
    console.log(`[${engine}] 1000 events delivered in ${seconds.toFixed(2)} s: ${(1000 / seconds).toFixed(0)} events/s`);
    await sleep(500);
    expect(receiver.deliveries.length).toBe(1000);
    expect(receiver.distinctIds().size).toBe(1000);
    const priceIds = new Set((bulk.body as Array<{ id: number }>).map((price) => price.id));
    const delivered = new Set(receiver.deliveries.map((request) => (JSON.parse(request.body) as { event: { subjectId: number } }).event.subjectId));
    expect(delivered).toEqual(priceIds);
  });

  it('retries a failing receiver on the schedule with the same webhook-id until it succeeds', async () => {
    const { id } = await subscribe(suite.server, tenant, 'customer.created', receiver.url);
    receiver.answer = (_request, attempt) => ({ status: attempt <= 2 ? 503 : 200 });
    await createCustomer('flaky@example.com');
    await receiver.waitFor(() => receiver.deliveries.length === 3);
    const ids = receiver.deliveries.map((request) => request.headers['webhook-id']);
    expect(new Set(ids).size).toBe(1);
    const gaps = receiver.deliveries.slice(1).map((request, index) => request.receivedAt - receiver.deliveries[index]!.receivedAt);
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(180);
    // Each attempt is signed anew, with its own timestamp.
    expect(receiver.deliveries[0]!.headers['webhook-signature']).not.toBe(receiver.deliveries[2]!.headers['webhook-signature']);
    await sleep(600);
    expect(receiver.deliveries.length).toBe(3);
    expect((await suite.server.request('GET', `/v1/webhooks/${id}`, { token: tenant.token })).body).toMatchObject({ active: true });
  });

  it('disables a webhook whose receiver fails every attempt of the schedule, and sends it nothing more', async () => {
    const { id } = await subscribe(suite.server, tenant, 'customer.created', receiver.url);
    receiver.answer = () => ({ status: 500 });
    await createCustomer('down@example.com');
    await waitForActive(suite.server, tenant, id, false);
    expect(receiver.deliveries.length).toBe(3);
    await createCustomer('after@example.com');
    await sleep(600);
    expect(receiver.deliveries.length).toBe(3);

    // Re-activation clears the failures; events from then on are delivered.
    receiver.answer = () => ({ status: 200 });
    expect((await suite.server.request('PUT', `/v1/webhooks/${id}`, { token: tenant.token, body: { active: true } })).body).toMatchObject({ active: true });
    await createCustomer('back@example.com');
    await receiver.waitFor(() => receiver.deliveries.length === 4);
    expect(JSON.parse(receiver.deliveries[3]!.body)).toMatchObject({ event: { data: { email: 'back@example.com' } } });
  });

  it('disables a webhook at once when the receiver answers 410 Gone', async () => {
    const { id } = await subscribe(suite.server, tenant, 'customer.created', receiver.url);
    receiver.answer = () => ({ status: 410 });
    await createCustomer('gone@example.com');
    await waitForActive(suite.server, tenant, id, false);
    await sleep(500);
    expect(receiver.deliveries.length).toBe(1);
  });

  it('does not follow a redirect: it is a failed attempt', async () => {
    const elsewhere = await startReceiver();
    try {
      await subscribe(suite.server, tenant, 'customer.created', receiver.url);
      receiver.answer = (_request, attempt) => (attempt === 1 ? { status: 307, headers: { location: elsewhere.url } } : { status: 200 });
      await createCustomer('redirected@example.com');
      await receiver.waitFor(() => receiver.deliveries.length === 2);
      expect(new Set(receiver.deliveries.map((request) => request.headers['webhook-id'])).size).toBe(1);
      expect(elsewhere.deliveries.length).toBe(0);
    } finally {
      await elsewhere.close();
    }
  });

  it('sends nothing to an unverified or inactive webhook, not even later', async () => {
    receiver.echoHandshake = false;
    const created = await suite.server.request('POST', '/v1/webhooks', { token: tenant.token, body: { topic: 'customer.created', url: receiver.url } });
    const { id } = created.body as { id: number };
    expect(created.body).toMatchObject({ verified: false });
    await createCustomer('unverified@example.com');
    await sleep(400);
    expect(receiver.deliveries.length).toBe(0);

    receiver.echoHandshake = true;
    expect((await suite.server.request('POST', `/v1/webhooks/${id}/verify`, { token: tenant.token, body: {} })).body).toMatchObject({ verified: true });
    await createCustomer('verified@example.com');
    await receiver.waitFor(() => receiver.deliveries.length === 1);
    await sleep(300);
    expect(receiver.deliveries.length).toBe(1);
    expect(JSON.parse(receiver.deliveries[0]!.body)).toMatchObject({ event: { data: { email: 'verified@example.com' } } });
  });
});

describe.runIf((await enginesUnderTest()).includes('postgres'))('two delivery workers on one PostgreSQL', () => {
  it('never send one event twice at the same time, and together deliver every event', async () => {
    const server = await startTestServer('postgres', { PRICEBOOK_WEBHOOK_ALLOW_PRIVATE: '1', PRICEBOOK_WEBHOOK_RETRY_SCHEDULE: SCHEDULE });
    const secondServices = await buildServices(server.config, { poolSize: 3 });
    const receiver = await startReceiver();
    const workers: DeliveryWorker[] = [];
    try {
      const tenant = await server.createTenant();
      const catalog = await createCatalog(server, tenant);
      await subscribe(server, tenant, 'trade_customer_product_price.created', receiver.url);
      // Slow answers keep requests in flight while the other worker claims.
      receiver.answer = () => ({ status: 200, delayMs: 5 });
      const items = Array.from({ length: 400 }, () => ({ customerId: catalog.tradeCustomer, productId: catalog.tee, sku: catalog.skus.tee, price: 3 }));
      expect((await server.request('POST', '/v1/trade-customer-product-prices/bulk', { token: tenant.token, body: items })).status).toBe(201);
      // Same per-webhook limit as in production would serialize them; raise it so the workers truly race.
      const options = { pollIntervalMs: 10, perWebhook: 8, concurrency: 8 };
      workers.push(startWorker(server, options), buildDeliveryWorker(server.config, secondServices, testWorkerLog, options));
      workers[1]!.start();
      await receiver.waitFor(() => receiver.distinctIds().size === 400, 60_000);
      await sleep(300);
      expect(receiver.concurrentDuplicates).toBe(0);
      expect(receiver.deliveries.length).toBe(400);
    } finally {
      await Promise.all(workers.map((worker) => worker.stop()));
      await receiver.close();
      await secondServices.close();
      await server.close();
    }
  });
});

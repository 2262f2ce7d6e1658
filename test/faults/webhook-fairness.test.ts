import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeliveryWorker } from '../../src/webhooks/delivery-worker.js';
import { enginesUnderTest } from '../support/engines.js';
import { startTestServer, type Tenant, type TestServer } from '../support/test-server.js';
import { startWorker, subscribe } from '../support/webhook-fixture.js';
import { startReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import { reportLine } from './support/report.js';

/**
 * One store's slow receivers must not starve the others: store A has 10 webhooks whose
 * receivers answer 200 after 4.9 s (just inside the time limit) and a backlog of events for
 * them; store B's deliveries must still arrive within 2 s each. The worker runs as configured
 * by default (8 requests in flight, 4 per store).
 */
const SLOW_RECEIVERS = 10;
const SLOW_ANSWER_MS = 4900;
const BACKLOG_EVENTS = 30;
const B_EVENTS = 5;
const LIMIT_MS = 2000;

describe.each(await enginesUnderTest())('webhook fairness on %s', (engine) => {
  let server: TestServer;
  let worker: DeliveryWorker;
  let storeA: Tenant;
  let storeB: Tenant;
  const receivers: WebhookReceiver[] = [];

  beforeAll(async () => {
    server = await startTestServer(engine, { PRICEBOOK_WEBHOOK_ALLOW_PRIVATE: '1' });
    storeA = await server.createTenant();
    storeB = await server.createTenant();
  });
  afterAll(async () => {
    // The receivers first: closing them ends the slow deliveries still in flight at once, where
    // the worker's stop would wait out their 4.9 s.
    await Promise.all(receivers.map((receiver) => receiver.close()));
    await worker?.stop();
    await server.close();
  });

  it(`delivers store B's events within ${LIMIT_MS / 1000} s while store A's ${SLOW_RECEIVERS} receivers answer after ${SLOW_ANSWER_MS / 1000} s`, async () => {
    for (let index = 0; index < SLOW_RECEIVERS; index++) {
      const receiver = await startReceiver();
      receiver.answer = () => ({ status: 200, delayMs: SLOW_ANSWER_MS });
      receivers.push(receiver);
      await subscribe(server, storeA, 'customer.created', receiver.url);
    }
    const fast = await startReceiver();
    receivers.push(fast);
    await subscribe(server, storeB, 'customer.created', fast.url);

    // A's backlog is older than anything of B's: due first, were claims in due order alone.
    for (let index = 0; index < BACKLOG_EVENTS; index++) {
      expect((await server.request('POST', '/v1/customers', { token: storeA.token, body: { email: `a${index}@example.com` } })).status).toBe(201);
    }
    worker = startWorker(server);
    const slow = receivers.slice(0, SLOW_RECEIVERS);
    await fast.waitFor(() => slow.reduce((sum, receiver) => sum + receiver.deliveries.length, 0) >= 4, 10_000);

    const delays: number[] = [];
    for (let index = 0; index < B_EVENTS; index++) {
      const createdAt = Date.now();
      expect((await server.request('POST', '/v1/customers', { token: storeB.token, body: { email: `b${index}@example.com` } })).status).toBe(201);
      await fast.waitFor(() => fast.deliveries.length > index, 10_000);
      delays.push(fast.deliveries[index]!.receivedAt - createdAt);
    }
    const inFlightA = slow.reduce((sum, receiver) => sum + receiver.deliveries.length, 0);
    reportLine(
      `fairness/${engine}: store A ${SLOW_RECEIVERS} receivers answering after ${SLOW_ANSWER_MS / 1000} s with ${BACKLOG_EVENTS * SLOW_RECEIVERS} deliveries due (${inFlightA} sent meanwhile); ` +
        `store B ${B_EVENTS} deliveries, slowest ${Math.max(...delays)} ms after its change (limit ${LIMIT_MS} ms)`,
    );
    expect(Math.max(...delays)).toBeLessThan(LIMIT_MS);
  }, 60_000);
});

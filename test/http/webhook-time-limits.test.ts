import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeliveryWorker } from '../../src/webhooks/delivery-worker.js';
import { PROTOCOL_ENGINES } from '../support/engines.js';
import { suiteServer } from '../support/suite-server.js';
import type { Tenant } from '../support/test-server.js';
import { startWorker, subscribe } from '../support/webhook-fixture.js';
import { startReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';

/**
 * README: the creation's handshake waits "5 s at most", and a delivery succeeds only with "a
 * 2xx within 5 seconds". A receiver answering in 3.5 s is in time, one answering in 7 s is not.
 * The four cases run at once, so each engine costs about 7 s.
 */
const IN_TIME_MS = 3_500;
const TOO_LATE_MS = 7_000;
/** Two attempts, 0.2 s apart. */
const SCHEDULE = '0.2,0.2';

describe.each(PROTOCOL_ENGINES)('webhook receiver time limits on %s', (engine) => {
  const suite = suiteServer(engine, { env: { PRICEBOOK_WEBHOOK_ALLOW_PRIVATE: '1', PRICEBOOK_WEBHOOK_RETRY_SCHEDULE: SCHEDULE }, tenants: 0 });
  let worker: DeliveryWorker;
  const receivers: WebhookReceiver[] = [];

  beforeAll(() => {
    worker = startWorker(suite.server);
  });
  afterAll(async () => {
    await worker.stop();
    await Promise.all(receivers.map((receiver) => receiver.close()));
  });

  const receiver = async () => {
    const started = await startReceiver();
    receivers.push(started);
    return started;
  };

  /** POST /v1/webhooks to a receiver echoing after `delayMs`; the answer and how long it took. */
  async function createWithHandshakeDelay(tenant: Tenant, delayMs: number) {
    const slow = await receiver();
    slow.handshakeDelayMs = delayMs;
    const started = performance.now();
    const created = await suite.server.request('POST', '/v1/webhooks', { token: tenant.token, body: { topic: 'customer.created', url: slow.url } });
    return { created, ms: performance.now() - started, handshakes: slow.handshakes.length };
  }

  /** A verified webhook whose receiver answers the first delivery 200 after `delayMs`, later ones at once. */
  async function deliverWithAnswerDelay(tenant: Tenant, delayMs: number) {
    const slow = await receiver();
    await subscribe(suite.server, tenant, 'customer.created', slow.url);
    slow.answer = (_request, attempt) => ({ status: 200, delayMs: attempt === 1 ? delayMs : 0 });
    expect((await suite.server.request('POST', '/v1/customers', { token: tenant.token, body: { email: `slow-${delayMs}@example.com` } })).status).toBe(201);
    return slow;
  }

  it('waits for a handshake echo up to 5 s and counts a 2xx after 5 s as a failed delivery', async () => {
    const [handshakeTenant, inTimeTenant, lateTenant] = [
      await suite.server.createTenant(),
      await suite.server.createTenant(),
      await suite.server.createTenant(),
    ];
    const [inTimeHandshake, lateHandshake, inTimeDelivery, lateDelivery] = await Promise.all([
      createWithHandshakeDelay(handshakeTenant, IN_TIME_MS),
      createWithHandshakeDelay(handshakeTenant, TOO_LATE_MS),
      deliverWithAnswerDelay(inTimeTenant, IN_TIME_MS),
      deliverWithAnswerDelay(lateTenant, TOO_LATE_MS),
    ]);

    // An echo after 3.5 s verifies.
    expect(inTimeHandshake.created.status, inTimeHandshake.created.text).toBe(201);
    expect(inTimeHandshake.created.body).toMatchObject({ verified: true, active: true });
    expect(inTimeHandshake.ms).toBeGreaterThanOrEqual(IN_TIME_MS - 100);
    // An echo after 7 s comes too late: the webhook is created unverified, about 5 s after the request.
    expect(lateHandshake.created.status, lateHandshake.created.text).toBe(201);
    expect(lateHandshake.created.body).toMatchObject({ verified: false, active: true });
    expect(lateHandshake.handshakes).toBe(1);
    expect(lateHandshake.ms, `answered after ${lateHandshake.ms.toFixed(0)} ms`).toBeGreaterThanOrEqual(4_900);
    expect(lateHandshake.ms, `answered after ${lateHandshake.ms.toFixed(0)} ms`).toBeLessThan(6_900);
    const { id } = lateHandshake.created.body as { id: number };
    expect((await suite.server.request('GET', `/v1/webhooks/${id}`, { token: handshakeTenant.token })).body).toMatchObject({ id, verified: false });

    // A 200 after 7 s is a failure: the event comes again, about 5 s (+ the 0.2 s delay) after the first attempt.
    await lateDelivery.waitFor(() => lateDelivery.deliveries.length === 2, 15_000);
    const [first, second] = lateDelivery.deliveries;
    expect(second!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
    const gap = second!.receivedAt - first!.receivedAt;
    expect(gap, `second attempt ${gap} ms after the first`).toBeGreaterThanOrEqual(5_000);
    expect(gap, `second attempt ${gap} ms after the first`).toBeLessThan(7_000);

    // A 200 after 3.5 s is a success: no second attempt (it would have come 0.2 s later).
    await inTimeDelivery.waitFor(() => inTimeDelivery.deliveries.length >= 1);
    const settled = inTimeDelivery.deliveries[0]!.receivedAt + IN_TIME_MS + 1_500;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, settled - Date.now())));
    expect(inTimeDelivery.deliveries).toHaveLength(1);
  }, 40_000);
});

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { WebhookDelivery } from '../../src/contract/webhooks.js';
import type { DeliveryWorker } from '../../src/webhooks/delivery-worker.js';
import { expectError } from '../support/conventions.js';
import { enginesUnderTest } from '../support/engines.js';
import { suiteServer } from '../support/suite-server.js';
import type { Tenant } from '../support/test-server.js';
import { startWorker, subscribe } from '../support/webhook-fixture.js';
import { startReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';

/** Two attempts, 0.2 s apart: a receiver that always fails has its delivery given up quickly. */
const SCHEDULE = '0.2,0.2';

/**
 * `GET /v1/webhooks/{id}/deliveries`: what the worker did with each event a webhook was to
 * receive, newest first, as its receiver saw it; only the webhook's own, only its store's, and
 * only to a credential that reads its topic.
 */
describe.each(await enginesUnderTest())('a webhook’s deliveries on %s', (engine) => {
  const suite = suiteServer(engine, { env: { PRICEBOOK_WEBHOOK_ALLOW_PRIVATE: '1', PRICEBOOK_WEBHOOK_RETRY_SCHEDULE: SCHEDULE }, tenants: 0 });
  let worker: DeliveryWorker;
  let tenant: Tenant;
  let receiver: WebhookReceiver;
  const deliveries = (webhookId: number, query = '', token = tenant.token) =>
    suite.server.request('GET', `/v1/webhooks/${webhookId}/deliveries${query}`, { token });
  const waitFor = async (webhookId: number, done: (list: WebhookDelivery[]) => boolean): Promise<WebhookDelivery[]> => {
    for (let tries = 0; tries < 200; tries++) {
      const list = (await deliveries(webhookId)).body as WebhookDelivery[];
      if (done(list)) return list;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error('the deliveries never got there');
  };

  beforeAll(() => {
    worker = startWorker(suite.server);
  });
  afterAll(() => worker.stop());
  beforeEach(async () => {
    tenant = await suite.server.createTenant();
    receiver = await startReceiver();
    return () => receiver.close();
  });

  it('lists each event’s delivery newest first: delivered with its status, or given up with the last answer', async () => {
    const { id } = await subscribe(suite.server, tenant, 'customer.created', receiver.url);
    // The first customer's event is refused every time; the other two are taken.
    receiver.answer = (request) => ({ status: request.body.includes('refused@') ? 503 : 200 });
    for (const email of ['refused@example.com', 'two@example.com', 'three@example.com']) {
      expect((await suite.server.request('POST', '/v1/customers', { token: tenant.token, body: { email } })).status).toBe(201);
    }
    const list = await waitFor(id, (found) => found.length === 3 && found.every((delivery) => delivery.status !== 'pending'));
    const events = ((await suite.server.request('GET', '/v1/events', { token: tenant.token })).body as Array<{ id: number }>).map((event) => event.id);
    expect(list.map((delivery) => delivery.eventId)).toEqual([...events].reverse());
    const [three, two, refused] = list;
    for (const delivered of [three!, two!]) {
      expect(delivered).toEqual({
        id: expect.any(Number),
        eventId: expect.any(Number),
        status: 'delivered',
        attempts: 1,
        lastStatus: null,
        lastError: null,
        nextAttemptAt: null,
        createdAt: expect.any(String),
        finishedAt: expect.any(String),
      });
    }
    expect(refused).toMatchObject({ status: 'failed', attempts: 2, lastStatus: 503, nextAttemptAt: null });
    expect(Date.parse(refused!.finishedAt!)).toBeGreaterThanOrEqual(Date.parse(refused!.createdAt));
    // Paged: count and offset, newest first.
    expect(((await deliveries(id, '?count=1&offset=1')).body as WebhookDelivery[]).map((delivery) => delivery.eventId)).toEqual([two!.eventId]);
    expectError(await deliveries(id, '?count=101'), 400, 9, /count/);
  });

  it('answers 404 for another store’s webhook and 403 to a credential that cannot read its topic', async () => {
    const { id } = await subscribe(suite.server, tenant, 'customer.created', receiver.url);
    const other = await suite.server.createTenant();
    expectError(await deliveries(id, '', other.token), 404, 5);
    // A key of the same store with `webhooks` but not the customers' read scope.
    const narrow = await suite.server.services.credentials.issueKey(tenant.storeId, ['webhooks', 'orders:read']);
    expectError(await deliveries(id, '', narrow.token), 403, 4, /catalog:read/);
    expectError(await suite.server.request('GET', `/v1/webhooks/${id + 1000}/deliveries`, { token: tenant.token }), 404, 5);
  });
});

import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import type { DeliveryWorker } from '../../src/webhooks/delivery-worker.js';
import { enginesUnderTest } from '../support/engines.js';
import { OffsetClock } from '../support/offset-clock.js';
import { suiteServer } from '../support/suite-server.js';
import type { Tenant, TestServer } from '../support/test-server.js';
import { sleep, startWorker, subscribe, waitForActive } from '../support/webhook-fixture.js';
import { startReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';

const HOUR_MS = 3_600_000;

/** The stored attempt count of the one delivery of `eventId` (a sync point: outcomes are written in batches). */
async function storedAttempts(server: TestServer, eventId: number): Promise<{ attempts: number; status: string }> {
  const row = await server.services.database.db
    .selectFrom('webhook_deliveries')
    .select(['attempts', 'status'])
    .where('event_id', '=', eventId)
    .executeTakeFirstOrThrow();
  return { attempts: Number(row.attempts), status: row.status };
}

async function waitForStoredAttempts(server: TestServer, eventId: number, attempts: number): Promise<string> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const stored = await storedAttempts(server, eventId).catch(() => undefined);
    if (stored?.attempts === attempts) return stored.status;
    if (Date.now() > deadline) throw new Error(`delivery of event ${eventId}: ${attempts} attempts not recorded within 10 s (${JSON.stringify(stored)})`);
    await sleep(20);
  }
}

const eventOf = (receiver: WebhookReceiver, index: number) => JSON.parse(receiver.deliveries[index]!.body) as { timestamp: string; event: { id: number } };

/**
 * README: "A failed attempt is retried on PRICEBOOK_WEBHOOK_RETRY_SCHEDULE (default: every
 * hour) … After as many failed attempts as the schedule has entries (24 by default: a day of
 * retries) the delivery is given up". The clock is moved an hour at a time.
 */
describe.each(await enginesUnderTest())('the default retry schedule on %s', (engine) => {
  const clock = new OffsetClock();
  const suite = suiteServer(engine, { env: { PRICEBOOK_WEBHOOK_ALLOW_PRIVATE: '1' }, services: { clock }, tenants: 1 });
  let worker: DeliveryWorker | undefined;
  afterAll(() => worker?.stop());

  it('retries a failing receiver every hour, 24 attempts in all, then sets the webhook inactive', async () => {
    const receiver = await startReceiver();
    try {
      const { id } = await subscribe(suite.server, suite.tenant, 'customer.created', receiver.url);
      receiver.answer = () => ({ status: 500 });
      worker = startWorker(suite.server);
      expect((await suite.api.request('POST', '/v1/customers', { token: suite.tenant.token, body: { email: 'unlucky@example.com' } })).status).toBe(201);
      await receiver.waitFor(() => receiver.deliveries.length === 1);
      const eventId = eventOf(receiver, 0).event.id;

      for (let attempt = 1; attempt < 24; attempt++) {
        expect(await waitForStoredAttempts(suite.server, eventId, attempt)).toBe('pending');
        if (attempt === 1) {
          // Not a second before the hour is up.
          clock.advance(HOUR_MS - 2_000);
          await sleep(400);
          expect(receiver.deliveries).toHaveLength(1);
          clock.advance(2_100);
        } else {
          clock.advance(HOUR_MS + 100);
        }
        await receiver.waitFor(() => receiver.deliveries.length === attempt + 1, 10_000);
      }
      expect(await waitForStoredAttempts(suite.server, eventId, 24)).toBe('failed');
      await waitForActive(suite.server, suite.tenant, id, false);

      // Each attempt an hour (and at most a few seconds of the test's own steps) after the one before, same webhook-id.
      const sent = receiver.deliveries.map((_delivery, index) => Date.parse(eventOf(receiver, index).timestamp));
      const gaps = sent.slice(1).map((at, index) => at - sent[index]!);
      expect(gaps).toHaveLength(23);
      for (const gap of gaps) {
        expect(gap).toBeGreaterThanOrEqual(HOUR_MS);
        expect(gap).toBeLessThan(HOUR_MS + 10_000);
      }
      expect(new Set(receiver.deliveries.map((delivery) => delivery.headers['webhook-id']))).toEqual(new Set([String(eventId)]));

      // Given up: a day later nothing more comes.
      clock.advance(24 * HOUR_MS);
      await sleep(400);
      expect(receiver.deliveries).toHaveLength(24);
    } finally {
      await receiver.close();
    }
  });
});

/** README: "… the webhook is set inactive unless a delivery to it succeeded meanwhile". */
describe.each(await enginesUnderTest())('a webhook with a success meanwhile on %s', (engine) => {
  /**
   * Three attempts, the last 2 s after the second: the other event's delivery must succeed
   * before the failing one is given up (that is the rule), and on a loaded machine 0.4 s was
   * sometimes not enough for it, so the webhook was rightly set inactive.
   */
  const suite = suiteServer(engine, { env: { PRICEBOOK_WEBHOOK_ALLOW_PRIVATE: '1', PRICEBOOK_WEBHOOK_RETRY_SCHEDULE: '0.2,2,0.2' }, tenants: 0 });
  let worker: DeliveryWorker | undefined;
  let tenant: Tenant;
  afterAll(() => worker?.stop());
  beforeEach(async () => {
    tenant = await suite.server.createTenant();
    worker ??= startWorker(suite.server);
  });

  const createCustomer = async (email: string) =>
    expect((await suite.server.request('POST', '/v1/customers', { token: tenant.token, body: { email } })).status).toBe(201);
  const emailOf = (body: string) => (JSON.parse(body) as { event: { data: { email: string } } }).event.data.email;

  it('stays active when one event fails every attempt while another is delivered', async () => {
    const receiver = await startReceiver();
    try {
      const { id } = await subscribe(suite.server, tenant, 'customer.created', receiver.url);
      receiver.answer = (request) => ({ status: emailOf(request.body) === 'doomed@example.com' ? 500 : 200 });
      await createCustomer('doomed@example.com');
      await createCustomer('fine@example.com');
      const doomed = () => receiver.deliveries.filter((delivery) => emailOf(delivery.body) === 'doomed@example.com').length;
      await receiver.waitFor(() => doomed() === 3);
      // Given up once the third failure is stored.
      const doomedEvent = JSON.parse(receiver.deliveries.find((delivery) => emailOf(delivery.body) === 'doomed@example.com')!.body) as {
        event: { id: number };
      };
      expect(await waitForStoredAttempts(suite.server, doomedEvent.event.id, 3)).toBe('failed');
      expect((await suite.server.request('GET', `/v1/webhooks/${id}`, { token: tenant.token })).body).toMatchObject({ id, active: true });

      // And it goes on receiving.
      await createCustomer('later@example.com');
      await receiver.waitFor(() => receiver.deliveries.some((delivery) => emailOf(delivery.body) === 'later@example.com'));
    } finally {
      await receiver.close();
    }
  });
});

import { afterAll, describe, expect, it } from 'vitest';
import { buildMaintenanceLoop } from '../../src/app/maintenance.js';
import type { MaintenanceLoop } from '../../src/modules/maintenance/maintenance-loop.js';
import type { DeliveryWorker } from '../../src/webhooks/delivery-worker.js';
import { enginesUnderTest } from '../support/engines.js';
import { OffsetClock } from '../support/offset-clock.js';
import { suiteServer } from '../support/suite-server.js';
import { startWorker, subscribe } from '../support/webhook-fixture.js';
import { startReceiver } from '../support/webhook-receiver.js';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/** README: "Events are kept 7 days, then purged" (by the maintenance loop, as `serve` runs it). */
describe.each(await enginesUnderTest())('event retention on %s', (engine) => {
  const clock = new OffsetClock();
  const suite = suiteServer(engine, { env: { PRICEBOOK_WEBHOOK_ALLOW_PRIVATE: '1' }, services: { clock }, tenants: 1 });
  let worker: DeliveryWorker | undefined;
  let maintenance: MaintenanceLoop | undefined;
  afterAll(async () => {
    await maintenance?.stop();
    await worker?.stop();
  });

  const feed = async () => {
    const answer = await suite.api.request('GET', '/v1/events?count=100', { token: suite.tenant.token });
    expect(answer.status).toBe(200);
    return (answer.body as Array<{ id: number; data: { email: string } }>).map((event) => event.data.email);
  };

  it('keeps an event 7 days and purges it after, younger ones staying', async () => {
    const receiver = await startReceiver();
    try {
      await subscribe(suite.server, suite.tenant, 'customer.created', receiver.url);
      expect((await suite.api.request('POST', '/v1/customers', { token: suite.tenant.token, body: { email: 'old@example.com' } })).status).toBe(201);
      clock.advance(2 * DAY);
      expect((await suite.api.request('POST', '/v1/customers', { token: suite.tenant.token, body: { email: 'young@example.com' } })).status).toBe(201);

      // A minute short of 7 days after the first event: delivered, and still in the feed while
      // the maintenance loop runs (polling every 50 ms instead of every minute).
      clock.advance(5 * DAY - MINUTE);
      worker = startWorker(suite.server);
      await receiver.waitFor(() => receiver.deliveries.length === 2);
      maintenance = buildMaintenanceLoop(suite.server.services, { error: (details, message) => console.error(message, details) }, { idleIntervalMs: 50 });
      maintenance.start();
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(await feed()).toEqual(['old@example.com', 'young@example.com']);

      // 7 days and a minute: the old one goes, the young one stays.
      clock.advance(2 * MINUTE);
      const deadline = Date.now() + 10_000;
      while ((await feed()).length === 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(await feed()).toEqual(['young@example.com']);
    } finally {
      await receiver.close();
    }
  });
});

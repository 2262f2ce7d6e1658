import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildMaintenanceLoop } from '../../src/app/maintenance.js';
import { EVENT_RETENTION_MS } from '../../src/modules/events/event-feed-service.js';
import type { NewEvent } from '../../src/modules/events/event-repository.js';
import { enginesUnderTest } from '../support/engines.js';
import { startTestServer, type Tenant, type TestServer } from '../support/test-server.js';
import { figure, reportLine } from './support/report.js';

/**
 * The events table stays flat under what one credential can write: 2000 events a second
 * (a bulk of 1000 at the default rate of 2 requests a second, ~170 million a day), written 500
 * every 0.25 s, while the maintenance loop purges. The clock is injected and moves the
 * retention (7 days) in 20 ticks of 0.25 s, so events fall due after 5 s instead of a week; the
 * loop's idle interval is scaled the same way (one tick). After the first 20 ticks the table must hold about 20
 * ticks of events, no more, for the rest of the run.
 *
 * The check counts rows and asserts no time: the clock moves by ticks, not by the wall, a tick
 * writes its 500 events however busy the machine is, and the loop (in this process) still rests
 * one tick's 0.25 s between rounds that each purge all that is due. A busy machine only makes
 * a tick longer (the line then reports fewer events a second), so it runs in the fault suite's
 * untimed group, beside other checks.
 */
const EVENTS_PER_TICK = 500;
const TICK_MS = 250;
const RETENTION_TICKS = 20;
const STEADY_TICKS = 24;
/** The table may hold this many ticks beyond the retention at most (a batch under way, a pause). */
const SLACK_TICKS = 4;

describe.each(await enginesUnderTest())('events purge soak on %s', (engine) => {
  let now = Date.parse('2026-01-01T00:00:00.000Z');
  let server: TestServer;
  let tenant: Tenant;

  beforeAll(async () => {
    server = await startTestServer(engine, {}, { services: { clock: { now: () => now } } });
    tenant = await server.createTenant();
  });
  afterAll(() => server.close());

  it(`keeps the events table flat at ${EVENTS_PER_TICK / (TICK_MS / 1000)} events/s`, async () => {
    const loop = buildMaintenanceLoop(server.services, { error: (details, message) => console.error(message, details) }, { idleIntervalMs: TICK_MS });
    loop.start();
    const count = async () =>
      Number(
        (
          await server.services.database.db
            .selectFrom('events')
            .select((eb) => eb.fn.countAll<number>().as('count'))
            .executeTakeFirstOrThrow()
        ).count,
      );
    const sizes: number[] = [];
    const started = performance.now();
    try {
      for (let tick = 0; tick < RETENTION_TICKS + STEADY_TICKS; tick++) {
        const tickStarted = performance.now();
        const events: NewEvent[] = Array.from({ length: EVENTS_PER_TICK }, (_, index) => ({
          storeId: tenant.storeId,
          topic: 'trade_customer_product_price.created',
          subjectId: tick * EVENTS_PER_TICK + index + 1,
          data: { id: tick * EVENTS_PER_TICK + index + 1, customerId: 1, productId: 1, sku: 'SOAK-1', price: 9.99, createdAt: new Date(now).toISOString() },
        }));
        await server.services.uow.transaction((repos) => repos.events.append(events, new Date(now).toISOString()));
        if (tick >= RETENTION_TICKS) sizes.push(await count());
        now += EVENT_RETENTION_MS / RETENTION_TICKS;
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, TICK_MS - (performance.now() - tickStarted))));
      }
    } finally {
      await loop.stop();
    }
    const seconds = (performance.now() - started) / 1000;
    const written = (RETENTION_TICKS + STEADY_TICKS) * EVENTS_PER_TICK;
    const limit = (RETENTION_TICKS + SLACK_TICKS) * EVENTS_PER_TICK;
    const firstHalf = Math.max(...sizes.slice(0, STEADY_TICKS / 2));
    const secondHalf = Math.max(...sizes.slice(STEADY_TICKS / 2));
    reportLine(
      `purge-soak/${engine}: ${figure(written)} events written in ${seconds.toFixed(0)} s (${figure(Math.round(written / seconds))}/s), ${figure(loop.purged.get('events') ?? 0)} purged; ` +
        `table after the retention between ${figure(Math.min(...sizes))} and ${figure(Math.max(...sizes))} rows (retention holds ${figure(RETENTION_TICKS * EVENTS_PER_TICK)}, limit ${figure(limit)}; largest in the first half ${figure(firstHalf)}, second half ${figure(secondHalf)})`,
    );
    expect(Math.max(...sizes)).toBeLessThanOrEqual(limit);
    // Flat, not growing slowly: the second half is no larger than the first (a tick of slack).
    expect(secondHalf).toBeLessThanOrEqual(firstHalf + EVENTS_PER_TICK);
  }, 120_000);
});

import { afterEach, describe, expect, it } from 'vitest';
import { buildMaintenanceLoop } from '../../src/app/maintenance.js';
import type { MaintenanceLoop } from '../../src/modules/maintenance/maintenance-loop.js';
import { enginesUnderTest } from '../support/engines.js';
import { suiteServer } from '../support/suite-server.js';

const HOUR_MS = 3600 * 1000;
const DAY_MS = 24 * HOUR_MS;

describe.each(await enginesUnderTest())('maintenance on %s', (engine) => {
  let now = Date.parse('2026-01-01T00:00:00.000Z');
  const suite = suiteServer(engine, { tenants: 1, services: { clock: { now: () => now } } });
  let loop: MaintenanceLoop | undefined;
  afterEach(() => loop?.stop());

  const log = { error: (details: object, message: string) => console.error(message, details) };
  const rows = async (table: 'events' | 'idempotency_records') =>
    Number(
      (
        await suite.server.services.database.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('count'))
          .executeTakeFirstOrThrow()
      ).count,
    );
  /** Runs the loop (batches of 2) until it has purged `count` rows of `task`, 20 s at most. */
  const purgeUntil = async (task: string, count: number) => {
    loop = buildMaintenanceLoop(suite.server.services, log, { batchSize: 2, batchPauseMs: 1 });
    loop.start();
    const deadline = Date.now() + 20_000;
    while ((loop.purged.get(task) ?? 0) < count && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    await loop.stop();
    return loop.purged.get(task) ?? 0;
  };
  const create = (email: string, key: string) =>
    suite.server.request('POST', '/v1/customers', { token: suite.tenant.token, body: { email }, headers: { 'idempotency-key': key } });

  it('purges idempotency keys past their 24 hours and events past their 7 days, in bounded batches, and nothing younger', async () => {
    for (let index = 0; index < 5; index++) expect((await create(`old${index}@example.com`, `old-${index}`)).status).toBe(201);
    now += 25 * HOUR_MS;
    expect((await create('new@example.com', 'new')).status).toBe(201);
    const eventsBefore = await rows('events');

    expect(await purgeUntil('idempotency keys', 5)).toBe(5);
    expect(await rows('idempotency_records')).toBe(1);
    expect(await rows('events')).toBe(eventsBefore);
    // The key is free again: the same request creates anew instead of replaying.
    const again = await create('old0-again@example.com', 'old-0');
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBeUndefined();
    // Still remembered: replayed.
    expect((await create('new@example.com', 'new')).headers['idempotent-replayed']).toBe('true');

    now += 7 * DAY_MS;
    const feedBefore = (await suite.server.request('GET', '/v1/events?count=100', { token: suite.tenant.token })).body as Array<{ createdAt: string }>;
    const old = feedBefore.filter((event) => Date.parse(event.createdAt) < now - 7 * DAY_MS);
    expect(old.length).toBeGreaterThanOrEqual(5);
    expect(await purgeUntil('events', old.length)).toBe(old.length);
    const feed = (await suite.server.request('GET', '/v1/events?count=100', { token: suite.tenant.token })).body as Array<{ createdAt: string }>;
    expect(feed).toEqual(feedBefore.slice(old.length));
    expect(await rows('idempotency_records')).toBe(0);
  });
});

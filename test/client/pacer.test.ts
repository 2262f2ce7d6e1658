import type { IncomingHttpHeaders } from 'node:http';
import { describe, expect, it } from 'vitest';
import { MemoryRateLimiter } from '../../src/rate-limit/memory-rate-limiter.js';
import { Pacer, type PacerTimer } from '../../packages/client/src/pacer.js';

/** The server's own leaky bucket on a simulated clock: a request takes `latencyMs` of it. */
function simulatedServer(bucketSize: number, leakPerSecond: number, latencyMs = 5) {
  let now = 1_000_000;
  const limiter = new MemoryRateLimiter({ bucketSize, leakPerSecond }, { now: () => now });
  const answered = { ok: 0, refused: 0 };
  const timer: PacerTimer = {
    now: () => now,
    sleep: async (ms) => {
      now += ms;
    },
  };
  const send = async (): Promise<{ status: number; headers: IncomingHttpHeaders }> => {
    const decision = await limiter.take('key');
    // Let other requests in flight take their turn, as a real server would.
    await new Promise((resolve) => setImmediate(resolve));
    now += latencyMs;
    const headers: IncomingHttpHeaders = { 'x-rate-limit-limit': String(decision.limit), 'x-rate-limit-remaining': String(decision.remaining) };
    if (decision.allowed) {
      answered.ok += 1;
      return { status: 200, headers };
    }
    answered.refused += 1;
    return { status: 429, headers: { ...headers, 'retry-after': String(decision.retryAfterSeconds) } };
  };
  return { timer, send, answered, elapsedMs: () => now - 1_000_000 };
}

describe('the pacer', () => {
  it('keeps the default bucket (40, leaking 2 a second) from refusing anything, at the leak rate', async () => {
    const server = simulatedServer(40, 2);
    const pacer = new Pacer(true, {}, server.timer);
    for (let index = 0; index < 200; index++) expect((await pacer.run(server.send)).status).toBe(200);
    expect(server.answered).toEqual({ ok: 200, refused: 0 });
    expect(pacer.stats()).toMatchObject({ requests: 200, retriedAfter429: 0 });
    // 39 in the burst, the other 161 at 2 a second.
    expect(server.elapsedMs() / 1000).toBeGreaterThan(75);
    expect(server.elapsedMs() / 1000).toBeLessThan(90);
  });

  it('learns a leak slower than its first guess: longer waits, no 429 surfaced', async () => {
    const server = simulatedServer(10, 0.25);
    const pacer = new Pacer(true, {}, server.timer);
    for (let index = 0; index < 40; index++) expect((await pacer.run(server.send)).status).toBe(200);
    expect(server.answered.ok).toBe(40);
    // The refusals while it learnt were retried, and they stopped: the wait is now 4 s, a place.
    expect(pacer.stats().retriedAfter429).toBe(server.answered.refused);
    expect(server.answered.refused).toBeLessThanOrEqual(2);
    // 9 in the burst, the other 31 at one every 4 s.
    expect(server.elapsedMs() / 1000).toBeLessThan(135);
  });

  it('lets concurrent requests share what the last answer said', async () => {
    const server = simulatedServer(5, 1);
    const pacer = new Pacer(true, {}, server.timer);
    await pacer.run(server.send);
    const statuses = await Promise.all(Array.from({ length: 30 }, () => pacer.run(server.send)));
    expect(statuses.every((response) => response.status === 200)).toBe(true);
    expect(server.answered.refused).toBe(0);
  });

  it('retries a 429 after its Retry-After, and counts it', async () => {
    const server = simulatedServer(3, 0.5);
    const other = new Pacer(false, {}, server.timer);
    for (let index = 0; index < 4; index++) await other.run(server.send);
    const pacer = new Pacer(true, {}, server.timer);
    expect((await pacer.run(server.send)).status).toBe(200);
    expect(pacer.stats()).toEqual({ requests: 2, waitedMs: 2000, retriedAfter429: 1 });
  });

  it('waits out a 429 that leaves places in the bucket (a full import queue) without slowing its pace', async () => {
    const server = simulatedServer(40, 2);
    let queueFull = true;
    const send = async () => {
      if (!queueFull) return server.send();
      queueFull = false;
      return { status: 429, headers: { 'x-rate-limit-limit': '40', 'x-rate-limit-remaining': '30', 'retry-after': '60' } as IncomingHttpHeaders };
    };
    const pacer = new Pacer(true, {}, server.timer);
    expect((await pacer.run(send)).status).toBe(200);
    expect(pacer.stats()).toEqual({ requests: 2, waitedMs: 60_000, retriedAfter429: 1 });
    // The bucket drained afterwards: waits of the first guess (1 s), not of the minute.
    for (let index = 0; index < 45; index++) expect((await pacer.run(send)).status).toBe(200);
    expect(pacer.stats().waitedMs - 60_000).toBeLessThan(10_000);
  });

  it('with waitAhead off, sends at once and only waits out 429s, each for its own Retry-After, capped, and tells each wait', async () => {
    const server = simulatedServer(3, 0.5);
    const waits: Array<[number, string]> = [];
    const pacer = new Pacer(true, { waitAhead: false, maxRetryAfterMs: 1500, onWait: (waitMs, cause) => waits.push([waitMs, cause]) }, server.timer);
    // Three fit the bucket; the fourth is refused (Retry-After 2 s, waited 1.5 s), refused again (1 s), then let in.
    for (let index = 0; index < 4; index++) expect((await pacer.run(server.send)).status).toBe(200);
    expect(waits).toEqual([
      [1500, 'retry-after'],
      [0, 'retry-after'],
      [1000, 'retry-after'],
      [0, 'retry-after'],
    ]);
    expect(server.answered.refused).toBe(2);
    expect(pacer.stats()).toEqual({ requests: 6, waitedMs: 2500, retriedAfter429: 2 });
  });

  it('ends a wait at once when its signal is aborted, with the reason', async () => {
    const refused = async () => ({ status: 429, headers: { 'retry-after': '30' } as IncomingHttpHeaders });
    const controller = new AbortController();
    const waits: number[] = [];
    const pacer = new Pacer(true, { onWait: (waitMs) => waits.push(waitMs) });
    const run = pacer.run(refused, controller.signal);
    setTimeout(() => controller.abort(new Error('moved on')), 20);
    const started = Date.now();
    await expect(run).rejects.toThrow('moved on');
    expect(Date.now() - started).toBeLessThan(5000);
    // The 30 s wait was told, and told over when the abort ended it; nothing was sent again.
    expect(waits).toEqual([30_000, 0]);
    expect(pacer.stats()).toMatchObject({ requests: 1, retriedAfter429: 1 });
  });

  it('disabled, waits for nothing and hands the 429 back', async () => {
    const server = simulatedServer(2, 1);
    const pacer = new Pacer(false, {}, server.timer);
    const statuses = [];
    for (let index = 0; index < 3; index++) statuses.push((await pacer.run(server.send)).status);
    expect(statuses).toEqual([200, 200, 429]);
    expect(pacer.stats()).toEqual({ requests: 3, waitedMs: 0, retriedAfter429: 0 });
  });
});

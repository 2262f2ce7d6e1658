import { expect } from 'vitest';
import type { Tenant, TestServer } from '../../support/test-server.js';
import { LoopWatch } from './loop-watch.js';
import { figure, percentile } from './report.js';

/**
 * The bounds one store's expensive operation is held to while another store works
 * (docs/reliability.md, "Noisy neighbours"). The server runs in the test's own process, so the
 * event loop measured here is the server's.
 */
export const NEIGHBOUR_BOUNDS = {
  /** The other store's GETs: 99th percentile of their latency. */
  p99Ms: 100,
  /**
   * The event loop's own work in one stretch: processor time of the main thread between two
   * turns of a 10 ms timer, beyond those 10 ms.
   */
  loopBusyMs: 50,
  /**
   * Longest wait for a turn of the loop in wall time (a timer late by this much): the work above
   * plus what the loop waited for synchronously (SQLite's disk) and, on a busy machine, for a
   * processor.
   */
  loopHeldMs: 150,
  /** Growth of the process's resident memory over what it was when the operation started. */
  rssGrowthMiB: 256,
} as const;

const RSS_SAMPLE_MS = 50;

export interface NeighbourFigures {
  /** Seconds the operation ran. */
  seconds: number;
  /** The other store's GETs answered meanwhile, all 200. */
  requests: number;
  p99Ms: number;
  maxMs: number;
  /** `/healthz` meanwhile: how many answered 200, and the slowest. */
  health: number;
  healthMaxMs: number;
  /** Longest time the event loop was held (wall), the 99th percentile of its waits, and its longest stretch of work (processor time). */
  loopHeldMs: number;
  loopP99Ms: number;
  loopBusyMs: number;
  /** Resident memory when the operation started and its peak meanwhile, MiB. */
  rssStartMiB: number;
  rssPeakMiB: number;
}

export interface NeighbourOptions {
  /** Pause between the other store's requests, ms (default 10). */
  intervalMs?: number;
  /** Paths the other store reads in turn (default its customers and its trade prices). */
  paths?: readonly string[];
  /** The neighbour stops after this many requests whatever happens (default 20 000). */
  maxRequests?: number;
}

/** The neighbour's requests a measurement takes at least, so that its p99 is not its maximum. */
const MIN_SAMPLES = 100;

/**
 * Runs `work` (one store's expensive operation) while `neighbour` reads its own data and
 * `/healthz` answers, and measures what `work` did to them: the neighbour's latencies, the
 * event loop's longest hold and the process's memory. Every neighbour request must answer 200.
 */
export async function besideNeighbour<T>(
  server: TestServer,
  neighbour: Tenant,
  work: () => Promise<T>,
  options: NeighbourOptions = {},
): Promise<{ result: T; figures: NeighbourFigures }> {
  const intervalMs = options.intervalMs ?? 10;
  const paths = options.paths ?? ['/v1/customers?count=10', '/v1/trade-customer-product-prices?count=10'];
  const maxRequests = options.maxRequests ?? 20_000;
  // Warm the neighbour's connection and credential, so the first sample is not a handshake.
  expect((await server.request('GET', paths[0]!, { token: neighbour.token })).status).toBe(200);

  const loop = new LoopWatch();
  const rssStart = process.memoryUsage.rss();
  let rssPeak = rssStart;
  const rssTimer = setInterval(() => (rssPeak = Math.max(rssPeak, process.memoryUsage.rss())), RSS_SAMPLE_MS);
  loop.start();

  let running = true;
  const latencies: number[] = [];
  const healthLatencies: number[] = [];
  const failures: string[] = [];
  const reads = (async () => {
    // At least MIN_SAMPLES requests, reading on after `work` has ended if it was quick: a 99th
    // percentile of fewer is the slowest one.
    for (let i = 0; (running || latencies.length < MIN_SAMPLES) && i < maxRequests; i++) {
      const started = performance.now();
      const path = paths[i % paths.length]!;
      const response = await server.request('GET', path, { token: neighbour.token });
      latencies.push(performance.now() - started);
      if (response.status !== 200) failures.push(`${path}: ${response.status} ${response.text.slice(0, 200)}`);
      if (i % 10 === 0) {
        const healthStarted = performance.now();
        const health = await server.request('GET', '/healthz');
        healthLatencies.push(performance.now() - healthStarted);
        if (health.status !== 200) failures.push(`/healthz: ${health.status}`);
      }
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  })();

  const started = performance.now();
  let result: T;
  let loopFigures = { heldMs: 0, heldP99Ms: 0, busyMs: 0 };
  try {
    result = await work();
  } finally {
    running = false;
    await reads;
    loopFigures = loop.stop();
    clearInterval(rssTimer);
  }
  const seconds = (performance.now() - started) / 1000;
  expect(failures, 'every request of the other store answered 200').toEqual([]);
  return {
    result,
    figures: {
      seconds,
      requests: latencies.length,
      p99Ms: percentile(latencies, 0.99),
      maxMs: Math.max(...latencies),
      health: healthLatencies.length,
      healthMaxMs: healthLatencies.length === 0 ? Number.NaN : Math.max(...healthLatencies),
      loopHeldMs: loopFigures.heldMs,
      loopP99Ms: loopFigures.heldP99Ms,
      loopBusyMs: loopFigures.busyMs,
      rssStartMiB: rssStart / 2 ** 20,
      rssPeakMiB: rssPeak / 2 ** 20,
    },
  };
}

/** One report line: `label: <what ran> in S s; the other store's N GETs p99 …`. */
export function describeNeighbour(label: string, what: string, figures: NeighbourFigures): string {
  return (
    `${label}: ${what} in ${figures.seconds.toFixed(1)} s; the other store's ${figure(figures.requests)} GETs p99 ${figures.p99Ms.toFixed(0)} ms, ` +
    `slowest ${figures.maxMs.toFixed(0)} ms; /healthz ×${figures.health} slowest ${figures.healthMaxMs.toFixed(0)} ms; ` +
    `event loop held at most ${figures.loopHeldMs.toFixed(0)} ms (p99 ${figures.loopP99Ms.toFixed(0)} ms), its longest stretch of work ${figures.loopBusyMs.toFixed(0)} ms; ` +
    `RSS ${figures.rssStartMiB.toFixed(0)} → peak ${figures.rssPeakMiB.toFixed(0)} MiB ` +
    `(limits: p99 ${NEIGHBOUR_BOUNDS.p99Ms} ms, loop work ${NEIGHBOUR_BOUNDS.loopBusyMs} ms, held ${NEIGHBOUR_BOUNDS.loopHeldMs} ms, RSS +${NEIGHBOUR_BOUNDS.rssGrowthMiB} MiB)`
  );
}

/** Fails the check when the operation broke one of NEIGHBOUR_BOUNDS, naming which. */
export function expectGoodNeighbour(figures: NeighbourFigures, bounds: Partial<Record<keyof typeof NEIGHBOUR_BOUNDS, number>> = {}): void {
  const limits = { ...NEIGHBOUR_BOUNDS, ...bounds };
  expect(figures.requests, 'the other store made requests meanwhile').toBeGreaterThanOrEqual(5);
  expect(figures.health, '/healthz answered meanwhile').toBeGreaterThanOrEqual(1);
  expect(figures.p99Ms, "the other store's GET p99, ms").toBeLessThan(limits.p99Ms);
  expect(figures.loopBusyMs, "longest stretch of the event loop's own work, ms").toBeLessThan(limits.loopBusyMs);
  expect(figures.loopHeldMs, 'longest hold of the event loop (wall time), ms').toBeLessThan(limits.loopHeldMs);
  expect(figures.rssPeakMiB - figures.rssStartMiB, 'growth of resident memory, MiB').toBeLessThan(limits.rssGrowthMiB);
}

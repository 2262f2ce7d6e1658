import { Registry } from 'prom-client';
import { afterEach, describe, expect, it } from 'vitest';
import { type EventLoopMetrics, registerEventLoopMetrics } from './event-loop-metrics.js';

/** Holds the event loop for `ms`: nothing else runs meanwhile. */
function holdLoop(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // busy on purpose
  }
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function reading(registry: Registry, name: string): Promise<number> {
  const metric = (await registry.getMetricsAsJSON()).find((entry) => entry.name === name);
  const value = metric?.values[0]?.value;
  if (value === undefined) throw new Error(`${name} not registered`);
  return value;
}

describe('event-loop delay metrics', () => {
  let metrics: EventLoopMetrics | undefined;
  afterEach(() => metrics?.stop());

  it('reports the longest hold and the 99th percentile in seconds, then forgets them once they leave the window', async () => {
    const registry = new Registry();
    // A window of 2 slices of 150 ms plus the one being filled: 300 to 450 ms.
    metrics = registerEventLoopMetrics(registry, { sampleMs: 5, sliceMs: 150, slices: 2 });
    await pause(50);
    holdLoop(200);
    await pause(20);
    const max = await reading(registry, 'pricebook_event_loop_delay_max_seconds');
    expect(max).toBeGreaterThanOrEqual(0.19);
    expect(max).toBeLessThan(1);
    expect(await reading(registry, 'pricebook_event_loop_delay_p99_seconds')).toBeGreaterThanOrEqual(0);

    // Every scrape reads the same window: reading does not reset it.
    expect(await reading(registry, 'pricebook_event_loop_delay_max_seconds')).toBe(max);

    await pause(600);
    expect(await reading(registry, 'pricebook_event_loop_delay_max_seconds')).toBeLessThan(0.15);
  });
});

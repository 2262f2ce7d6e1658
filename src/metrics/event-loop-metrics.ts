import { createHistogram, type RecordableHistogram } from 'node:perf_hooks';
import { Gauge, type Registry } from 'prom-client';

export interface EventLoopWindow {
  /** Milliseconds between samples: a sample is how much later than this a timer ran. */
  sampleMs: number;
  /** The window is `slices` slices of `sliceMs` plus the one being filled. */
  sliceMs: number;
  slices: number;
}

/**
 * Every 10 ms a sample; p99 and max over the last 60 to 70 s (six full 10-s slices and the one
 * being filled), whoever scrapes and however often: a second scraper, or a person with curl,
 * takes nothing away from the first.
 */
export const EVENT_LOOP_WINDOW: EventLoopWindow = { sampleMs: 10, sliceMs: 10_000, slices: 6 };

export interface EventLoopMetrics {
  /** Stops sampling (the process is stopping). */
  stop(): void;
}

/**
 * How long the event loop kept timers waiting, the way a request waits while one store's work
 * holds the process: `pricebook_event_loop_delay_p99_seconds` and `…_max_seconds`. A sample is
 * the lateness of a timer due every `sampleMs`, without the `sampleMs` itself, so an idle
 * process reads about 0 (prom-client's `nodejs_eventloop_lag_*` include it, and count from the
 * previous scrape, whoever made it).
 */
export function registerEventLoopMetrics(registry: Registry, window: EventLoopWindow = EVENT_LOOP_WINDOW): EventLoopMetrics {
  const full: RecordableHistogram[] = [];
  let filling = createHistogram();
  let sliceStarted = performance.now();
  let previous = sliceStarted;
  const timer = setInterval(() => {
    const now = performance.now();
    // Nanoseconds; a histogram records whole numbers from 1.
    filling.record(Math.max(1, Math.round((now - previous - window.sampleMs) * 1e6)));
    previous = now;
    if (now - sliceStarted >= window.sliceMs) {
      full.push(filling);
      if (full.length > window.slices) full.shift();
      filling = createHistogram();
      sliceStarted = now;
    }
  }, window.sampleMs);
  timer.unref();

  const span = `${(window.sliceMs * window.slices) / 1000}–${(window.sliceMs * (window.slices + 1)) / 1000} s`;
  const recent = (): RecordableHistogram => {
    const all = createHistogram();
    for (const slice of full) all.add(slice);
    all.add(filling);
    return all;
  };
  // An empty histogram reads 0; a value of 1 ns is "on time".
  const seconds = (nanoseconds: number) => (nanoseconds <= 1 ? 0 : nanoseconds / 1e9);
  new Gauge({
    name: 'pricebook_event_loop_delay_p99_seconds',
    help: `99th percentile of how late a timer due every ${window.sampleMs} ms ran, over the last ${span}: how long requests waited for the process`,
    registers: [registry],
    collect() {
      this.set(seconds(recent().percentile(99)));
    },
  });
  new Gauge({
    name: 'pricebook_event_loop_delay_max_seconds',
    help: `Longest the event loop was held (a timer due every ${window.sampleMs} ms ran this late) over the last ${span}`,
    registers: [registry],
    collect() {
      this.set(seconds(recent().max));
    },
  });
  return { stop: () => clearInterval(timer) };
}

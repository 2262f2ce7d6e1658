import { performance, type EventLoopUtilization } from 'node:perf_hooks';

/** Marks the start of a batch, for `yieldToOtherWork`. */
export function batchStart(): EventLoopUtilization {
  return performance.eventLoopUtilization();
}

/**
 * Lets the event loop run what waits (requests, timers) before a long job's next batch, for
 * as long as the batch kept the process busy (100 ms at most). On SQLite a batch holds the
 * process (its calls are synchronous) and a request needs several turns of the loop, each of
 * which would otherwise wait for a batch; on PostgreSQL a batch mostly waits on the server,
 * the process stays free, and the pause is next to nothing.
 */
export function yieldToOtherWork(since: EventLoopUtilization): Promise<void> {
  const busyMs = performance.eventLoopUtilization(since).active;
  return new Promise((resolve) => setTimeout(resolve, Math.min(Math.max(1, Math.ceil(busyMs)), 100)));
}

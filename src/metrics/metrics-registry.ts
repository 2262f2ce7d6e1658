import { collectDefaultMetrics, Registry } from 'prom-client';

/**
 * One registry per process (tests build several): the process's own figures (`process_*`,
 * `nodejs_*`: CPU, memory, event-loop delay, garbage collection) and whatever the serve or
 * worker side adds to it.
 */
export function createMetricsRegistry(): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return registry;
}

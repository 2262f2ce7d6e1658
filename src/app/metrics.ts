import type { Registry } from 'prom-client';
import type { Config } from '../config/config.js';
import { DeliveryMetrics } from '../metrics/delivery-metrics.js';
import { registerEventLoopMetrics } from '../metrics/event-loop-metrics.js';
import { HttpMetrics } from '../metrics/http-metrics.js';
import { type MetricsListener, type MetricsListenerOptions, startMetricsListener } from '../http/server/metrics-listener.js';
import { createMetricsRegistry } from '../metrics/metrics-registry.js';
import { registerStorageMetrics } from '../metrics/storage-metrics.js';
import { registerImportQueueMetrics } from '../metrics/import-queue-metrics.js';
import type { DeliveryWorkerOptions } from '../webhooks/delivery-worker.js';
import type { Services } from './services.js';

/** What one process measures: the database, the outbox and the import queue always, its requests and deliveries when it serves or delivers. */
export interface ProcessMetrics {
  readonly registry: Registry;
  /** When the process serves the API. */
  readonly http: HttpMetrics | undefined;
  /** When the process runs a delivery worker. */
  readonly deliveries: DeliveryMetrics | undefined;
  /** Stops what measures on a timer (the event loop's delay). */
  stop(): void;
}

export function buildMetrics(services: Services, parts: { api: boolean; deliveries: boolean }): ProcessMetrics {
  const registry = createMetricsRegistry();
  registerStorageMetrics(registry, () => services.database.connectionUse(), services.outboxStats, services.clock);
  const eventLoop = registerEventLoopMetrics(registry);
  registerImportQueueMetrics(registry, () => services.imports.queues());
  return {
    registry,
    http: parts.api ? new HttpMetrics(registry, services.rateLimiterStatus) : undefined,
    deliveries: parts.deliveries ? new DeliveryMetrics(registry) : undefined,
    stop: () => eventLoop.stop(),
  };
}

/** The metrics listener on the configured address, port and token (`main/` calls it when the port is not 0). */
export function listenForScrapes(config: Config, metrics: ProcessMetrics, log: MetricsListenerOptions['log']): Promise<MetricsListener> {
  return startMetricsListener({ host: config.metricsHost, port: config.metricsPort, token: config.metricsToken, registry: metrics.registry, log });
}

/** The delivery worker's options that count its attempts, when this process measures them. */
export function deliveryObserver(metrics: ProcessMetrics | undefined): Partial<DeliveryWorkerOptions> {
  const deliveries = metrics?.deliveries;
  return deliveries === undefined ? {} : { onAttempt: (outcome) => deliveries.countAttempt(outcome) };
}

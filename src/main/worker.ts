import pino from 'pino';
import type { Config } from '../config/config.js';
import { buildDeliveryWorker } from '../app/delivery-worker.js';
import { buildChangeSetScheduler, buildMaintenanceLoop } from '../app/maintenance.js';
import { buildServices } from '../app/services.js';
import { buildMetrics, deliveryObserver, listenForScrapes } from '../app/metrics.js';
import { readableLogStream } from '../app/terminal-output.js';

export interface RunningWorker {
  /** Address and port of the metrics listener, or undefined when disabled. */
  metrics: { host: string; port: number } | undefined;
  stop(): Promise<void>;
}

/**
 * `pricebook worker`: the webhook delivery worker alone, for deployments that deliver from
 * dedicated processes (several may share one PostgreSQL; `serve` then runs with
 * `PRICEBOOK_WEBHOOK_WORKER=0`), and the maintenance loop unless `PRICEBOOK_MAINTENANCE=0`.
 */
export async function runWorker(config: Config): Promise<RunningWorker> {
  const services = await buildServices(config);
  // Readable lines for a person at a terminal, JSON for a pipe or a service manager (as `serve`).
  const log = process.stdout.isTTY ? pino({ level: config.logLevel }, readableLogStream(process.stdout)) : pino({ level: config.logLevel });
  const metrics = config.metricsPort === 0 ? undefined : buildMetrics(services, { api: false, deliveries: true });
  const worker = buildDeliveryWorker(config, services, log, deliveryObserver(metrics));
  worker.start();
  const maintenance = config.maintenance ? buildMaintenanceLoop(services, log) : undefined;
  maintenance?.start();
  const scheduler = config.maintenance ? buildChangeSetScheduler(services, log) : undefined;
  scheduler?.start();
  log.info({ database: services.database.description, retryScheduleSeconds: config.webhookRetryScheduleSeconds }, 'webhook delivery worker started');
  const metricsListener = metrics === undefined ? undefined : await listenForScrapes(config, metrics, log);
  if (metricsListener !== undefined)
    log.info({ host: metricsListener.host, port: metricsListener.port, token: config.metricsToken !== undefined }, 'metrics listening');
  let stopping: Promise<void> | undefined;
  return {
    metrics: metricsListener && { host: metricsListener.host, port: metricsListener.port },
    stop: () => {
      stopping ??= (async () => {
        log.info('shutting down: finishing the requests in flight');
        await Promise.all([worker.stop(), maintenance?.stop(), scheduler?.stop(), metricsListener?.close()]);
        metrics?.stop();
        await services.close();
      })();
      return stopping;
    },
  };
}

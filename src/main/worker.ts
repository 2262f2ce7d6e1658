import pino from 'pino';
import type { Config } from '../config/config.js';
import { buildDeliveryWorker } from '../app/delivery-worker.js';
import { buildServices } from '../app/services.js';

export interface RunningWorker {
  stop(): Promise<void>;
}

/**
 * `pricebook worker`: the webhook delivery worker alone, for deployments that deliver from
 * dedicated processes (several may share one PostgreSQL; `serve` then runs with
 * `PRICEBOOK_WEBHOOK_WORKER=0`).
 */
export async function runWorker(config: Config): Promise<RunningWorker> {
  const services = await buildServices(config);
  const log = pino({ level: config.logLevel });
  const worker = buildDeliveryWorker(config, services, log);
  worker.start();
  log.info({ database: services.database.description, retryScheduleSeconds: config.webhookRetryScheduleSeconds }, 'webhook delivery worker started');
  let stopping: Promise<void> | undefined;
  return {
    stop: () => {
      stopping ??= (async () => {
        log.info('shutting down: finishing the requests in flight');
        await worker.stop();
        await services.close();
      })();
      return stopping;
    },
  };
}

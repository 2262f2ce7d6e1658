import type { Config } from '../config/config.js';
import { DeliveryWorker, type DeliveryWorkerOptions, type WorkerLog } from '../webhooks/delivery-worker.js';
import type { Services } from './services.js';

/** The webhook delivery worker over the services' queue, sender and clock, with the configured schedule. */
export function buildDeliveryWorker(config: Config, services: Services, log: WorkerLog, options: Partial<DeliveryWorkerOptions> = {}): DeliveryWorker {
  return new DeliveryWorker(services.deliveryQueue, services.webhookSender, services.clock, log, {
    retryScheduleSeconds: config.webhookRetryScheduleSeconds,
    concurrency: config.webhookConcurrency,
    perStore: config.webhookPerStore,
    ...options,
  });
}

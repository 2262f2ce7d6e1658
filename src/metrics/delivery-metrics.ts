import { Counter, type Registry } from 'prom-client';
import type { AttemptVerdict } from '../webhooks/delivery-queue.js';

const OUTCOMES: ReadonlyArray<AttemptVerdict['kind']> = ['delivered', 'retry', 'exhausted', 'gone'];

/** The delivery worker's attempts, counted where they end (the worker of this process). */
export class DeliveryMetrics {
  private readonly attempts: Counter<'outcome'>;

  constructor(registry: Registry) {
    this.attempts = new Counter({
      name: 'pricebook_webhook_deliveries_total',
      help: 'Delivery attempts made by this process, by outcome: delivered (2xx), retry (failed, tried again later), exhausted (failed its last attempt), gone (410: the webhook is disabled)',
      labelNames: ['outcome'],
      registers: [registry],
    });
    for (const outcome of OUTCOMES) this.attempts.inc({ outcome }, 0);
  }

  countAttempt(outcome: AttemptVerdict['kind']): void {
    this.attempts.inc({ outcome });
  }
}

import { EVENT_RETENTION_MS } from '../modules/events/event-feed-service.js';
import { MaintenanceLoop, type MaintenanceLog, type MaintenanceOptions, type PurgeTask } from '../modules/maintenance/maintenance-loop.js';
import type { Services } from './services.js';
import { ChangeSetScheduler } from '../modules/change-sets/change-set-scheduler.js';

/** Price history entries cut per batch (one short transaction each). */
export const HISTORY_CUT_BATCH = 1000;

/**
 * The maintenance loop over the services: events past their retention (with their deliveries),
 * expired idempotency keys, what ended imports left behind (file slices, staged rows: their
 * process died before deleting them) and abandoned uploads, then imports past their retention,
 * and staff sessions a day past their absolute expiry; and, when `PRICEBOOK_HISTORY_RETENTION`
 * is set, price history past it (leaving signed checkpoints).
 */
export function buildMaintenanceLoop(services: Services, log: MaintenanceLog, options: MaintenanceOptions = {}): MaintenanceLoop {
  const tasks: PurgeTask[] = [
    { name: 'events', purge: (now, limit) => services.deliveryQueue.purge(new Date(now - EVENT_RETENTION_MS).toISOString(), limit) },
    { name: 'idempotency keys', purge: (_now, limit) => services.idempotency.purgeExpired(limit) },
    { name: 'import leftovers', purge: (now, limit) => services.imports.purgeLeftovers(now, limit) },
    { name: 'imports', purge: (now, limit) => services.imports.purgeEnded(now, limit) },
    { name: 'staff sessions', purge: (now, limit) => services.staffSessions.purgeExpired(now, limit) },
  ];
  if (services.historyRetention !== undefined) {
    const retention = services.historyRetention;
    // Smaller batches than the others': a batch of history reads its entries' hashes, and 2000
    // held the event loop for 53–55 ms on a slower 2-core machine (the bound is 50).
    tasks.push({ name: 'price history', batchSize: HISTORY_CUT_BATCH, purge: (now, limit) => retention.purge(now, limit) });
  }
  return new MaintenanceLoop(tasks, services.clock, log, options);
}

/** The scheduled change sets' loop (docs/change-sets.md, "Scheduling"): run wherever the maintenance loop runs. */
export function buildChangeSetScheduler(services: Services, log: MaintenanceLog, periodMs?: number): ChangeSetScheduler {
  return new ChangeSetScheduler(services.changeSets, services.clock, log, periodMs);
}

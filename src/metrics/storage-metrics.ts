import { Gauge, type Registry } from 'prom-client';
import type { Clock } from '../modules/shared/clock.js';
import type { ConnectionUse } from '../storage/connection-use.js';
import { OUTBOX_COUNT_CAP, type OutboxSnapshot, type OutboxStats } from '../webhooks/outbox-stats.js';

export interface StorageMetricsOptions {
  /** Milliseconds a scrape waits for the outbox figures before reporting them as unknown. */
  timeoutMs?: number;
}

/** Scrapes this close together share one reading of the outbox, milliseconds. */
const SNAPSHOT_REUSE_MS = 1000;

/**
 * Database figures, read when scraped: connection use (from the pool, no query) and the outbox
 * (a few bounded queries, see `OutboxStats`). When the database does not answer within the
 * time limit, `pricebook_metrics_database_up` is 0 and the outbox gauges read NaN, so alert
 * rules comparing them stay quiet and the one on `database_up` speaks.
 */
export function registerStorageMetrics(
  registry: Registry,
  connectionUse: () => ConnectionUse,
  outbox: OutboxStats,
  clock: Clock,
  options: StorageMetricsOptions = {},
): void {
  const timeoutMs = options.timeoutMs ?? 2000;
  let reading: { at: number; snapshot: Promise<OutboxSnapshot | undefined> } | undefined;
  // A reading still running (a hung database) is never joined by another: scrapes cannot pile up queries.
  let running = false;
  const snapshot = (): Promise<OutboxSnapshot | undefined> => {
    const now = clock.now();
    if (reading === undefined || (now - reading.at >= SNAPSHOT_REUSE_MS && !running)) {
      running = true;
      const work = outbox.snapshot(now).finally(() => (running = false));
      reading = { at: now, snapshot: withTimeout(work, timeoutMs).catch(() => undefined) };
    }
    return reading.snapshot;
  };

  new Gauge({
    name: 'pricebook_metrics_database_up',
    help: `1 when the outbox figures below were read, 0 when the database did not answer within ${timeoutMs / 1000} s`,
    registers: [registry],
    async collect() {
      this.set((await snapshot()) === undefined ? 0 : 1);
    },
  });
  new Gauge({
    name: 'pricebook_webhook_queue_depth',
    help: `Webhook work waiting, counted up to ${OUTBOX_COUNT_CAP} (at the cap: at least that many): stage="fan_out" events not yet turned into deliveries, "due" deliveries whose attempt is due now, "pending" every delivery not yet made (due or waiting for a retry)`,
    labelNames: ['stage'],
    registers: [registry],
    async collect() {
      const read = await snapshot();
      this.set({ stage: 'fan_out' }, read?.eventsToFanOut ?? NaN);
      this.set({ stage: 'due' }, read?.dueDeliveries ?? NaN);
      this.set({ stage: 'pending' }, read?.pendingDeliveries ?? NaN);
    },
  });
  new Gauge({
    name: 'pricebook_webhook_oldest_undelivered_event_age_seconds',
    help: `Age of the oldest event not yet delivered to every webhook (0 when none waits); with more than ${OUTBOX_COUNT_CAP} pending deliveries it may read low`,
    registers: [registry],
    async collect() {
      const read = await snapshot();
      if (read === undefined) return this.set(NaN);
      const oldest = read.oldestUndeliveredEventAt;
      this.set(oldest === undefined ? 0 : Math.max(0, (clock.now() - oldest) / 1000));
    },
  });
  new Gauge({
    name: 'pricebook_events_table_rows',
    help: 'Rows in the events table (the outbox and the event feed), never counted: the planner estimate on PostgreSQL (pg_class.reltuples), the span of ids on SQLite',
    registers: [registry],
    async collect() {
      this.set((await snapshot())?.eventRows ?? NaN);
    },
  });
  new Gauge({
    name: 'pricebook_database_connections',
    help: 'Database connections by state (in_use, idle, max): the PostgreSQL pool, or on SQLite the one writing connection (reads use a connection of their own)',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      const use = connectionUse();
      this.set({ state: 'in_use' }, use.inUse);
      this.set({ state: 'idle' }, use.idle);
      this.set({ state: 'max' }, use.max);
    },
  });
  new Gauge({
    name: 'pricebook_database_waiting_queries',
    help: 'Queries and transactions waiting for a database connection',
    registers: [registry],
    collect() {
      this.set(connectionUse().waiting);
    },
  });
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

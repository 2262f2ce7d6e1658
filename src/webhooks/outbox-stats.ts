/**
 * How far behind webhook delivery is, read for metrics. Every figure comes from a bounded
 * query, so a scrape costs the same on a small database and on a huge backlog.
 */
export interface OutboxSnapshot {
  /** Events not yet fanned out into deliveries, counted up to `OUTBOX_COUNT_CAP`. */
  eventsToFanOut: number;
  /** Deliveries still to be made (due now or waiting for a retry), counted up to `OUTBOX_COUNT_CAP`. */
  pendingDeliveries: number;
  /** Pending deliveries whose attempt is due now, counted up to `OUTBOX_COUNT_CAP`. */
  dueDeliveries: number;
  /**
   * When the oldest event not yet delivered everywhere was created, milliseconds since the
   * epoch; undefined when nothing waits. Looks at no more than `OUTBOX_COUNT_CAP` pending
   * deliveries, so past the cap it may be a younger one's (an underestimate of the age).
   */
  oldestUndeliveredEventAt: number | undefined;
  /**
   * Rows in the events table: the planner's estimate on PostgreSQL (`pg_class.reltuples`,
   * refreshed by autovacuum; the span of ids before its first analyze), the span of ids on
   * SQLite (events are only removed oldest first, so the span is near exact).
   */
  eventRows: number;
}

/** Counts stop here: the figure then means "at least this many". */
export const OUTBOX_COUNT_CAP = 10_000;

export interface OutboxStats {
  snapshot(now: number): Promise<OutboxSnapshot>;
}

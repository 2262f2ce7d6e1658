import { sql } from 'kysely';
import { OUTBOX_COUNT_CAP, type OutboxSnapshot, type OutboxStats } from '../webhooks/outbox-stats.js';
import type { Database } from './database.js';

/**
 * The outbox figures for metrics, each from a bounded query: counts stop at
 * `OUTBOX_COUNT_CAP` rows of the partial indexes (`events_unfanned`,
 * `webhook_deliveries_pending`), the events table is sized from its ids or the planner's
 * estimate, never counted. The queries run one after the other, so a scrape takes at most one
 * connection from the pool.
 */
export class KyselyOutboxStats implements OutboxStats {
  constructor(private readonly database: Database) {}

  async snapshot(now: number): Promise<OutboxSnapshot> {
    const { db } = this.database;
    const unfanned = db.selectFrom('events').select('id').where('fanned_out', '=', sql.lit(0)).orderBy('id').limit(OUTBOX_COUNT_CAP);
    const toFanOut = await db
      .selectFrom(unfanned.as('u'))
      .select((eb) => [eb.fn.countAll<number>().as('count'), eb.fn.min('u.id').as('oldest')])
      .executeTakeFirstOrThrow();
    const pending = db.selectFrom('webhook_deliveries').select('event_id').where('status', '=', sql.lit('pending')).limit(OUTBOX_COUNT_CAP);
    const waiting = await db
      .selectFrom(pending.as('p'))
      .select((eb) => [eb.fn.countAll<number>().as('count'), eb.fn.min('p.event_id').as('oldest')])
      .executeTakeFirstOrThrow();
    const dueRows = db
      .selectFrom('webhook_deliveries')
      .select('id')
      .where('status', '=', sql.lit('pending'))
      .where('next_attempt_at', '<=', now)
      .limit(OUTBOX_COUNT_CAP);
    const due = await db
      .selectFrom(dueRows.as('d'))
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow();

    // Event ids rise with creation time: the smallest id still waiting is the oldest event.
    const oldestIds = [toFanOut.oldest, waiting.oldest].filter((id) => id !== null).map(Number);
    let oldestUndeliveredEventAt: number | undefined;
    if (oldestIds.length > 0) {
      const oldest = await db
        .selectFrom('events')
        .select('created_at')
        .where('id', '=', Math.min(...oldestIds))
        .executeTakeFirst();
      oldestUndeliveredEventAt = oldest === undefined ? undefined : Date.parse(oldest.created_at);
    }
    return {
      eventsToFanOut: Number(toFanOut.count),
      pendingDeliveries: Number(waiting.count),
      dueDeliveries: Number(due.count),
      oldestUndeliveredEventAt,
      eventRows: await this.eventRows(),
    };
  }

  private async eventRows(): Promise<number> {
    const { db, engine } = this.database;
    if (engine.estimatesRowCounts) {
      const estimate = await sql<{ rows: number }>`select reltuples as rows from pg_class where oid = 'events'::regclass`.execute(db);
      const rows = Number(estimate.rows[0]?.rows ?? -1);
      // -1: never analyzed yet (a new table); the ids answer instead.
      if (rows >= 0) return Math.round(rows);
    }
    const span = await db
      .selectFrom('events')
      .select((eb) => [eb.fn.min('id').as('first'), eb.fn.max('id').as('last')])
      .executeTakeFirstOrThrow();
    return span.first === null || span.last === null ? 0 : Number(span.last) - Number(span.first) + 1;
  }
}

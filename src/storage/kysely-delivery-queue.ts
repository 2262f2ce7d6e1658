import { randomBytes } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { AttemptRecord, ClaimedDelivery, ClaimOptions, DeliveryQueue } from '../webhooks/delivery-queue.js';
import type { Database } from './database.js';
import { toEvent } from './repositories/event-repository.js';
import type { Tables } from './tables.js';

/**
 * Webhooks looked at per claim: each store's due longest first, then each store's second, and
 * so on (round-robin over stores).
 */
const WEBHOOKS_PER_CLAIM = 64;

/**
 * The deliveries table. Claims lease rows for a while instead of holding a transaction open
 * during requests: on PostgreSQL `FOR UPDATE SKIP LOCKED` lets concurrent workers pass each
 * other's rows, on SQLite the write transaction (`begin immediate`) makes each claim atomic.
 * Status and the outbox flag are compared with literals so SQLite can use the partial indexes.
 */
export class KyselyDeliveryQueue implements DeliveryQueue {
  constructor(private readonly database: Database) {}

  async fanOut(limit: number, now: number): Promise<number> {
    const { db, engine } = this.database;
    const waiting = await db.selectFrom('events').select('id').where('fanned_out', '=', sql.lit(0)).limit(1).executeTakeFirst();
    if (waiting === undefined) return 0;
    return this.transaction(async (trx) => {
      let next = trx.selectFrom('events').select('id').where('fanned_out', '=', sql.lit(0)).orderBy('id').limit(limit);
      if (engine.supportsSkipLocked) next = next.forUpdate().skipLocked();
      const ids = (await next.execute()).map((row) => Number(row.id));
      if (ids.length === 0) return 0;
      await trx
        .insertInto('webhook_deliveries')
        .columns(['store_id', 'event_id', 'webhook_id', 'status', 'attempts', 'next_attempt_at', 'created_at'])
        .expression(
          trx
            .selectFrom('events as e')
            .innerJoin('webhooks as w', (join) => join.onRef('w.store_id', '=', 'e.store_id').onRef('w.topic', '=', 'e.topic'))
            .select([
              'e.store_id',
              'e.id',
              'w.id',
              sql.lit('pending').as('status'),
              sql.lit(0).as('attempts'),
              sql.val(now).as('next_attempt_at'),
              sql.val(now).as('created_at'),
            ])
            .where('e.id', 'in', ids)
            .where('w.active', '=', 1)
            .where('w.verified', '=', 1),
        )
        .execute();
      await trx.updateTable('events').set({ fanned_out: 1 }).where('id', 'in', ids).execute();
      return ids.length;
    });
  }

  async claim({ now, limit, leasesPerWebhook, heldPerStore, heldByStore, leaseMs, settledIds }: ClaimOptions): Promise<ClaimedDelivery[]> {
    if (limit <= 0) return [];
    const { db, engine } = this.database;
    // Which webhooks have due deliveries and room for more leases (a hint; re-checked under
    // lock), ranked within their store: rank 1 of every store comes before any rank 2.
    const ranked = db
      .selectFrom('webhook_deliveries as d')
      .innerJoin('webhooks as w', 'w.id', 'd.webhook_id')
      .select((eb) => [
        'd.store_id',
        'd.webhook_id',
        sql<number>`row_number() over (partition by ${eb.ref('d.store_id')} order by min(${eb.ref('d.next_attempt_at')}), ${eb.ref('d.webhook_id')})`.as(
          'store_rank',
        ),
        eb.fn.min('d.next_attempt_at').as('due'),
        eb.fn
          .sum<number>(
            eb
              .case()
              .when(eb.and([eb('d.lease_until', '>', now), ...(settledIds.length > 0 ? [eb('d.id', 'not in', [...settledIds])] : [])]))
              .then(1)
              .else(0)
              .end(),
          )
          .as('leased'),
      ])
      .where('d.status', '=', sql.lit('pending'))
      .where('d.next_attempt_at', '<=', now)
      .where('w.active', '=', 1)
      .where('w.verified', '=', 1)
      .groupBy(['d.store_id', 'd.webhook_id']);
    const heads = await db.selectFrom(ranked.as('heads')).selectAll().orderBy('store_rank').orderBy('due').limit(WEBHOOKS_PER_CLAIM).execute();
    const storeRoom = new Map<number, number>();
    const room = heads
      .map((head) => ({ storeId: Number(head.store_id), webhookId: Number(head.webhook_id), free: leasesPerWebhook - Number(head.leased) }))
      .filter((head) => head.free > 0 && heldPerStore - (heldByStore.get(head.storeId) ?? 0) > 0);
    if (room.length === 0) return [];
    for (const { storeId } of room) storeRoom.set(storeId, heldPerStore - (heldByStore.get(storeId) ?? 0));

    const leaseToken = randomBytes(12).toString('hex');
    const leaseUntil = now + leaseMs;
    return this.transaction(async (trx) => {
      const claimed: ClaimedDelivery[] = [];
      for (const { storeId, webhookId, free } of room) {
        if (claimed.length >= limit) break;
        const take = Math.min(free, limit - claimed.length, storeRoom.get(storeId) ?? 0);
        if (take <= 0) continue;
        let due = trx
          .selectFrom('webhook_deliveries as d')
          .innerJoin('webhooks as w', 'w.id', 'd.webhook_id')
          .innerJoin('events as e', 'e.id', 'd.event_id')
          .select(['d.id', 'd.attempts', 'd.created_at as delivery_created_at', 'w.url', 'w.secret'])
          .select(['e.id as event_id', 'e.store_id', 'e.created_at', 'e.topic', 'e.subject_id', 'e.data', 'e.previous'])
          .where('d.webhook_id', '=', webhookId)
          .where('d.status', '=', sql.lit('pending'))
          .where('d.next_attempt_at', '<=', now)
          .where((eb) => eb.or([eb('d.lease_until', 'is', null), eb('d.lease_until', '<=', now)]))
          .orderBy('d.next_attempt_at')
          .orderBy('d.id')
          .limit(take);
        if (engine.supportsSkipLocked) due = due.forUpdate('d').skipLocked();
        const rows = await due.execute();
        storeRoom.set(storeId, (storeRoom.get(storeId) ?? 0) - rows.length);
        for (const row of rows) {
          claimed.push({
            id: Number(row.id),
            leaseToken,
            leaseUntil,
            attempts: Number(row.attempts),
            createdAt: Number(row.delivery_created_at),
            webhook: { id: webhookId, url: row.url, secret: row.secret },
            event: toEvent({ ...row, id: row.event_id }),
          });
        }
      }
      if (claimed.length > 0) {
        await trx
          .updateTable('webhook_deliveries')
          .set({ lease_until: leaseUntil, lease_token: leaseToken })
          .where(
            'id',
            'in',
            claimed.map((delivery) => delivery.id),
          )
          .execute();
      }
      return claimed;
    });
  }

  async release(deliveries: readonly ClaimedDelivery[]): Promise<void> {
    for (const [leaseToken, ids] of byLease(deliveries)) {
      await this.database.db
        .updateTable('webhook_deliveries')
        .set({ lease_until: null, lease_token: null })
        .where('id', 'in', ids)
        .where('lease_token', '=', leaseToken)
        .execute();
    }
  }

  record(attempts: readonly AttemptRecord[]): Promise<void> {
    if (attempts.length === 0) return Promise.resolve();
    return this.transaction(async (trx) => {
      // Successes, the bulk of the work, take one statement per claim batch.
      const successes = attempts.filter((attempt) => attempt.verdict.kind === 'delivered');
      for (const [leaseToken, ids] of byLease(successes.map((attempt) => attempt.delivery))) {
        await trx
          .updateTable('webhook_deliveries')
          .set((eb) => ({
            attempts: eb('attempts', '+', 1),
            status: 'delivered',
            lease_until: null,
            lease_token: null,
            last_status: null,
            last_error: null,
            finished_at: successes[0]!.at,
          }))
          .where('id', 'in', ids)
          .where('lease_token', '=', leaseToken)
          .execute();
      }
      const succeeded = new Map<number, number>();
      for (const { delivery, at } of successes) succeeded.set(delivery.webhook.id, Math.max(at, succeeded.get(delivery.webhook.id) ?? 0));
      const failures = new Map<number, number>();
      for (const { delivery, verdict, at, httpStatus, error } of attempts) {
        if (verdict.kind === 'delivered') continue;
        const done = verdict.kind !== 'retry';
        const result = await trx
          .updateTable('webhook_deliveries')
          .set((eb) => ({
            attempts: eb('attempts', '+', 1),
            status: done ? 'failed' : 'pending',
            next_attempt_at: verdict.kind === 'retry' ? verdict.nextAttemptAt : at,
            lease_until: null,
            lease_token: null,
            last_status: httpStatus ?? null,
            last_error: error === undefined ? null : error.slice(0, 1000),
            finished_at: done ? at : null,
          }))
          .where('id', '=', delivery.id)
          .where('lease_token', '=', delivery.leaseToken)
          .executeTakeFirst();
        // Lost the lease (the worker stalled past it): the new holder records the outcome.
        if (result.numUpdatedRows === 0n) continue;
        const webhookId = delivery.webhook.id;
        failures.set(webhookId, (failures.get(webhookId) ?? 0) + 1);
        if (verdict.kind === 'gone') {
          await this.disable(trx, webhookId, undefined, 'receiver answered 410 Gone', at);
        } else if (verdict.kind === 'exhausted') {
          await this.disable(trx, webhookId, delivery.createdAt, `every attempt to deliver event ${delivery.event.id} failed`, at);
        }
      }
      for (const [webhookId, count] of failures) {
        await trx
          .updateTable('webhooks')
          .set((eb) => ({ failure_count: eb('failure_count', '+', count) }))
          .where('id', '=', webhookId)
          .execute();
      }
      if (succeeded.size > 0) {
        const at = Math.max(...succeeded.values());
        await trx
          .updateTable('webhooks')
          .set({ failure_count: 0, last_success_at: at })
          .where('id', 'in', [...succeeded.keys()])
          .execute();
      }
    });
  }

  async purge(before: string, limit: number): Promise<number> {
    const { engine } = this.database;
    return this.transaction(async (trx) => {
      // Oldest first along the creation index: no sort, however many are due. Concurrent
      // purgers (several processes own maintenance) pass each other's batches.
      let due = trx.selectFrom('events').select('id').where('created_at', '<', before).orderBy('created_at').limit(limit);
      if (engine.supportsSkipLocked) due = due.forUpdate().skipLocked();
      const ids = (await due.execute()).map((row) => Number(row.id));
      if (ids.length === 0) return 0;
      await trx.deleteFrom('webhook_deliveries').where('event_id', 'in', ids).execute();
      await trx.deleteFrom('events').where('id', 'in', ids).execute();
      return ids.length;
    });
  }

  /**
   * Sets the webhook inactive and ends its pending deliveries. With `unlessSuccessSince`, only
   * when no delivery to it has succeeded since then (milliseconds).
   */
  private async disable(trx: Kysely<Tables>, webhookId: number, unlessSuccessSince: number | undefined, reason: string, at: number): Promise<void> {
    let update = trx.updateTable('webhooks').set({ active: 0 }).where('id', '=', webhookId).where('active', '=', 1);
    if (unlessSuccessSince !== undefined) {
      update = update.where((eb) => eb.or([eb('last_success_at', 'is', null), eb('last_success_at', '<', unlessSuccessSince)]));
    }
    const result = await update.executeTakeFirst();
    if (result.numUpdatedRows === 0n) return;
    await trx
      .updateTable('webhook_deliveries')
      .set({ status: 'failed', last_error: `webhook disabled: ${reason}`, lease_until: null, lease_token: null, finished_at: at })
      .where('webhook_id', '=', webhookId)
      .where('status', '=', sql.lit('pending'))
      .execute();
  }

  /** One short transaction on one connection, begun as the engine begins writes. */
  private transaction<T>(work: (trx: Kysely<Tables>) => Promise<T>): Promise<T> {
    const { db, engine } = this.database;
    return db.connection().execute(async (connection) => {
      await sql.raw(engine.beginTransactionSql).execute(connection);
      try {
        const result = await work(connection);
        await sql`commit`.execute(connection);
        return result;
      } catch (error) {
        await sql`rollback`.execute(connection).catch(() => undefined);
        throw error;
      }
    });
  }
}

/** Delivery ids grouped by the claim (lease token) that leased them. */
function byLease(deliveries: readonly ClaimedDelivery[]): Map<string, number[]> {
  const groups = new Map<string, number[]>();
  for (const delivery of deliveries) {
    const ids = groups.get(delivery.leaseToken);
    if (ids === undefined) groups.set(delivery.leaseToken, [delivery.id]);
    else ids.push(delivery.id);
  }
  return groups;
}

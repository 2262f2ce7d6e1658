import { type Kysely, type Selectable, type SelectQueryBuilder, sql } from 'kysely';
import type { EventTopic } from '../../contract/events.js';
import type { Webhook, WebhookDelivery } from '../../contract/webhooks.js';
import type { Page } from '../../modules/shared/page.js';
import type { NewWebhook, StoredWebhook, WebhookFilter, WebhookPatch, WebhookRepository } from '../../modules/webhooks/webhook-repository.js';
import type { Tables } from '../tables.js';
import type { WebhooksTable } from '../tables/webhook-tables.js';
import { fromFlag, toFlag } from './values.js';

export class KyselyWebhookRepository implements WebhookRepository {
  constructor(private readonly db: Kysely<Tables>) {}

  async list(storeId: number, filter: WebhookFilter, page: Page): Promise<Webhook[]> {
    const rows = await this.filtered(storeId, filter).selectAll().orderBy('id').limit(page.count).offset(page.offset).execute();
    return rows.map(toWebhook);
  }

  async count(storeId: number, filter: WebhookFilter): Promise<number> {
    const row = await this.filtered(storeId, filter)
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  async find(storeId: number, id: number): Promise<StoredWebhook | undefined> {
    const row = await this.db.selectFrom('webhooks').selectAll().where('store_id', '=', storeId).where('id', '=', id).executeTakeFirst();
    return row && toStoredWebhook(row);
  }

  async deliveries(storeId: number, webhookId: number, page: Page): Promise<WebhookDelivery[]> {
    const rows = await this.db
      .selectFrom('webhook_deliveries')
      .select(['id', 'event_id', 'status', 'attempts', 'last_status', 'last_error', 'next_attempt_at', 'created_at', 'finished_at'])
      .where('store_id', '=', storeId)
      .where('webhook_id', '=', webhookId)
      .orderBy('event_id', 'desc')
      .limit(page.count)
      .offset(page.offset)
      .execute();
    const moment = (milliseconds: number | string) => new Date(Number(milliseconds)).toISOString();
    return rows.map((row) => ({
      id: Number(row.id),
      eventId: Number(row.event_id),
      status: row.status as WebhookDelivery['status'],
      attempts: Number(row.attempts),
      lastStatus: row.last_status === null ? null : Number(row.last_status),
      lastError: row.last_error,
      nextAttemptAt: row.status === 'pending' ? moment(row.next_attempt_at) : null,
      createdAt: moment(row.created_at),
      finishedAt: row.finished_at === null ? null : moment(row.finished_at),
    }));
  }

  async lockStore(storeId: number): Promise<void> {
    // A no-op write to the store's row: PostgreSQL holds its lock until the transaction ends;
    // SQLite already runs one writer at a time.
    await this.db
      .updateTable('stores')
      .set((eb) => ({ name: eb.ref('name') }))
      .where('id', '=', storeId)
      .execute();
  }

  async insert(storeId: number, fields: NewWebhook, createdAt: string): Promise<StoredWebhook> {
    const row = await this.db
      .insertInto('webhooks')
      .values({
        store_id: storeId,
        topic: fields.topic,
        url: fields.url,
        secret: fields.secret,
        active: 1,
        verified: toFlag(fields.verified),
        last_success_at: null,
        created_at: createdAt,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toStoredWebhook(row);
  }

  async update(storeId: number, id: number, patch: WebhookPatch): Promise<StoredWebhook | undefined> {
    const row = await this.db
      .updateTable('webhooks')
      .set({
        ...(patch.topic !== undefined && { topic: patch.topic }),
        ...(patch.url !== undefined && { url: patch.url }),
        ...(patch.active !== undefined && { active: toFlag(patch.active) }),
        ...(patch.active === true && { failure_count: 0 }),
        ...(patch.verified !== undefined && { verified: toFlag(patch.verified) }),
      })
      .where('store_id', '=', storeId)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
    return row && toStoredWebhook(row);
  }

  async cancelPendingDeliveries(webhookId: number, reason: string, now: number): Promise<void> {
    await this.db
      .updateTable('webhook_deliveries')
      .set({ status: 'failed', last_error: reason, lease_until: null, lease_token: null, finished_at: now })
      .where('webhook_id', '=', webhookId)
      .where('status', '=', 'pending')
      .execute();
  }

  async delete(storeId: number, id: number): Promise<EventTopic | undefined> {
    // Deliveries reference the webhook; a worker finishing one of them afterwards finds nothing to update.
    await this.db
      .deleteFrom('webhook_deliveries')
      .where('webhook_id', 'in', (eb) => eb.selectFrom('webhooks').select('id').where('store_id', '=', storeId).where('id', '=', id))
      .execute();
    const row = await this.db.deleteFrom('webhooks').where('store_id', '=', storeId).where('id', '=', id).returning('topic').executeTakeFirst();
    return row?.topic as EventTopic | undefined;
  }

  private filtered(storeId: number, filter: WebhookFilter): SelectQueryBuilder<Tables, 'webhooks', object> {
    let query = this.db.selectFrom('webhooks').where('store_id', '=', storeId);
    if (filter.topic !== undefined) query = query.where('topic', '=', filter.topic);
    if (filter.topics !== undefined) query = filter.topics.length === 0 ? query.where(sql<boolean>`1 = 0`) : query.where('topic', 'in', filter.topics);
    return query;
  }
}

function toWebhook(row: Selectable<WebhooksTable>): Webhook {
  return {
    id: Number(row.id),
    topic: row.topic as EventTopic,
    url: row.url,
    active: fromFlag(row.active),
    verified: fromFlag(row.verified),
    createdAt: row.created_at,
  };
}

function toStoredWebhook(row: Selectable<WebhooksTable>): StoredWebhook {
  return { ...toWebhook(row), secret: row.secret };
}

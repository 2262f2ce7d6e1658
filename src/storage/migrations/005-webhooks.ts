import { sql, type Kysely, type Migration } from 'kysely';
import type { Engine } from '../engine.js';
import { idType, withIdColumn } from './schema-helpers.js';

/** Webhook subscriptions, the event outbox and the deliveries fanned out from it. */
export function webhooksSchema(engine: Engine): Migration {
  const ref = idType(engine);
  return {
    async up(db: Kysely<unknown>) {
      await withIdColumn(db.schema.createTable('webhooks'), engine)
        .addColumn('store_id', ref, (c) => c.notNull().references('stores.id'))
        .addColumn('topic', 'text', (c) => c.notNull())
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('secret', 'text', (c) => c.notNull())
        .addColumn('active', 'integer', (c) => c.notNull())
        .addColumn('verified', 'integer', (c) => c.notNull())
        .addColumn('failure_count', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('last_success_at', 'bigint')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('webhooks_store_topic').on('webhooks').columns(['store_id', 'topic', 'id']).execute();

      await withIdColumn(db.schema.createTable('events'), engine)
        .addColumn('store_id', ref, (c) => c.notNull().references('stores.id'))
        .addColumn('topic', 'text', (c) => c.notNull())
        .addColumn('subject_id', ref, (c) => c.notNull())
        .addColumn('data', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('fanned_out', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.createIndex('events_store').on('events').columns(['store_id', 'id']).execute();
      await db.schema.createIndex('events_created').on('events').columns(['created_at']).execute();
      // Only the events still to fan out are in it, so the worker's poll stays cheap.
      await db.schema.createIndex('events_unfanned').on('events').column('id').where(sql.ref('fanned_out'), '=', sql.lit(0)).execute();

      await withIdColumn(db.schema.createTable('webhook_deliveries'), engine)
        .addColumn('store_id', ref, (c) => c.notNull().references('stores.id'))
        .addColumn('event_id', ref, (c) => c.notNull().references('events.id'))
        .addColumn('webhook_id', ref, (c) => c.notNull().references('webhooks.id'))
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull())
        .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
        .addColumn('lease_until', 'bigint')
        .addColumn('lease_token', 'text')
        .addColumn('last_status', 'integer')
        .addColumn('last_error', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('finished_at', 'bigint')
        .execute();
      await db.schema.createIndex('webhook_deliveries_once').unique().on('webhook_deliveries').columns(['webhook_id', 'event_id']).execute();
      await db.schema.createIndex('webhook_deliveries_event').on('webhook_deliveries').columns(['event_id']).execute();
      await db.schema
        .createIndex('webhook_deliveries_pending')
        .on('webhook_deliveries')
        .columns(['webhook_id', 'next_attempt_at', 'id'])
        .where(sql.ref('status'), '=', sql.lit('pending'))
        .execute();
    },
  };
}

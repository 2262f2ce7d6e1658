import { sql, type Kysely, type Migration } from 'kysely';
import type { Engine } from '../engine.js';
import { idType } from './schema-helpers.js';

/**
 * Idempotency keys per credential, not per store: another credential of the store that sends
 * the same key makes its own request instead of reading the first one's answer. Each record
 * also names the record its answer created (`path`, `record_id`), so the answer can be dropped
 * with that record (a webhook's creation answer carries its signing secret).
 *
 * Records from before (`key_id` 0: the credential is unknown) are kept for their remaining
 * hours and replay for any credential of their store, but for webhook creation answers, which
 * are dropped: they carry a secret.
 */
export function idempotencyPerCredentialSchema(engine: Engine): Migration {
  const ref = idType(engine);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('idempotency_records')
        .addColumn('store_id', ref, (c) => c.notNull().references('stores.id'))
        .addColumn('key_id', ref, (c) => c.notNull())
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('fingerprint', 'text', (c) => c.notNull())
        .addColumn('status_code', 'integer', (c) => c.notNull())
        .addColumn('response_body', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('path', 'text')
        .addColumn('record_id', ref)
        .addPrimaryKeyConstraint('idempotency_records_pk', ['store_id', 'key_id', 'key'])
        .execute();
      await sql`
        insert into idempotency_records (store_id, key_id, key, fingerprint, status_code, response_body, created_at, expires_at)
        select store_id, 0, key, fingerprint, status_code, response_body, created_at, expires_at from idempotency_keys
        where response_body not like ${'%"secret":"whsec_%'}`.execute(db);
      await db.schema.dropTable('idempotency_keys').execute();
      await db.schema.createIndex('idempotency_records_expiry').on('idempotency_records').columns(['expires_at']).execute();
      await db.schema.createIndex('idempotency_records_record').on('idempotency_records').columns(['store_id', 'record_id']).execute();
    },
  };
}

import type { Kysely, Migration } from 'kysely';
import type { Engine } from '../engine.js';
import { idType, withIdColumn } from './schema-helpers.js';

/**
 * Staff accounts and their sessions (docs/staff.md).
 *
 * - `staff_accounts.email_key`, the lower-cased e-mail, is unique over the whole server, not per
 *   store: the sign-in form asks for no store, and its answers must never tell whether an
 *   e-mail exists, so one e-mail names one account.
 * - `password_hash` is self-describing (`scrypt$ln=15,r=8,p=1$salt$key`), so its parameters
 *   can change later without a migration.
 * - `staff_sessions` keeps a SHA-256 of each session token, never the token; every request with
 *   the cookie looks its session up by that hash, so a session ended by one instance (sign-out,
 *   an account disabled or reset) is ended for all of them at once. The maintenance loop
 *   deletes sessions a day after their absolute expiry.
 */
export function staffSchema(engine: Engine): Migration {
  const ref = idType(engine);
  return {
    async up(db: Kysely<unknown>) {
      await withIdColumn(db.schema.createTable('staff_accounts'), engine)
        .addColumn('store_id', ref, (c) => c.notNull().references('stores.id'))
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('email_key', 'text', (c) => c.notNull())
        .addColumn('display_name', 'text', (c) => c.notNull())
        .addColumn('role', 'text', (c) => c.notNull())
        .addColumn('password_hash', 'text', (c) => c.notNull())
        .addColumn('must_change_password', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('disabled_at', 'text')
        .execute();
      await db.schema.createIndex('staff_accounts_email_key').unique().on('staff_accounts').columns(['email_key']).execute();
      await db.schema.createIndex('staff_accounts_store').on('staff_accounts').columns(['store_id', 'id']).execute();

      await withIdColumn(db.schema.createTable('staff_sessions'), engine)
        .addColumn('token_hash', 'text', (c) => c.notNull())
        .addColumn('staff_id', ref, (c) => c.notNull().references('staff_accounts.id'))
        .addColumn('store_id', ref, (c) => c.notNull().references('stores.id'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('last_seen_at', 'text', (c) => c.notNull())
        .addColumn('ended_at', 'text')
        .execute();
      await db.schema.createIndex('staff_sessions_token_hash').unique().on('staff_sessions').columns(['token_hash']).execute();
      // Disabling or resetting an account ends its open sessions.
      await db.schema.createIndex('staff_sessions_staff').on('staff_sessions').columns(['staff_id', 'ended_at']).execute();
      // The maintenance loop deletes sessions past their absolute expiry, oldest first.
      await db.schema.createIndex('staff_sessions_created').on('staff_sessions').columns(['created_at']).execute();
    },
  };
}

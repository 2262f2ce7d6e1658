import type { Kysely, Migration } from 'kysely';

/**
 * Staff sign-in throttling that an operator can clear and a member's browser keeps
 * (docs/staff.md, "Throttling").
 *
 * - `staff_accounts.sign_in_generation`: part of the account's sign-in bucket key and of its
 *   device cookies' MAC. `staff reset` and `staff disable` raise it, and since every instance
 *   reads it from this shared database at each sign-in, the account's buckets are empty again
 *   on every instance at once (in memory as in Redis), and its device cookies are revoked.
 * - `server_secrets`: secrets the server makes once and every instance shares; the device
 *   cookies' signing key (`staff-device-cookies`, 32 random bytes, base64url), written by the
 *   first sign-in that needs it.
 */
export function signInGenerationSchema(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('staff_accounts')
        .addColumn('sign_in_generation', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .createTable('server_secrets')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
    },
  };
}

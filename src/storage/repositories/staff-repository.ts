import type { Kysely, Selectable } from 'kysely';
import { isStaffRole, type StaffRole } from '../../modules/staff/roles.js';
import {
  type NewStaffAccount,
  type StaffAccount,
  type StaffRepository,
  type StoredSession,
  type StoredStaffAccount,
  withoutPasswordHash,
} from '../../modules/staff/staff-repository.js';
import type { Tables } from '../tables.js';
import type { StaffAccountsTable } from '../tables/store-tables.js';
import { mapUniqueViolation } from '../unique-violation.js';

/** The `server_secrets` row of the device cookies' key (migration 031). */
const DEVICE_COOKIE_KEY = 'staff-device-cookies';

export class KyselyStaffRepository implements StaffRepository {
  constructor(private readonly db: Kysely<Tables>) {}

  async insert(account: NewStaffAccount): Promise<StaffAccount> {
    const row = await mapUniqueViolation(
      this.db
        .insertInto('staff_accounts')
        .values({
          store_id: account.storeId,
          email: account.email,
          email_key: account.emailKey,
          display_name: account.name,
          role: account.role,
          password_hash: account.passwordHash,
          must_change_password: 1,
          created_at: account.createdAt,
          disabled_at: null,
        })
        .returning(['id'])
        .executeTakeFirstOrThrow(),
    );
    return {
      id: row.id,
      storeId: account.storeId,
      email: account.email,
      name: account.name,
      role: account.role,
      mustChangePassword: true,
      createdAt: account.createdAt,
      disabledAt: null,
    };
  }

  async pageOfStore(storeId: number, afterId: number, limit: number): Promise<StaffAccount[]> {
    const rows = await this.db
      .selectFrom('staff_accounts')
      .selectAll()
      .where('store_id', '=', storeId)
      .where('id', '>', afterId)
      .orderBy('id')
      .limit(limit)
      .execute();
    return rows.map((row) => withoutPasswordHash(toStored(row)));
  }

  async find(storeId: number, id: number): Promise<StoredStaffAccount | undefined> {
    const row = await this.db.selectFrom('staff_accounts').selectAll().where('store_id', '=', storeId).where('id', '=', id).executeTakeFirst();
    return row && toStored(row);
  }

  async findByEmailKey(emailKey: string): Promise<StoredStaffAccount | undefined> {
    const row = await this.db.selectFrom('staff_accounts').selectAll().where('email_key', '=', emailKey).executeTakeFirst();
    return row && toStored(row);
  }

  async disable(id: number, disabledAt: string): Promise<void> {
    await this.db.updateTable('staff_accounts').set({ disabled_at: disabledAt }).where('id', '=', id).where('disabled_at', 'is', null).execute();
  }

  async setPassword(id: number, passwordHash: string, mustChangePassword: boolean): Promise<void> {
    await this.db
      .updateTable('staff_accounts')
      .set({ password_hash: passwordHash, must_change_password: mustChangePassword ? 1 : 0 })
      .where('id', '=', id)
      .execute();
  }

  async raiseSignInGeneration(id: number): Promise<void> {
    await this.db
      .updateTable('staff_accounts')
      .set((eb) => ({ sign_in_generation: eb('sign_in_generation', '+', 1) }))
      .where('id', '=', id)
      .execute();
  }

  async deviceCookieKey(proposed: string, createdAt: string): Promise<string> {
    await this.db
      .insertInto('server_secrets')
      .values({ name: DEVICE_COOKIE_KEY, value: proposed, created_at: createdAt })
      .onConflict((conflict) => conflict.column('name').doNothing())
      .execute();
    const row = await this.db.selectFrom('server_secrets').select('value').where('name', '=', DEVICE_COOKIE_KEY).executeTakeFirstOrThrow();
    return row.value;
  }

  async insertSession(session: { tokenHash: string; staffId: number; storeId: number; createdAt: string }): Promise<number> {
    const row = await this.db
      .insertInto('staff_sessions')
      .values({
        token_hash: session.tokenHash,
        staff_id: session.staffId,
        store_id: session.storeId,
        created_at: session.createdAt,
        last_seen_at: session.createdAt,
        ended_at: null,
      })
      .returning(['id'])
      .executeTakeFirstOrThrow();
    return row.id;
  }

  async findSession(tokenHash: string): Promise<StoredSession | undefined> {
    const row = await this.db
      .selectFrom('staff_sessions as s')
      .innerJoin('staff_accounts as a', 'a.id', 's.staff_id')
      .select(['s.id as session_id', 's.created_at as session_created_at', 's.last_seen_at', 's.ended_at'])
      .selectAll('a')
      .where('s.token_hash', '=', tokenHash)
      .executeTakeFirst();
    if (row === undefined) return undefined;
    return {
      id: row.session_id,
      createdAt: row.session_created_at,
      lastSeenAt: row.last_seen_at,
      endedAt: row.ended_at,
      account: withoutPasswordHash(toStored(row)),
    };
  }

  async touchSession(id: number, lastSeenAt: string): Promise<void> {
    await this.db.updateTable('staff_sessions').set({ last_seen_at: lastSeenAt }).where('id', '=', id).execute();
  }

  async endSession(id: number, endedAt: string): Promise<void> {
    await this.db.updateTable('staff_sessions').set({ ended_at: endedAt }).where('id', '=', id).where('ended_at', 'is', null).execute();
  }

  async endSessionsOf(staffId: number, endedAt: string, except?: number): Promise<number> {
    let query = this.db.updateTable('staff_sessions').set({ ended_at: endedAt }).where('staff_id', '=', staffId).where('ended_at', 'is', null);
    if (except !== undefined) query = query.where('id', '!=', except);
    const result = await query.executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  async deleteSessionsCreatedBefore(before: string, limit: number): Promise<number> {
    const oldest = this.db.selectFrom('staff_sessions').select('id').where('created_at', '<', before).orderBy('created_at').limit(limit);
    const result = await this.db.deleteFrom('staff_sessions').where('id', 'in', oldest).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}

function toStored(row: Selectable<StaffAccountsTable>): StoredStaffAccount {
  return {
    id: Number(row.id),
    storeId: Number(row.store_id),
    email: row.email,
    name: row.display_name,
    role: roleOf(row.role),
    mustChangePassword: Number(row.must_change_password) === 1,
    createdAt: row.created_at,
    disabledAt: row.disabled_at,
    passwordHash: row.password_hash,
    signInGeneration: Number(row.sign_in_generation),
  };
}

/** A role the code no longer knows reads as the least one, never as more. */
function roleOf(stored: string): StaffRole {
  return isStaffRole(stored) ? stored : 'viewer';
}

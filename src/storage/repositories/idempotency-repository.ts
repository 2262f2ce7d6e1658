import type { Kysely } from 'kysely';
import type { CreatedRecord, IdempotencyRepository, KeyOwner, StoredResponse } from '../../modules/idempotency/idempotency-repository.js';
import type { Tables } from '../tables.js';
import { mapUniqueViolation } from '../unique-violation.js';

/** Records from before keys were per credential: they replay for any credential of their store until they expire. */
const ANY_CREDENTIAL = 0;

export class KyselyIdempotencyRepository implements IdempotencyRepository {
  constructor(private readonly db: Kysely<Tables>) {}

  async find(owner: KeyOwner, key: string, now: number): Promise<StoredResponse | undefined> {
    const row = await this.db
      .selectFrom('idempotency_records')
      .select(['fingerprint', 'status_code', 'response_body'])
      .where('store_id', '=', owner.storeId)
      .where('key_id', 'in', [owner.keyId, ANY_CREDENTIAL])
      .where('key', '=', key)
      .where('expires_at', '>', now)
      .orderBy('key_id', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row && { fingerprint: row.fingerprint, statusCode: Number(row.status_code), body: row.response_body };
  }

  async claim(owner: KeyOwner, key: string, fingerprint: string, createdAt: string, expiresAt: number, now: number): Promise<void> {
    await this.db
      .deleteFrom('idempotency_records')
      .where('store_id', '=', owner.storeId)
      .where('key_id', '=', owner.keyId)
      .where('key', '=', key)
      .where('expires_at', '<=', now)
      .execute();
    await mapUniqueViolation(
      this.db
        .insertInto('idempotency_records')
        .values({
          store_id: owner.storeId,
          key_id: owner.keyId,
          key,
          fingerprint,
          status_code: 0,
          response_body: '',
          created_at: createdAt,
          expires_at: expiresAt,
          path: null,
          record_id: null,
        })
        .execute(),
    );
  }

  async complete(owner: KeyOwner, key: string, statusCode: number, body: string, created: CreatedRecord | undefined): Promise<void> {
    await this.db
      .updateTable('idempotency_records')
      .set({ status_code: statusCode, response_body: body, path: created?.path ?? null, record_id: created?.id ?? null })
      .where('store_id', '=', owner.storeId)
      .where('key_id', '=', owner.keyId)
      .where('key', '=', key)
      .execute();
  }

  async forgetRecord(storeId: number, created: CreatedRecord): Promise<void> {
    await this.db
      .deleteFrom('idempotency_records')
      .where('store_id', '=', storeId)
      .where('record_id', '=', created.id)
      .where('path', '=', created.path)
      .execute();
  }

  async deleteExpired(now: number, limit: number): Promise<number> {
    // About `limit` at a time, oldest first, so a large backlog never holds the database long:
    // up to the expiry of the limit-th oldest expired record (its ties included).
    const nth = await this.db
      .selectFrom('idempotency_records')
      .select('expires_at')
      .where('expires_at', '<=', now)
      .orderBy('expires_at')
      .offset(limit - 1)
      .limit(1)
      .executeTakeFirst();
    const cutoff = nth === undefined ? now : Number(nth.expires_at);
    const result = await this.db.deleteFrom('idempotency_records').where('expires_at', '<=', cutoff).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}

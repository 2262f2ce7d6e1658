import type { Kysely } from 'kysely';
import type { IdempotencyRepository, StoredResponse } from '../../modules/idempotency/idempotency-repository.js';
import type { Tables } from '../tables.js';
import { mapUniqueViolation } from '../unique-violation.js';

export class KyselyIdempotencyRepository implements IdempotencyRepository {
  constructor(private readonly db: Kysely<Tables>) {}

  async find(storeId: number, key: string, now: number): Promise<StoredResponse | undefined> {
    const row = await this.db
      .selectFrom('idempotency_keys')
      .select(['fingerprint', 'status_code', 'response_body'])
      .where('store_id', '=', storeId)
      .where('key', '=', key)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return row && { fingerprint: row.fingerprint, statusCode: Number(row.status_code), body: row.response_body };
  }

  async claim(storeId: number, key: string, fingerprint: string, createdAt: string, expiresAt: number, now: number): Promise<void> {
    await this.db.deleteFrom('idempotency_keys').where('store_id', '=', storeId).where('key', '=', key).where('expires_at', '<=', now).execute();
    await mapUniqueViolation(
      this.db
        .insertInto('idempotency_keys')
        .values({ store_id: storeId, key, fingerprint, status_code: 0, response_body: '', created_at: createdAt, expires_at: expiresAt })
        .execute(),
    );
  }

  async complete(storeId: number, key: string, statusCode: number, body: string): Promise<void> {
    await this.db.updateTable('idempotency_keys').set({ status_code: statusCode, response_body: body }).where('store_id', '=', storeId).where('key', '=', key).execute();
  }

  async deleteExpired(now: number): Promise<number> {
    const result = await this.db.deleteFrom('idempotency_keys').where('expires_at', '<=', now).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}

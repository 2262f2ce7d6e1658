import type { Kysely, Selectable } from 'kysely';
import type { RoundingMode } from '../../modules/currency/rounding.js';
import type { ApiKey, ApiKeyRepository, ListedApiKey, StoredApiKey, Store, StoreMoney, StoreRepository } from '../../modules/stores/store-repository.js';
import { isScope } from '../../modules/stores/scopes.js';
import type { Tables } from '../tables.js';
import type { ApiKeysTable, StoresTable } from '../tables/store-tables.js';
import type { HotReads } from './hot-reads.js';

export class KyselyStoreRepository implements StoreRepository {
  constructor(private readonly db: Kysely<Tables>) {}

  async insert(name: string, money: StoreMoney, createdAt: string): Promise<Store> {
    const row = await this.db
      .insertInto('stores')
      .values({ name, currency: money.currency, rounding_mode: money.rounding, created_at: createdAt })
      .returning(['id'])
      .executeTakeFirstOrThrow();
    return { id: row.id, name, ...money, createdAt };
  }

  async find(id: number): Promise<Store | undefined> {
    const row = await this.db.selectFrom('stores').selectAll().where('id', '=', id).executeTakeFirst();
    return row && toStore(row);
  }

  async any(): Promise<boolean> {
    return (await this.db.selectFrom('stores').select('id').limit(1).executeTakeFirst()) !== undefined;
  }

  async page(afterId: number, limit: number): Promise<Store[]> {
    const rows = await this.db.selectFrom('stores').selectAll().where('id', '>', afterId).orderBy('id').limit(limit).execute();
    return rows.map(toStore);
  }

  async requiresApproval(id: number): Promise<boolean | undefined> {
    const row = await this.db.selectFrom('stores').select('require_approval').where('id', '=', id).executeTakeFirst();
    return row && Number(row.require_approval) === 1;
  }

  async setRequireApproval(id: number, value: boolean): Promise<boolean> {
    const result = await this.db
      .updateTable('stores')
      .set({ require_approval: value ? 1 : 0 })
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async setMoney(id: number, money: StoreMoney): Promise<Store | undefined> {
    const row = await this.db
      .updateTable('stores')
      .set({ currency: money.currency, rounding_mode: money.rounding })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
    return row && toStore(row);
  }
}

function toStore(row: Selectable<StoresTable>): Store {
  return { id: Number(row.id), name: row.name, currency: row.currency, rounding: row.rounding_mode as RoundingMode, createdAt: row.created_at };
}

export class KyselyApiKeyRepository implements ApiKeyRepository {
  constructor(
    private readonly db: Kysely<Tables>,
    private readonly hotReads: HotReads,
  ) {}

  async insert(key: Omit<StoredApiKey, 'id' | 'revokedAt' | 'name'> & { name?: string }): Promise<ApiKey> {
    const row = await this.db
      .insertInto('api_keys')
      .values({
        store_id: key.storeId,
        key: key.key,
        secret_hash: key.secretHash,
        scopes: key.scopes.join(','),
        created_at: key.createdAt,
        name: key.name ?? null,
      })
      .returning(['id'])
      .executeTakeFirstOrThrow();
    return { id: row.id, storeId: key.storeId, key: key.key, scopes: key.scopes, createdAt: key.createdAt, revokedAt: null };
  }

  async findByKey(key: string): Promise<StoredApiKey | undefined> {
    const [row] = await this.hotReads.apiKeyByKey.execute(this.db, { key });
    return row && toStoredApiKey(row);
  }

  async pageOfStore(storeId: number, afterId: number, limit: number): Promise<ListedApiKey[]> {
    const rows = await this.db
      .selectFrom('api_keys')
      .selectAll()
      .where('store_id', '=', storeId)
      .where('id', '>', afterId)
      .orderBy('id')
      .limit(limit)
      .execute();
    return rows.map(toListedApiKey);
  }

  async activeNamed(name: string, storeId: number | undefined, limit: number): Promise<ListedApiKey[]> {
    let query = this.db.selectFrom('api_keys').selectAll().where('name', '=', name).where('revoked_at', 'is', null);
    if (storeId !== undefined) query = query.where('store_id', '=', storeId);
    return (await query.orderBy('id').limit(limit).execute()).map(toListedApiKey);
  }

  async revoke(id: number, revokedAt: string): Promise<boolean> {
    const result = await this.db.updateTable('api_keys').set({ revoked_at: revokedAt }).where('id', '=', id).where('revoked_at', 'is', null).executeTakeFirst();
    if (result.numUpdatedRows > 0n) return true;
    // Revoking twice is not an error; revoking what never existed is.
    return (await this.db.selectFrom('api_keys').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
  }
}

function toListedApiKey(row: Selectable<ApiKeysTable>): ListedApiKey {
  const { id, storeId, key, scopes, createdAt, revokedAt } = toStoredApiKey(row);
  return { id, storeId, name: row.name, key, scopes, createdAt, revokedAt };
}

function toStoredApiKey(row: Selectable<ApiKeysTable>): StoredApiKey {
  return {
    id: row.id,
    storeId: row.store_id,
    key: row.key,
    secretHash: row.secret_hash,
    scopes: row.scopes.split(',').filter(isScope),
    createdAt: row.created_at,
    revokedAt: row.revoked_at,
    name: row.name,
  };
}

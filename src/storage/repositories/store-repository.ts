import type { Kysely, Selectable } from 'kysely';
import type { ApiKey, ApiKeyRepository, StoredApiKey, Store, StoreRepository } from '../../modules/stores/store-repository.js';
import { isScope } from '../../modules/stores/scopes.js';
import type { ApiKeysTable, Tables } from '../tables.js';
import type { HotReads } from './hot-reads.js';

export class KyselyStoreRepository implements StoreRepository {
  constructor(private readonly db: Kysely<Tables>) {}

  async insert(name: string, createdAt: string): Promise<Store> {
    const row = await this.db.insertInto('stores').values({ name, created_at: createdAt }).returning(['id']).executeTakeFirstOrThrow();
    return { id: row.id, name, createdAt };
  }

  async find(id: number): Promise<Store | undefined> {
    const row = await this.db.selectFrom('stores').selectAll().where('id', '=', id).executeTakeFirst();
    return row && { id: row.id, name: row.name, createdAt: row.created_at };
  }

  async any(): Promise<boolean> {
    return (await this.db.selectFrom('stores').select('id').limit(1).executeTakeFirst()) !== undefined;
  }
}

export class KyselyApiKeyRepository implements ApiKeyRepository {
  constructor(
    private readonly db: Kysely<Tables>,
    private readonly hotReads: HotReads,
  ) {}

  async insert(key: Omit<StoredApiKey, 'id' | 'revokedAt'>): Promise<ApiKey> {
    const row = await this.db
      .insertInto('api_keys')
      .values({ store_id: key.storeId, key: key.key, secret_hash: key.secretHash, scopes: key.scopes.join(','), created_at: key.createdAt })
      .returning(['id'])
      .executeTakeFirstOrThrow();
    return { id: row.id, storeId: key.storeId, key: key.key, scopes: key.scopes, createdAt: key.createdAt, revokedAt: null };
  }

  async findByKey(key: string): Promise<StoredApiKey | undefined> {
    const [row] = await this.hotReads.apiKeyByKey.execute(this.db, { key });
    return row && toStoredApiKey(row);
  }

  async revoke(id: number, revokedAt: string): Promise<boolean> {
    const result = await this.db
      .updateTable('api_keys')
      .set({ revoked_at: revokedAt })
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    if (result.numUpdatedRows > 0n) return true;
    // Revoking twice is not an error; revoking what never existed is.
    return (await this.db.selectFrom('api_keys').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
  }
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
  };
}

import type { Kysely, Migration } from 'kysely';

/**
 * Credentials may carry a name (`pricebook keys create --name erp`), so that they can be told
 * apart in `pricebook keys list` and revoked by it. Existing credentials have none (NULL).
 * Names are looked up per store, so the index leads with the store.
 */
export function apiKeyNamesSchema(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('api_keys').addColumn('name', 'text').execute();
      await db.schema.createIndex('api_keys_store_name').on('api_keys').columns(['store_id', 'name']).execute();
    },
  };
}

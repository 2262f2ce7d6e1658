import type { Kysely, Migration } from 'kysely';

/**
 * The deleted trade prices and list entries by their store, then their id, then the moment each
 * stretch of a record's life ended (a restored record may have gone more than once), in place
 * of migration 020's index by id alone: `pricebook history verify` walks one store's rows in
 * this order to check them against the history entries that deleted them (docs/history.md,
 * "What verify checks"), and a restore's look-up by store and id reads the same index.
 */
export function deletedRecordIdsSchema(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      for (const table of ['trade_prices_deleted', 'price_list_prices_deleted']) {
        await db.schema.dropIndex(`${table}_id`).execute();
        await db.schema.createIndex(`${table}_store_id`).on(table).columns(['store_id', 'id', 'deleted_at']).execute();
      }
    },
  };
}

import type { Kysely, Migration } from 'kysely';
import type { Engine } from '../engine.js';
import { idType } from './schema-helpers.js';

/**
 * Retention of the price history (docs/history.md, "Retention and checkpoints"): when the
 * maintenance loop cuts a store's oldest entries, the store's one checkpoint row says where
 * what is left begins (the `seq` and `hash` of the last entry cut, that entry's `at`, when the
 * cut was made), signed with HMAC-SHA256 under the server's history key, so `pricebook history
 * verify` starts from it instead of the genesis hash, and an edited checkpoint fails.
 *
 * Also an index by moment: the history's `from=`/`until=` filters and the cut, which stops at
 * the first entry inside the retention period.
 */
export function historyCheckpointsSchema(engine: Engine): Migration {
  const ref = idType(engine);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('price_history_checkpoints')
        .addColumn('store_id', ref, (c) => c.primaryKey().references('stores.id'))
        .addColumn('seq', 'bigint', (c) => c.notNull())
        .addColumn('hash', 'text', (c) => c.notNull())
        .addColumn('last_cut_at', 'text', (c) => c.notNull())
        .addColumn('cut_at', 'text', (c) => c.notNull())
        .addColumn('signature', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('price_history_at').on('price_history').columns(['store_id', 'at']).execute();
    },
  };
}

import { type Kysely, type Migration, sql } from 'kysely';
import type { Engine } from '../engine.js';
import { idType } from './schema-helpers.js';

/**
 * What a dry run would change, row by row (`GET /v1/imports/{id}/changes`, docs/imports.md):
 * each price it would create, delete or change (old → new), numbered in the order it found
 * them, up to `MAX_IMPORT_CHANGES` an import. Listed by customer, SKU (code points, as every
 * order of SKUs: `collate "C"` on PostgreSQL, SQLite's own) and break, along an index. Kept
 * with the import, deleted before it is.
 */
export function importChangesSchema(engine: Engine): Migration {
  const ref = idType(engine);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('import_changes')
        .addColumn('import_id', ref, (c) => c.notNull().references('imports.id'))
        .addColumn('store_id', ref, (c) => c.notNull().references('stores.id'))
        .addColumn('seq', 'integer', (c) => c.notNull())
        // created, deleted or changed.
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('customer_id', ref, (c) => c.notNull())
        .addColumn('sku', 'text', (c) => c.notNull())
        .addColumn('min_quantity', 'integer', (c) => c.notNull())
        .addColumn('valid_from', 'text')
        .addColumn('valid_until', 'text')
        // Ten-thousandths; null for a price created (before) or deleted (after).
        .addColumn('price_before', 'bigint')
        .addColumn('price_after', 'bigint')
        // The record deleted or replaced; null for a price created.
        .addColumn('trade_price_id', ref)
        .addPrimaryKeyConstraint('import_changes_pk', ['import_id', 'seq'])
        .execute();
      const sku = engine.textIsCodePoints ? sql`sku` : sql`sku collate "C"`;
      await sql`create index import_changes_order on import_changes (import_id, customer_id, ${sku}, min_quantity, seq)`.execute(db);
    },
  };
}

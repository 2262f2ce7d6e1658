import type { Kysely, Migration } from 'kysely';
import type { Engine } from '../engine.js';
import { idType, withIdColumn } from './schema-helpers.js';

/**
 * CSV imports of trade prices (docs/imports.md): the import itself, the file until it is
 * applied, and the rows it checked, staged until they are applied in one transaction.
 */
export function importsSchema(engine: Engine): Migration {
  const ref = idType(engine);
  return {
    async up(db: Kysely<unknown>) {
      await withIdColumn(db.schema.createTable('imports'), engine)
        .addColumn('store_id', ref, (c) => c.notNull().references('stores.id'))
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('mode', 'text', (c) => c.notNull())
        .addColumn('dry_run', 'integer', (c) => c.notNull())
        .addColumn('format', 'text')
        .addColumn('rows', 'bigint')
        .addColumn('processed', 'bigint', (c) => c.notNull().defaultTo(0))
        // JSON array of at most 1000 {row, field, message}.
        .addColumn('errors', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('error_count', 'bigint', (c) => c.notNull().defaultTo(0))
        // JSON {created, deleted, unchanged} once succeeded.
        .addColumn('result', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('finished_at', 'text')
        // Milliseconds since the epoch; while in the future, one process owns the running import.
        .addColumn('lease_until', 'bigint')
        .addColumn('lease_token', 'text')
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.createIndex('imports_store').on('imports').columns(['store_id', 'id']).execute();
      await db.schema.createIndex('imports_status').on('imports').columns(['status', 'id']).execute();

      await db.schema
        .createTable('import_files')
        .addColumn('import_id', ref, (c) => c.primaryKey().references('imports.id'))
        .addColumn('store_id', ref, (c) => c.notNull().references('stores.id'))
        .addColumn('csv', 'text', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('import_rows')
        .addColumn('import_id', ref, (c) => c.notNull().references('imports.id'))
        .addColumn('store_id', ref, (c) => c.notNull().references('stores.id'))
        // Order of the prices in the file: rows top to bottom, a matrix row's customers left to right.
        .addColumn('position', 'bigint', (c) => c.notNull())
        .addColumn('customer_id', ref, (c) => c.notNull())
        .addColumn('product_id', ref, (c) => c.notNull())
        .addColumn('sku', 'text', (c) => c.notNull())
        .addColumn('price', 'bigint', (c) => c.notNull())
        .addColumn('min_quantity', 'integer', (c) => c.notNull())
        .addColumn('valid_from', 'text')
        .addColumn('valid_until', 'text')
        .addPrimaryKeyConstraint('import_rows_pk', ['import_id', 'position'])
        .execute();
      await db.schema.createIndex('import_rows_customer').on('import_rows').columns(['import_id', 'customer_id', 'position']).execute();
    },
  };
}

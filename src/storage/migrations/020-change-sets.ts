import { type Kysely, type Migration, sql } from 'kysely';
import type { Engine } from '../engine.js';
import { idType, withIdColumn } from './schema-helpers.js';

/**
 * Change sets (docs/change-sets.md): a store's staged price changes, their operations in order,
 * and the store's `require_approval` setting.
 *
 * A revert restores deleted trade prices and list entries with their own ids, so one id can now
 * be deleted twice (before the restore and after it): the `…_deleted` tables lose their primary
 * key on `id`, and each row keeps one stretch of a record's life (`created_at` to `deleted_at`).
 */
export function changeSetsSchema(engine: Engine): Migration {
  const ref = idType(engine);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('stores')
        .addColumn('require_approval', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      // An import whose rows become a change set's operations (`POST /v1/imports?changeSet=ID`).
      await db.schema.alterTable('imports').addColumn('change_set_id', ref).execute();

      await withIdColumn(db.schema.createTable('change_sets'), engine)
        .addColumn('store_id', ref, (c) => c.notNull().references('stores.id'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('note', 'text')
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('revision', 'integer', (c) => c.notNull())
        .addColumn('approved_revision', 'integer')
        .addColumn('operation_count', 'integer', (c) => c.notNull())
        .addColumn('created_by', 'text', (c) => c.notNull())
        .addColumn('authors', 'text', (c) => c.notNull())
        .addColumn('submitted_by', 'text')
        .addColumn('approved_by', 'text')
        .addColumn('applied_by', 'text')
        .addColumn('apply_at', 'text')
        .addColumn('applied_at', 'text')
        .addColumn('revert_of', ref)
        .addColumn('reverted_by', ref)
        .addColumn('problems', 'text', (c) => c.notNull())
        .addColumn('counts', 'text', (c) => c.notNull())
        .addColumn('effects', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('change_sets_store').on('change_sets').columns(['store_id', 'id']).execute();
      await db.schema.createIndex('change_sets_due').on('change_sets').columns(['state', 'apply_at']).execute();

      await db.schema
        .createTable('change_set_operations')
        .addColumn('change_set_id', ref, (c) => c.notNull().references('change_sets.id'))
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('body', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('change_set_operations_key', ['change_set_id', 'position'])
        .execute();

      for (const [table, owner, indexName, index] of [
        ['trade_prices_deleted', 'customer_id', 'trade_prices_deleted_customer_sku', ['store_id', 'customer_id', 'sku', 'id']],
        ['price_list_prices_deleted', 'price_list_id', 'price_list_prices_deleted_sku', ['price_list_id', 'sku', 'id']],
      ] as const) {
        if (engine.name === 'postgres') {
          await sql`alter table ${sql.table(table)} drop constraint ${sql.id(`${table}_pkey`)}`.execute(db);
        } else {
          // SQLite cannot drop a primary key: the table is made again without it.
          const columns = sql.raw(`id, store_id, ${owner}, product_id, sku, price, min_quantity, valid_from, valid_until, created_at, deleted_at`);
          await sql`alter table ${sql.table(table)} rename to ${sql.table(`${table}_old`)}`.execute(db);
          await sql`drop index ${sql.id(indexName)}`.execute(db);
          await db.schema
            .createTable(table)
            .addColumn('id', ref, (c) => c.notNull())
            .addColumn('store_id', ref, (c) => c.notNull().references('stores.id'))
            .addColumn(owner, ref, (c) => c.notNull())
            .addColumn('product_id', ref, (c) => c.notNull())
            .addColumn('sku', 'text', (c) => c.notNull())
            .addColumn('price', 'bigint', (c) => c.notNull())
            .addColumn('min_quantity', 'integer', (c) => c.notNull())
            .addColumn('valid_from', 'text')
            .addColumn('valid_until', 'text')
            .addColumn('created_at', 'text', (c) => c.notNull())
            .addColumn('deleted_at', 'text', (c) => c.notNull())
            .execute();
          await sql`insert into ${sql.table(table)} (${columns}) select ${columns} from ${sql.table(`${table}_old`)}`.execute(db);
          await sql`drop table ${sql.table(`${table}_old`)}`.execute(db);
          await db.schema
            .createIndex(indexName)
            .on(table)
            .columns([...index])
            .execute();
        }
        // A restore reads the record's last stretch by id.
        await db.schema.createIndex(`${table}_id`).on(table).columns(['id', 'deleted_at']).execute();
      }
    },
  };
}

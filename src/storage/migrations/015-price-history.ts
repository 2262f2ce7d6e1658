import type { Kysely, Migration } from 'kysely';
import type { Engine } from '../engine.js';
import { idType, withIdColumn } from './schema-helpers.js';

/**
 * The price history (docs/history.md): an append-only record of every change to what a
 * customer would pay, a hash chain per store, and the trade prices and list entries deleted
 * since, kept with the moment they went so that an `at=` in the past still sees them.
 *
 * - `price_history`: one row per change, numbered per store (`seq`, from 1, no gaps); `hash`
 *   is SHA-256 of the previous row's hash and the canonical entry (`modules/history/history-chain.ts`).
 *   `before` and `after` are the records as the API shows them (JSON text). The columns after
 *   them (customer, product, list, SKU) are what the history's filters read; they hold ids of
 *   records that may since be deleted, so they reference nothing.
 * - `price_history_heads`: each store's last `seq` and `hash`. Appending takes its row's lock,
 *   so one store's changes join its chain one transaction at a time, in commit order.
 * - `trade_prices_deleted`, `price_list_prices_deleted`: the deleted records, ids kept (ids
 *   are never reused), with `deleted_at`. Live tables and their hot indexes stay as they were.
 */
export function priceHistorySchema(engine: Engine): Migration {
  const ref = idType(engine);
  return {
    async up(db: Kysely<unknown>) {
      await withIdColumn(db.schema.createTable('price_history'), engine)
        .addColumn('store_id', ref, (c) => c.notNull().references('stores.id'))
        .addColumn('seq', 'bigint', (c) => c.notNull())
        .addColumn('at', 'text', (c) => c.notNull())
        .addColumn('resource', 'text', (c) => c.notNull())
        .addColumn('resource_id', ref, (c) => c.notNull())
        .addColumn('change', 'text', (c) => c.notNull())
        .addColumn('before', 'text')
        .addColumn('after', 'text')
        .addColumn('customer_id', ref)
        .addColumn('product_id', ref)
        .addColumn('price_list_id', ref)
        .addColumn('sku', 'text')
        .addColumn('actor_type', 'text', (c) => c.notNull())
        .addColumn('actor_id', ref, (c) => c.notNull())
        .addColumn('actor_name', 'text', (c) => c.notNull())
        .addColumn('source', 'text', (c) => c.notNull())
        .addColumn('source_id', ref)
        .addColumn('request_id', 'text')
        .addColumn('prev_hash', 'text', (c) => c.notNull())
        .addColumn('hash', 'text', (c) => c.notNull())
        .execute();
      // The chain's walk and the newest-first pages; then one per filter; then a resource's
      // entries around a moment (as-of reads of catalog prices, lists and assignments).
      await db.schema.createIndex('price_history_seq').on('price_history').columns(['store_id', 'seq']).unique().execute();
      await db.schema.createIndex('price_history_customer').on('price_history').columns(['store_id', 'customer_id', 'seq']).execute();
      await db.schema.createIndex('price_history_product').on('price_history').columns(['store_id', 'product_id', 'seq']).execute();
      await db.schema.createIndex('price_history_list').on('price_history').columns(['store_id', 'price_list_id', 'seq']).execute();
      await db.schema.createIndex('price_history_sku').on('price_history').columns(['store_id', 'sku', 'seq']).execute();
      await db.schema.createIndex('price_history_actor').on('price_history').columns(['store_id', 'actor_id', 'seq']).execute();
      await db.schema.createIndex('price_history_resource').on('price_history').columns(['store_id', 'resource', 'resource_id', 'at']).execute();

      await db.schema
        .createTable('price_history_heads')
        .addColumn('store_id', ref, (c) => c.primaryKey().references('stores.id'))
        .addColumn('seq', 'bigint', (c) => c.notNull())
        .addColumn('hash', 'text', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('trade_prices_deleted')
        .addColumn('id', ref, (c) => c.primaryKey())
        .addColumn('store_id', ref, (c) => c.notNull().references('stores.id'))
        .addColumn('customer_id', ref, (c) => c.notNull())
        .addColumn('product_id', ref, (c) => c.notNull())
        .addColumn('sku', 'text', (c) => c.notNull())
        .addColumn('price', 'bigint', (c) => c.notNull())
        .addColumn('min_quantity', 'integer', (c) => c.notNull())
        .addColumn('valid_from', 'text')
        .addColumn('valid_until', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('deleted_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('trade_prices_deleted_customer_sku').on('trade_prices_deleted').columns(['store_id', 'customer_id', 'sku', 'id']).execute();

      await db.schema
        .createTable('price_list_prices_deleted')
        .addColumn('id', ref, (c) => c.primaryKey())
        .addColumn('store_id', ref, (c) => c.notNull().references('stores.id'))
        .addColumn('price_list_id', ref, (c) => c.notNull())
        .addColumn('product_id', ref, (c) => c.notNull())
        .addColumn('sku', 'text', (c) => c.notNull())
        .addColumn('price', 'bigint', (c) => c.notNull())
        .addColumn('min_quantity', 'integer', (c) => c.notNull())
        .addColumn('valid_from', 'text')
        .addColumn('valid_until', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('deleted_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('price_list_prices_deleted_sku').on('price_list_prices_deleted').columns(['price_list_id', 'sku', 'id']).execute();
    },
  };
}

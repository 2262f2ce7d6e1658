import type { Kysely, Migration } from 'kysely';
import type { Engine } from '../engine.js';
import { idType, withIdColumn } from './schema-helpers.js';

/**
 * Orders and their lines. Customer, product and variation ids are not foreign keys: an order
 * records what was placed and outlives later deletions of them.
 */
export function ordersSchema(engine: Engine): Migration {
  const ref = idType(engine);
  return {
    async up(db: Kysely<unknown>) {
      await withIdColumn(db.schema.createTable('orders'), engine)
        .addColumn('store_id', ref, (c) => c.notNull().references('stores.id'))
        .addColumn('customer_id', ref, (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('total', 'bigint', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('orders_store').on('orders').columns(['store_id', 'id']).execute();
      await db.schema.createIndex('orders_customer').on('orders').columns(['store_id', 'customer_id', 'id']).execute();

      await db.schema
        .createTable('order_lines')
        .addColumn('store_id', ref, (c) => c.notNull().references('stores.id'))
        .addColumn('order_id', ref, (c) => c.notNull().references('orders.id'))
        .addColumn('line_no', 'integer', (c) => c.notNull())
        .addColumn('sku', 'text', (c) => c.notNull())
        .addColumn('quantity', 'integer', (c) => c.notNull())
        .addColumn('product_id', ref, (c) => c.notNull())
        .addColumn('variation_id', ref)
        .addColumn('unit_price', 'bigint', (c) => c.notNull())
        .addColumn('line_total', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('order_lines_pk', ['order_id', 'line_no'])
        .execute();
    },
  };
}

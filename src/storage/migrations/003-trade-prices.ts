import type { Kysely, Migration } from 'kysely';
import type { Engine } from '../engine.js';
import { idType, withIdColumn } from './schema-helpers.js';

/** Trade prices and idempotency keys. */
export function tradePricesSchema(engine: Engine): Migration {
  const ref = idType(engine);
  return {
    async up(db: Kysely<unknown>) {
      await withIdColumn(db.schema.createTable('trade_prices'), engine)
        .addColumn('store_id', ref, (c) => c.notNull().references('stores.id'))
        .addColumn('customer_id', ref, (c) => c.notNull().references('customers.id'))
        .addColumn('product_id', ref, (c) => c.notNull().references('products.id'))
        .addColumn('sku', 'text', (c) => c.notNull())
        .addColumn('price', 'bigint', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      // A customer's list (the interface's filter) and their effective price per SKU.
      await db.schema.createIndex('trade_prices_customer').on('trade_prices').columns(['store_id', 'customer_id', 'id']).execute();
      await db.schema.createIndex('trade_prices_customer_sku').on('trade_prices').columns(['store_id', 'customer_id', 'sku', 'id']).execute();
      await db.schema.createIndex('trade_prices_store').on('trade_prices').columns(['store_id', 'id']).execute();
      await db.schema.createIndex('trade_prices_product').on('trade_prices').columns(['product_id', 'id']).execute();
      await db.schema.createIndex('trade_prices_sku').on('trade_prices').columns(['store_id', 'sku', 'id']).execute();

      await db.schema
        .createTable('idempotency_keys')
        .addColumn('store_id', ref, (c) => c.notNull().references('stores.id'))
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('fingerprint', 'text', (c) => c.notNull())
        .addColumn('status_code', 'integer', (c) => c.notNull())
        .addColumn('response_body', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('idempotency_keys_pk', ['store_id', 'key'])
        .execute();
      await db.schema.createIndex('idempotency_keys_expiry').on('idempotency_keys').columns(['expires_at']).execute();
    },
  };
}

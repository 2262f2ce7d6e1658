import type { Kysely, Migration } from 'kysely';
import type { Engine } from '../engine.js';
import { idType, withIdColumn } from './schema-helpers.js';

/** Stores, credentials and the catalog. */
export function coreSchema(engine: Engine): Migration {
  const ref = idType(engine);
  return {
    async up(db: Kysely<unknown>) {
      await withIdColumn(db.schema.createTable('stores'), engine)
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();

      await withIdColumn(db.schema.createTable('api_keys'), engine)
        .addColumn('store_id', ref, (c) => c.notNull().references('stores.id'))
        .addColumn('key', 'text', (c) => c.notNull().unique())
        .addColumn('secret_hash', 'text', (c) => c.notNull())
        .addColumn('scopes', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('revoked_at', 'text')
        .execute();

      await withIdColumn(db.schema.createTable('customers'), engine)
        .addColumn('store_id', ref, (c) => c.notNull().references('stores.id'))
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('email_key', 'text', (c) => c.notNull())
        .addColumn('first_name', 'text')
        .addColumn('last_name', 'text')
        .addColumn('company_name', 'text')
        .addColumn('trade', 'integer', (c) => c.notNull())
        .addColumn('active', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('customers_store_email').unique().on('customers').columns(['store_id', 'email_key']).execute();
      await db.schema.createIndex('customers_store_id').on('customers').columns(['store_id', 'id']).execute();

      await withIdColumn(db.schema.createTable('categories'), engine)
        .addColumn('store_id', ref, (c) => c.notNull().references('stores.id'))
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('parent_id', ref, (c) => c.references('categories.id'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('categories_store_id').on('categories').columns(['store_id', 'id']).execute();
      await db.schema.createIndex('categories_parent').on('categories').columns(['parent_id']).execute();

      await withIdColumn(db.schema.createTable('products'), engine)
        .addColumn('store_id', ref, (c) => c.notNull().references('stores.id'))
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('sku', 'text')
        .addColumn('price', 'bigint', (c) => c.notNull())
        .addColumn('active', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('products_store_id').on('products').columns(['store_id', 'id']).execute();

      await withIdColumn(db.schema.createTable('product_variations'), engine)
        .addColumn('store_id', ref, (c) => c.notNull().references('stores.id'))
        .addColumn('product_id', ref, (c) => c.notNull().references('products.id'))
        .addColumn('sku', 'text', (c) => c.notNull())
        .addColumn('price', 'bigint')
        .addColumn('stock', 'integer')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('product_variations_product').on('product_variations').columns(['product_id', 'id']).execute();

      await db.schema
        .createTable('product_categories')
        .addColumn('store_id', ref, (c) => c.notNull().references('stores.id'))
        .addColumn('product_id', ref, (c) => c.notNull().references('products.id'))
        .addColumn('category_id', ref, (c) => c.notNull().references('categories.id'))
        .addPrimaryKeyConstraint('product_categories_pk', ['product_id', 'category_id'])
        .execute();
      await db.schema.createIndex('product_categories_category').on('product_categories').columns(['category_id']).execute();

      await db.schema
        .createTable('skus')
        .addColumn('store_id', ref, (c) => c.notNull().references('stores.id'))
        .addColumn('sku', 'text', (c) => c.notNull())
        .addColumn('product_id', ref, (c) => c.notNull().references('products.id'))
        .addColumn('variation_id', ref, (c) => c.references('product_variations.id'))
        .addPrimaryKeyConstraint('skus_pk', ['store_id', 'sku'])
        .execute();
      await db.schema.createIndex('skus_product').on('skus').columns(['product_id']).execute();
    },
  };
}

import { sql, type Kysely, type Migration } from 'kysely';
import type { Engine } from '../engine.js';
import { idType, withIdColumn } from './schema-helpers.js';

/**
 * Prices as the trade sets them (docs/pricing.md): quantity breaks and validity windows on
 * trade prices, shared price lists with entries of the same shape, customers' ordered lists,
 * and the source of each order line's price.
 *
 * Existing trade prices become "from 1 unit, always", which is what they meant. Existing order
 * lines get no source (null): how they were priced was not recorded.
 *
 * Validity bounds are canonical ISO 8601 UTC text (`modules/shared/timestamps.ts`), compared as text.
 */
export function priceRulesSchema(engine: Engine): Migration {
  const ref = idType(engine);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('trade_prices')
        .addColumn('min_quantity', 'integer', (c) => c.notNull().defaultTo(1))
        .execute();
      await db.schema.alterTable('trade_prices').addColumn('valid_from', 'text').execute();
      await db.schema.alterTable('trade_prices').addColumn('valid_until', 'text').execute();
      // A customer's page stays an index-only read with the new columns in it.
      await db.schema.dropIndex('trade_prices_customer_page').execute();
      const pageColumns = ['product_id', 'sku', 'price', 'min_quantity', 'valid_from', 'valid_until', 'created_at'];
      if (engine.indexIncludesColumns) {
        await sql`create index trade_prices_customer_page on trade_prices (store_id, customer_id, id) include (${sql.join(pageColumns.map((column) => sql.ref(column)))})`.execute(
          db,
        );
      } else {
        await db.schema
          .createIndex('trade_prices_customer_page')
          .on('trade_prices')
          .columns(['store_id', 'customer_id', 'id', ...pageColumns])
          .execute();
      }

      await withIdColumn(db.schema.createTable('price_lists'), engine)
        .addColumn('store_id', ref, (c) => c.notNull().references('stores.id'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        // Ten-thousandths of a percent (12.5 % is 125 000); null for a fixed list.
        .addColumn('percentage', 'bigint')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('price_lists_store').on('price_lists').columns(['store_id', 'id']).execute();

      await withIdColumn(db.schema.createTable('price_list_prices'), engine)
        .addColumn('store_id', ref, (c) => c.notNull().references('stores.id'))
        .addColumn('price_list_id', ref, (c) => c.notNull().references('price_lists.id'))
        .addColumn('product_id', ref, (c) => c.notNull().references('products.id'))
        .addColumn('sku', 'text', (c) => c.notNull())
        .addColumn('price', 'bigint', (c) => c.notNull())
        .addColumn('min_quantity', 'integer', (c) => c.notNull())
        .addColumn('valid_from', 'text')
        .addColumn('valid_until', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      // A list's pages; the entries of some SKUs of some lists (resolution); a product's (cascade).
      await db.schema.createIndex('price_list_prices_list').on('price_list_prices').columns(['store_id', 'price_list_id', 'id']).execute();
      await db.schema.createIndex('price_list_prices_sku').on('price_list_prices').columns(['price_list_id', 'sku', 'id']).execute();
      await db.schema.createIndex('price_list_prices_product').on('price_list_prices').columns(['product_id', 'id']).execute();

      await db.schema
        .createTable('customer_price_lists')
        .addColumn('store_id', ref, (c) => c.notNull().references('stores.id'))
        .addColumn('customer_id', ref, (c) => c.notNull().references('customers.id'))
        // From 0: the first list a customer has wins over later ones.
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('price_list_id', ref, (c) => c.notNull().references('price_lists.id'))
        .addPrimaryKeyConstraint('customer_price_lists_pk', ['customer_id', 'position'])
        .execute();
      await db.schema.createIndex('customer_price_lists_list').on('customer_price_lists').columns(['price_list_id', 'customer_id']).execute();

      await db.schema.alterTable('order_lines').addColumn('source', 'text').execute();
      await db.schema.alterTable('order_lines').addColumn('trade_price_id', ref).execute();
      await db.schema.alterTable('order_lines').addColumn('price_list_id', ref).execute();
      await db.schema.alterTable('order_lines').addColumn('price_list_price_id', ref).execute();
    },
  };
}

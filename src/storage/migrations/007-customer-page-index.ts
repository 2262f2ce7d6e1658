import { sql, type Kysely, type Migration } from 'kysely';
import type { Engine } from '../engine.js';

/**
 * A customer's page of trade prices from the index alone. The customer index held only the
 * ids, so each of a page's records was a lookup of its own in the table (a customer's records
 * lie far apart there); this one also holds the record's other columns and replaces it (it
 * serves every query the old one did, with the same leading columns).
 *
 * Building it reads every trade price once, and writes to trade prices wait meanwhile (a few
 * seconds per million records on PostgreSQL, less on SQLite).
 */
export function customerPageIndexSchema(engine: Engine): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.dropIndex('trade_prices_customer').execute();
      if (engine.indexIncludesColumns) {
        await sql`create index trade_prices_customer_page on trade_prices (store_id, customer_id, id) include (product_id, sku, price, created_at)`.execute(db);
      } else {
        await db.schema
          .createIndex('trade_prices_customer_page')
          .on('trade_prices')
          .columns(['store_id', 'customer_id', 'id', 'product_id', 'sku', 'price', 'created_at'])
          .execute();
      }
    },
  };
}

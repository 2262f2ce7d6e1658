import { sql, type Kysely, type Migration } from 'kysely';
import type { Engine } from '../engine.js';

/**
 * What a quote or an order reads of a customer's trade prices: for each SKU and quantity break,
 * the newest record valid at the moment priced. Where rows come over a socket
 * (`Engine.readsRowsInProcess` false: PostgreSQL) the database picks them, and this index
 * answers that from its entries alone, in the order the pick needs: the customer's records by
 * SKU, break and id, with the price and window beside them. It replaces the index by customer,
 * SKU and id, which served the same lookups. Where rows are read in process (SQLite) reading
 * them all is faster, and the old index stays.
 */
export function customerSkuRulesIndexSchema(engine: Engine): Migration {
  return {
    async up(db: Kysely<unknown>) {
      if (engine.readsRowsInProcess || !engine.indexIncludesColumns) return;
      await sql`create index trade_prices_customer_sku_rules on trade_prices (store_id, customer_id, sku, min_quantity, id) include (price, valid_from, valid_until)`.execute(
        db,
      );
      await db.schema.dropIndex('trade_prices_customer_sku').execute();
    },
  };
}

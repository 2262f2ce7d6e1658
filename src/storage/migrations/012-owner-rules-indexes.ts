import { sql, type Kysely, type Migration } from 'kysely';
import type { Engine } from '../engine.js';

/**
 * What every pricing read takes of a customer's trade prices and of a list's entries
 * (docs/pricing.md, "Cost"): for each SKU only the records of the product that owns the SKU now,
 * and to price at a moment the newest valid one of each quantity break. One index each answers
 * it from its entries alone, in the order the pick needs: by SKU, product, break and id (newest
 * first), with the price and window beside them.
 * - PostgreSQL: they replace migration 010's index (which lacked the product) and the list
 *   entries' index by list, SKU and id; the window function that picks the newest record
 *   (`row_number() over (… order by id desc)`) then reads them in order, without a sort.
 * - SQLite: the same columns, all in the key (SQLite has no `include`), replacing the indexes by
 *   customer (or list), SKU and id. The newest record of each break is one aggregate along it
 *   (`Engine.bareColumnsFollowMax`).
 * Lists filtered by SKU keep an index to start from; they sort that SKU's records by id.
 */
export function ownerRulesIndexesSchema(engine: Engine): Migration {
  return {
    async up(db: Kysely<unknown>) {
      if (engine.indexIncludesColumns) {
        await sql`create index trade_prices_owner_rules on trade_prices (store_id, customer_id, sku, product_id, min_quantity, id desc) include (price, valid_from, valid_until)`.execute(
          db,
        );
        await sql`create index price_list_prices_owner_rules on price_list_prices (price_list_id, sku, product_id, min_quantity, id desc) include (price, valid_from, valid_until)`.execute(
          db,
        );
        await db.schema.dropIndex('trade_prices_customer_sku_rules').ifExists().execute();
      } else {
        const ruleColumns = ['product_id', 'min_quantity', 'id', 'price', 'valid_from', 'valid_until'];
        await db.schema
          .createIndex('trade_prices_owner_rules')
          .on('trade_prices')
          .columns(['store_id', 'customer_id', 'sku', ...ruleColumns])
          .execute();
        await db.schema
          .createIndex('price_list_prices_owner_rules')
          .on('price_list_prices')
          .columns(['price_list_id', 'sku', ...ruleColumns])
          .execute();
      }
      // Migration 010 dropped it where it made its own.
      await db.schema.dropIndex('trade_prices_customer_sku').ifExists().execute();
      await db.schema.dropIndex('price_list_prices_sku').execute();
    },
  };
}

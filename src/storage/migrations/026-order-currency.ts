import { type Kysely, type Migration, sql } from 'kysely';

/**
 * An order keeps the currency it was placed in (docs/pricing.md, "Rounding"): the store's, read
 * in the order's transaction, so a store that changes its currency later leaves its orders as
 * they were. Orders placed before are given their store's currency now, the one they were
 * placed in unless the store changed it since (a change the store could make only from
 * migration 022 on).
 */
export function orderCurrencySchema(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('orders')
        .addColumn('currency', 'text', (column) => column.notNull().defaultTo('GBP'))
        .execute();
      await sql`update orders set currency = (select stores.currency from stores where stores.id = orders.store_id)`.execute(db);
    },
  };
}

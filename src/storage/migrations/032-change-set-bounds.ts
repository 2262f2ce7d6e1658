import { type Kysely, type Migration, sql } from 'kysely';
import { type ChangeSetOperation, operationPrices } from '../../contract/change-sets.js';

/** Operations read at a time while the sets of an existing database are counted. */
const COUNT_PAGE = 1000;

/**
 * What bounds a change set's work (docs/change-sets.md, "Limits"):
 *
 * - `change_sets.price_count`: the prices its operations hold (`operationPrices`), which an add
 *   checks against `MAX_PRICES_PER_SET` without reading the operations held. The sets of an
 *   existing database are counted here, from their operations.
 * - The store's trade prices and list entries by the bounds of their validity windows (only
 *   those that have one): a preview kept for "now" holds until the first bound after the moment
 *   it was worked out at, found in one step of an index however large the store.
 */
export function changeSetBoundsSchema(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('change_sets')
        .addColumn('price_count', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      const sets = await sql<{ id: number }>`select id from change_sets where operation_count > 0`.execute(db);
      for (const { id } of sets.rows) {
        let prices = 0;
        for (let position = 0; ; position += COUNT_PAGE) {
          const page = await sql<{
            body: string;
          }>`select body from change_set_operations where change_set_id = ${id} and position >= ${position} order by position limit ${COUNT_PAGE}`.execute(db);
          for (const row of page.rows) prices += operationPrices(JSON.parse(row.body) as ChangeSetOperation);
          if (page.rows.length < COUNT_PAGE) break;
        }
        await sql`update change_sets set price_count = ${prices} where id = ${id}`.execute(db);
      }
      for (const table of ['trade_prices', 'price_list_prices'] as const) {
        for (const column of ['valid_from', 'valid_until'] as const) {
          await sql`create index ${sql.id(`${table}_${column}_bounds`)} on ${sql.table(table)} (store_id, ${sql.ref(column)}) where ${sql.ref(column)} is not null`.execute(
            db,
          );
        }
      }
    },
  };
}

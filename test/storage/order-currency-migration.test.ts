import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { enginesUnderTest } from '../support/engines.js';
import { beforeMigration } from '../support/migration-database.js';

/** Upgrading with orders placed: each is given its store's currency, the one it was placed in. */
describe.each(await enginesUnderTest())('the order currency migration on %s', (engine) => {
  it('gives each order placed before it its own store’s currency', async () => {
    await beforeMigration(engine, '026', async (db, upgrade) => {
      const storeIds: number[] = [];
      for (const currency of ['JPY', 'EUR']) {
        const store = await sql<{
          id: number;
        }>`insert into stores (name, created_at, currency) values (${currency}, '2026-01-01T00:00:00.000Z', ${currency}) returning id`.execute(db);
        storeIds.push(Number(store.rows[0]!.id));
      }
      for (const storeId of storeIds) {
        const customer = await sql<{
          id: number;
        }>`insert into customers (store_id, email, email_key, trade, active, created_at) values (${storeId}, ${`c${storeId}@example.com`}, ${`c${storeId}@example.com`}, 0, 1, '2026-01-01T00:00:00.000Z') returning id`.execute(
          db,
        );
        await sql`insert into orders (store_id, customer_id, status, total, created_at) values (${storeId}, ${Number(customer.rows[0]!.id)}, 'placed', 10000, '2026-01-01T00:00:00.000Z')`.execute(
          db,
        );
      }

      await upgrade();
      const orders = await sql<{ store_id: number; currency: string }>`select store_id, currency from orders order by id`.execute(db);
      expect(orders.rows.map((row) => [Number(row.store_id), row.currency])).toEqual([
        [storeIds[0], 'JPY'],
        [storeIds[1], 'EUR'],
      ]);
    });
  });
});

import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { enginesUnderTest } from '../support/engines.js';
import { beforeMigration } from '../support/migration-database.js';

/** Upgrading with change sets: each is given the prices its operations hold, which an add counts on (docs/change-sets.md, "Limits"). */
describe.each(await enginesUnderTest())('the change set bounds migration on %s', (engine) => {
  it('counts the prices of every set made before it from its operations', async () => {
    await beforeMigration(engine, '032', async (db, upgrade) => {
      const store = await sql<{ id: number }>`insert into stores (name, created_at) values ('Shop', '2026-01-01T00:00:00.000Z') returning id`.execute(db);
      const storeId = Number(store.rows[0]!.id);
      const operations = [
        [
          {
            type: 'trade_prices.replace',
            customerId: 1,
            scope: 'customer',
            prices: [1, 2, 3].map((minQuantity) => ({ productId: 1, sku: 'A', price: 1, minQuantity })),
          },
          { type: 'trade_price.create', customerId: 1, productId: 1, sku: 'A', price: 2 },
          { type: 'trade_prices.replace', customerId: 2, scope: 'customer', prices: [] },
          { type: 'customer.set_price_lists', customerId: 1, priceListIds: [] },
        ],
        [],
        // More than a page of the migration's reads.
        Array.from({ length: 1001 }, (_, index) => ({ type: 'trade_price.delete', id: index + 1 })),
      ];
      const setIds: number[] = [];
      for (const held of operations) {
        const set = await sql<{ id: number }>`
          insert into change_sets (store_id, name, state, revision, operation_count, created_by, authors, problems, counts, created_at, updated_at)
          values (${storeId}, 'Old', 'draft', 1, ${held.length}, '{"type":"key","id":1,"name":"k"}', '[]', '[]', '{"operations":0,"created":0,"deleted":0,"updated":0}', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')
          returning id`.execute(db);
        const setId = Number(set.rows[0]!.id);
        setIds.push(setId);
        if (held.length === 0) continue;
        const rows = held.map((operation, position) => sql`(${setId}, ${position}, ${JSON.stringify(operation)})`);
        await sql`insert into change_set_operations (change_set_id, position, body) values ${sql.join(rows)}`.execute(db);
      }

      await upgrade();
      const counted = await sql<{ id: number; price_count: number }>`select id, price_count from change_sets order by id`.execute(db);
      // A replace counts its prices (at least 1), every other operation 1.
      expect(counted.rows.map((row) => [Number(row.id), Number(row.price_count)])).toEqual([
        [setIds[0], 3 + 1 + 1 + 1],
        [setIds[1], 0],
        [setIds[2], 1001],
      ]);
    });
  });
});

import type { TestServer } from './test-server.js';

/**
 * `count` trade customers of the store, written straight to the database in chunks (a matrix
 * of thousands of customers needs them; the API would take minutes). Their e-mail addresses are
 * `<prefix>-<n>@example.com`; the ids come back in that order.
 */
export async function insertTradeCustomers(server: TestServer, storeId: number, count: number, prefix: string): Promise<number[]> {
  const { db } = server.services.database;
  const createdAt = new Date().toISOString();
  const ids: number[] = [];
  for (let start = 0; start < count; start += 1000) {
    const rows = Array.from({ length: Math.min(1000, count - start) }, (_, offset) => {
      const email = `${prefix}-${start + offset}@example.com`;
      return { store_id: storeId, email, email_key: email, first_name: null, last_name: null, company_name: null, trade: 1, active: 1, created_at: createdAt };
    });
    ids.push(...(await db.insertInto('customers').values(rows).returning('id').execute()).map((row) => Number(row.id)));
  }
  return ids;
}

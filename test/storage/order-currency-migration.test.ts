import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, PostgresDialect, sql, SqliteDialect } from 'kysely';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { POSTGRES, SQLITE } from '../../src/storage/engine.js';
import { MIGRATIONS, migrateToLatest } from '../../src/storage/migrations/index.js';
import { createPostgresDatabase, enginesUnderTest } from '../support/engines.js';

/** Upgrading with orders placed: each is given its store's currency, the one it was placed in. */
describe.each(await enginesUnderTest())('the order currency migration on %s', (engine) => {
  it('gives each order placed before it its own store’s currency', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pricebook-migration-'));
    const postgres = engine === 'postgres' ? await createPostgresDatabase() : undefined;
    const pool = postgres === undefined ? undefined : new pg.Pool({ connectionString: postgres.url, max: 1 });
    pool?.on('error', () => undefined);
    const db =
      pool === undefined
        ? new Kysely<unknown>({ dialect: new SqliteDialect({ database: new SqliteDatabase(path.join(dir, 'db.sqlite')) }) })
        : new Kysely<unknown>({ dialect: new PostgresDialect({ pool }) });
    const flags = engine === 'sqlite' ? SQLITE : POSTGRES;
    try {
      await migrateToLatest(db, flags, MIGRATIONS.filter(([name]) => name < '026'));
      const storeIds: number[] = [];
      for (const currency of ['JPY', 'EUR']) {
        const store = await sql<{ id: number }>`insert into stores (name, created_at, currency) values (${currency}, '2026-01-01T00:00:00.000Z', ${currency}) returning id`.execute(db);
        storeIds.push(Number(store.rows[0]!.id));
      }
      for (const storeId of storeIds) {
        const customer = await sql<{ id: number }>`insert into customers (store_id, email, email_key, trade, active, created_at) values (${storeId}, ${`c${storeId}@example.com`}, ${`c${storeId}@example.com`}, 0, 1, '2026-01-01T00:00:00.000Z') returning id`.execute(db);
        await sql`insert into orders (store_id, customer_id, status, total, created_at) values (${storeId}, ${Number(customer.rows[0]!.id)}, 'placed', 10000, '2026-01-01T00:00:00.000Z')`.execute(db);
      }

      await migrateToLatest(db, flags);
      const orders = await sql<{ store_id: number; currency: string }>`select store_id, currency from orders order by id`.execute(db);
      expect(orders.rows.map((row) => [Number(row.store_id), row.currency])).toEqual([[storeIds[0], 'JPY'], [storeIds[1], 'EUR']]);
    } finally {
      await db.destroy();
      await postgres?.drop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

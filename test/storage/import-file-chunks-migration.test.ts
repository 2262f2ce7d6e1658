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

/**
 * Upgrading with imports still queued: their files, kept whole as text before import files went
 * into slices, move into `import_file_chunks` (one slice each, the same bytes) and
 * `import_files` goes.
 */
describe.each(await enginesUnderTest())('the import files migration on %s', (engine) => {
  it('moves a queued import’s file, byte for byte, into a slice, and drops the old table', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pricebook-migration-'));
    const postgres = engine === 'postgres' ? await createPostgresDatabase() : undefined;
    const db =
      postgres === undefined
        ? new Kysely<unknown>({ dialect: new SqliteDialect({ database: new SqliteDatabase(path.join(dir, 'db.sqlite')) }) })
        : new Kysely<unknown>({ dialect: new PostgresDialect({ pool: quietPool(postgres.url) }) });
    const flags = engine === 'sqlite' ? SQLITE : POSTGRES;
    try {
      await migrateToLatest(db, flags, MIGRATIONS.filter(([name]) => name < '013'));
      const csv = 'customer_id,sku,price\n1,TÉE-€,6.5\n';
      const store = await sql<{ id: number }>`insert into stores (name, created_at) values ('Old', '2026-01-01T00:00:00.000Z') returning id`.execute(db);
      const storeId = Number(store.rows[0]!.id);
      const queued = await sql<{ id: number }>`insert into imports (store_id, status, mode, dry_run, rows, created_at) values (${storeId}, 'queued', 'add', 0, 1, '2026-01-01T00:00:00.000Z') returning id`.execute(db);
      const importId = Number(queued.rows[0]!.id);
      await sql`insert into import_files (import_id, store_id, csv) values (${importId}, ${storeId}, ${csv})`.execute(db);

      await migrateToLatest(db, flags);
      const slices = await sql<{ seq: number; data: Buffer }>`select seq, data from import_file_chunks where import_id = ${importId}`.execute(db);
      expect(slices.rows.map((row) => [Number(row.seq), Buffer.from(row.data).toString('utf8')])).toEqual([[0, csv]]);
      const moved = await sql<{ file_bytes: number; cleanup: number; status: string }>`select file_bytes, cleanup, status from imports where id = ${importId}`.execute(db);
      expect(moved.rows.map((row) => [Number(row.file_bytes), Number(row.cleanup), row.status])).toEqual([[Buffer.byteLength(csv), 0, 'queued']]);
      await expect(sql`select * from import_files`.execute(db)).rejects.toThrow();
    } finally {
      await db.destroy();
      await postgres?.drop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

/**
 * A pool of one whose connection may be cut by the database's drop at the end (`with (force)`)
 * while it is still closing: the server's "terminating connection" then reaches a client the
 * pool has let go, which must not throw it as an uncaught error.
 */
function quietPool(url: string): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  pool.on('error', () => undefined);
  pool.on('connect', (client) => client.on('error', () => undefined));
  return pool;
}

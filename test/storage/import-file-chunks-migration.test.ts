import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { enginesUnderTest } from '../support/engines.js';
import { beforeMigration } from '../support/migration-database.js';

/**
 * Upgrading with imports still queued: their files, kept whole as text before import files went
 * into slices, move into `import_file_chunks` (one slice each, the same bytes) and
 * `import_files` goes.
 */
describe.each(await enginesUnderTest())('the import files migration on %s', (engine) => {
  it('moves a queued import’s file, byte for byte, into a slice, and drops the old table', async () => {
    await beforeMigration(engine, '013', async (db, upgrade) => {
      const csv = 'customer_id,sku,price\n1,TÉE-€,6.5\n';
      const store = await sql<{ id: number }>`insert into stores (name, created_at) values ('Old', '2026-01-01T00:00:00.000Z') returning id`.execute(db);
      const storeId = Number(store.rows[0]!.id);
      const queued = await sql<{
        id: number;
      }>`insert into imports (store_id, status, mode, dry_run, rows, created_at) values (${storeId}, 'queued', 'add', 0, 1, '2026-01-01T00:00:00.000Z') returning id`.execute(
        db,
      );
      const importId = Number(queued.rows[0]!.id);
      await sql`insert into import_files (import_id, store_id, csv) values (${importId}, ${storeId}, ${csv})`.execute(db);

      await upgrade();
      const slices = await sql<{ seq: number; data: Buffer }>`select seq, data from import_file_chunks where import_id = ${importId}`.execute(db);
      expect(slices.rows.map((row) => [Number(row.seq), Buffer.from(row.data).toString('utf8')])).toEqual([[0, csv]]);
      const moved = await sql<{
        file_bytes: number;
        cleanup: number;
        status: string;
      }>`select file_bytes, cleanup, status from imports where id = ${importId}`.execute(db);
      expect(moved.rows.map((row) => [Number(row.file_bytes), Number(row.cleanup), row.status])).toEqual([[Buffer.byteLength(csv), 0, 'queued']]);
      await expect(sql`select * from import_files`.execute(db)).rejects.toThrow();
    });
  });
});

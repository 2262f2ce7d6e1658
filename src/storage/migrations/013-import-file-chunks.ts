import { sql, type Kysely, type Migration } from 'kysely';
import type { Engine } from '../engine.js';
import { idType } from './schema-helpers.js';

/** Legacy files moved per statement: one at a time, so the migration holds one file in memory. */
interface LegacyFile {
  import_id: number;
  store_id: number;
  csv: string;
}

/**
 * Import files in slices (docs/imports.md, "How it runs"): an upload is written as it arrives,
 * one row of `import_file_chunks` a slice of 256 KiB, and read back the same way, so no
 * process ever holds a whole file. `imports` gains what the queue needs:
 * - `file_bytes`, the size of the file (the per-store cap on queued bytes adds them up);
 * - `claimed_at`, when a process last took the import (claims go round-robin over stores);
 * - `cleanup`, 1 while the slices or staged rows of an ended (or refused) import are still to
 *   be deleted, in batches.
 * Staged prices are indexed by customer and SKU (a replace walks them so, in windows).
 * Files of imports still queued move over as one slice each; `import_files` goes.
 */
export function importFileChunksSchema(engine: Engine): Migration {
  const ref = idType(engine);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('import_file_chunks')
        .addColumn('import_id', ref, (c) => c.notNull().references('imports.id'))
        .addColumn('store_id', ref, (c) => c.notNull().references('stores.id'))
        .addColumn('seq', 'integer', (c) => c.notNull())
        .addColumn('data', engine.binaryColumnType, (c) => c.notNull())
        .addPrimaryKeyConstraint('import_file_chunks_pk', ['import_id', 'seq'])
        .execute();
      await db.schema
        .alterTable('imports')
        .addColumn('file_bytes', 'bigint', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.alterTable('imports').addColumn('claimed_at', 'bigint').execute();
      await db.schema
        .alterTable('imports')
        .addColumn('cleanup', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.createIndex('imports_store_status').on('imports').columns(['store_id', 'status']).execute();
      await db.schema.createIndex('imports_store_claimed').on('imports').columns(['store_id', 'claimed_at']).execute();
      await db.schema.createIndex('imports_finished').on('imports').columns(['finished_at']).execute();
      // A replace walks each customer's staged prices by SKU, beside its records by SKU.
      await db.schema.dropIndex('import_rows_customer').execute();
      await db.schema.createIndex('import_rows_customer_sku').on('import_rows').columns(['import_id', 'customer_id', 'sku', 'position']).execute();
      await db.schema.createIndex('imports_cleanup').on('imports').columns(['finished_at']).where(sql.ref('cleanup'), '=', 1).execute();

      const legacy = db as unknown as Kysely<{
        import_files: LegacyFile;
        import_file_chunks: { import_id: number; store_id: number; seq: number; data: Buffer };
        imports: { id: number; file_bytes: number };
      }>;
      for (let after = 0; ;) {
        const file = await legacy.selectFrom('import_files').selectAll().where('import_id', '>', after).orderBy('import_id').limit(1).executeTakeFirst();
        if (file === undefined) break;
        const data = Buffer.from(file.csv, 'utf8');
        await legacy.insertInto('import_file_chunks').values({ import_id: file.import_id, store_id: file.store_id, seq: 0, data }).execute();
        await legacy.updateTable('imports').set({ file_bytes: data.length }).where('id', '=', file.import_id).execute();
        after = Number(file.import_id);
      }
      await db.schema.dropTable('import_files').execute();
    },
  };
}

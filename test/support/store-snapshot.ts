import { sql } from 'kysely';
import type { Database } from '../../src/storage/database.js';

/** Every row of one store: table name → its rows as sorted JSON lines. */
export type StoreSnapshot = Record<string, string[]>;

/**
 * Reads every row that belongs to `storeId` straight from the database: the store itself and
 * each table with a `store_id` column, found in the schema (so tables added later are
 * watched too).
 */
export async function snapshotStore(database: Database, storeId: number): Promise<StoreSnapshot> {
  const { db } = database;
  const tables =
    database.engine.name === 'sqlite'
      ? await sql<{
          name: string;
        }>`select m.name as name from sqlite_master m join pragma_table_info(m.name) c where m.type = 'table' and c.name = 'store_id' order by m.name`.execute(
          db,
        )
      : await sql<{
          name: string;
        }>`select table_name as name from information_schema.columns where table_schema = current_schema() and column_name = 'store_id' order by table_name`.execute(
          db,
        );
  const snapshot: StoreSnapshot = {};
  const lines = (rows: readonly unknown[]) => rows.map((row) => JSON.stringify(row)).sort();
  snapshot.stores = lines((await sql`select * from stores where id = ${storeId}`.execute(db)).rows);
  for (const { name } of tables.rows) {
    snapshot[name] = lines((await sql`select * from ${sql.table(name)} where store_id = ${storeId}`.execute(db)).rows);
  }
  return snapshot;
}

/** Rows in a snapshot. */
export function rowsIn(snapshot: StoreSnapshot): number {
  return Object.values(snapshot).reduce((sum, rows) => sum + rows.length, 0);
}

/**
 * A snapshot without what imports write of their own (every `import…` table) and the events:
 * what an import that fails must leave as it was. An earlier import's file slices and staged
 * rows may be cleared meanwhile, once it has ended, so those tables are not compared.
 */
export function beyondImports(snapshot: StoreSnapshot): StoreSnapshot {
  return Object.fromEntries(Object.entries(snapshot).filter(([name]) => !name.startsWith('import') && name !== 'events'));
}

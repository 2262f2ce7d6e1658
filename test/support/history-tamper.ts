import path from 'node:path';
import Sqlite from 'better-sqlite3';
import pg from 'pg';
import { SQLITE_FILE_NAME } from '../../src/storage/database.js';

/** A history key for tests (32 characters or more, as the setting needs). */
export const HISTORY_KEY = 'k'.repeat(16) + '0123456789abcdef0123';

/** Runs SQL against the test server's database directly, as someone with `sqlite3` or `psql` would. */
export interface Tamperer {
  run(sql: string, values?: unknown[]): Promise<void>;
  close(): Promise<void>;
}

export async function tampererOf(engine: string, dataDir: string, databaseUrl: string | undefined): Promise<Tamperer> {
  if (engine === 'postgres') {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    return {
      run: async (sql, values = []) => {
        let index = 0;
        await client.query(
          sql.replace(/\?/g, () => `$${++index}`),
          values,
        );
      },
      close: () => client.end(),
    };
  }
  const db = new Sqlite(path.join(dataDir, SQLITE_FILE_NAME));
  db.pragma('busy_timeout = 5000');
  return {
    run: (sql, values = []) => {
      db.prepare(sql).run(...values);
      return Promise.resolve();
    },
    close: () => {
      db.close();
      return Promise.resolve();
    },
  };
}

import fs from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, PostgresDialect, type KyselyConfig } from 'kysely';
import pg from 'pg';
import { POSTGRES, SQLITE, type Engine } from './engine.js';
import { migrateToLatest } from './migrations/index.js';
import { QueuedSqliteDialect } from './sqlite-dialect.js';
import type { Tables } from './tables.js';

export interface Database {
  readonly db: Kysely<Tables>;
  readonly engine: Engine;
  /** A short description for logs: never the password. */
  readonly description: string;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** `postgres://…`; unset selects SQLite. */
  databaseUrl: string | undefined;
  /** Where the SQLite file lives. */
  dataDir: string;
  /** PostgreSQL pool size. */
  poolSize?: number;
  /** Called with the SQL of every statement run (instrumentation and tests). */
  onQuery?: (sql: string) => void;
}

export const SQLITE_FILE_NAME = 'pricebook.sqlite';

/** Opens the configured engine and applies every pending migration. */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  const log: KyselyConfig['log'] = options.onQuery && ((event) => options.onQuery?.(event.query.sql));
  const database = options.databaseUrl === undefined ? openSqlite(options.dataDir, log) : openPostgres(options.databaseUrl, options.poolSize ?? 10, log);
  try {
    // Migrations see the schema as it was when they were written, not as `Tables` says now.
    await migrateToLatest(database.db as unknown as Kysely<unknown>, database.engine);
  } catch (error) {
    await database.close();
    throw error;
  }
  return database;
}

function openSqlite(dataDir: string, log: KyselyConfig['log']): Database {
  fs.mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, SQLITE_FILE_NAME);
  const connection = new SqliteDatabase(file);
  // WAL with synchronous=FULL: a committed (acknowledged) write is on disk before the answer.
  connection.pragma('journal_mode = WAL');
  connection.pragma('synchronous = FULL');
  connection.pragma('foreign_keys = ON');
  connection.pragma('busy_timeout = 5000');
  const db = new Kysely<Tables>({ dialect: new QueuedSqliteDialect(connection), log });
  return {
    db,
    engine: SQLITE,
    description: `sqlite ${file}`,
    close: () => db.destroy(),
  };
}

/** int8 (ids, prices in ten-thousandths, counts) as JS numbers: every such value is below 2^53. */
const pgTypes = {
  getTypeParser: ((oid: number, format?: string) =>
    oid === pg.types.builtins.INT8 ? Number : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
};

function openPostgres(databaseUrl: string, poolSize: number, log: KyselyConfig['log']): Database {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: poolSize, types: pgTypes });
  // An idle client that loses its server must not crash the process; the next query reports it.
  pool.on('error', () => undefined);
  const db = new Kysely<Tables>({ dialect: new PostgresDialect({ pool }), log });
  const url = new URL(databaseUrl);
  return {
    db,
    engine: POSTGRES,
    description: `postgres ${url.hostname}:${url.port || '5432'}${url.pathname}`,
    close: () => db.destroy(),
  };
}

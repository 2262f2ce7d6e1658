import fs from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, PostgresDialect, type KyselyConfig } from 'kysely';
import pg from 'pg';
import type { ConnectionUse } from './connection-use.js';
import { POSTGRES, SQLITE, type Engine } from './engine.js';
import { migrateToLatest } from './migrations/index.js';
import { NamedStatementPool } from './named-statement-pool.js';
import type { StatementRegistry } from './prepared-query.js';
import { SqliteCheckpointer } from './sqlite-checkpointer.js';
import { SqliteLogSync } from './sqlite-log-sync.js';
import { QueuedSqliteDialect } from './sqlite-dialect.js';
import type { Tables } from './tables.js';

export interface Database {
  readonly db: Kysely<Tables>;
  readonly engine: Engine;
  /**
   * Takes the SQL of the prepared queries (a fixed set): PostgreSQL keeps each as a named
   * statement on every connection. SQLite needs nothing more: its driver keeps recently used
   * statements prepared, whatever their text.
   */
  readonly statements: StatementRegistry;
  /** A short description for logs: never the password. */
  readonly description: string;
  /** How busy the connections are now (metrics). */
  connectionUse(): ConnectionUse;
  /**
   * SQLite: its commits do not sync the log (`synchronous = NORMAL`); a transaction of the unit
   * of work waits on this after its commit, which resolves once every commit before the call is
   * on disk, synced off the event loop (sqlite-log-sync.ts). A transaction asked not to wait
   * (`unsynced`) skips it. PostgreSQL: absent, its commit waits for the disk on the server.
   */
  readonly durableCommits?: () => Promise<void>;
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
  // Owner-only, like the TLS key: the database holds every store's prices and credentials'
  // hashes. SQLite gives its -wal and -shm files the database file's permissions.
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = path.join(dataDir, SQLITE_FILE_NAME);
  fs.closeSync(fs.openSync(file, 'a', 0o600));
  fs.chmodSync(file, 0o600);
  const connection = new SqliteDatabase(file);
  // WAL. A commit writes its frames to the log without syncing it (synchronous=NORMAL); every
  // commit then waits, off the event loop, for the log to be synced (sqlite-log-sync.ts) before
  // it answers: a committed (acknowledged) write is on disk before the answer.
  connection.pragma('journal_mode = WAL');
  connection.pragma('synchronous = NORMAL');
  connection.pragma('foreign_keys = ON');
  connection.pragma('busy_timeout = 5000');
  // Checkpoints run in a worker thread, not inside a commit on the event loop (sqlite-checkpointer.ts).
  connection.pragma('wal_autocheckpoint = 0');
  const checkpointer = new SqliteCheckpointer(file);
  const logSync = new SqliteLogSync(`${file}-wal`);
  const durable = () => logSync.sync();
  // Reads outside transactions use a read-only connection of their own (see QueuedSqliteDialect).
  const reader = () => {
    const readOnly = new SqliteDatabase(file, { readonly: true });
    readOnly.pragma('busy_timeout = 5000');
    return readOnly;
  };
  const dialect = new QueuedSqliteDialect(connection, reader, durable);
  const db = new Kysely<Tables>({ dialect, log });
  return {
    db,
    engine: SQLITE,
    statements: { register: () => undefined },
    description: `sqlite ${file}`,
    connectionUse: () => dialect.writerUse(),
    durableCommits: durable,
    close: async () => {
      await logSync.close();
      await checkpointer.stop();
      await db.destroy();
    },
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
  // The same for a client the pool has let go that is still closing (the pool's listener is
  // gone by then): an error of a query always reaches that query, never these listeners.
  pool.on('error', () => undefined);
  pool.on('connect', (client) => client.on('error', () => undefined));
  const statements = new NamedStatementPool(pool);
  const db = new Kysely<Tables>({ dialect: new PostgresDialect({ pool: statements }), log });
  const url = new URL(databaseUrl);
  return {
    db,
    engine: POSTGRES,
    statements,
    description: `postgres ${url.hostname}:${url.port || '5432'}${url.pathname}`,
    connectionUse: () => ({ max: poolSize, inUse: pool.totalCount - pool.idleCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    close: () => db.destroy(),
  };
}

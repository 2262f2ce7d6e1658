import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { type Engine, POSTGRES, SQLITE } from '../../src/storage/engine.js';
import { loadMigrations, migrateToLatest } from '../../src/storage/migrations/index.js';
import { createPostgresDatabase, type EngineName } from './engines.js';

/**
 * A migration's test: a database of its own on `engine` (a SQLite file in a folder of its own,
 * or a PostgreSQL database made for it), migrated up to the migrations named before `before`
 * (`'026'`: up to 025), given to `work` with `upgrade`, which applies the rest; dropped afterwards.
 */
export async function beforeMigration(
  engine: EngineName,
  before: string,
  work: (db: Kysely<unknown>, upgrade: () => Promise<void>) => Promise<void>,
): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pricebook-migration-'));
  const postgres = engine === 'postgres' ? await createPostgresDatabase({ empty: true }) : undefined;
  const db =
    postgres === undefined
      ? new Kysely<unknown>({ dialect: new SqliteDialect({ database: new SqliteDatabase(path.join(dir, 'db.sqlite')) }) })
      : new Kysely<unknown>({ dialect: new PostgresDialect({ pool: quietPool(postgres.url) }) });
  const flags: Engine = engine === 'sqlite' ? SQLITE : POSTGRES;
  try {
    await migrateToLatest(
      db,
      flags,
      (await loadMigrations()).filter(([name]) => name < before),
    );
    await work(db, () => migrateToLatest(db, flags));
  } finally {
    await db.destroy();
    await postgres?.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

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

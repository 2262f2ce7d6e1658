import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import pg from 'pg';
import { openDatabase, SQLITE_FILE_NAME } from '../../src/storage/database.js';
import { POSTGRES_ADMIN_URL, postgresAvailable, SQLITE_TEMPLATE_VARIABLE, POSTGRES_TEMPLATE_VARIABLE } from './engines.js';

/**
 * Global setup of a test run: one database of each engine migrated to the latest schema, which
 * every test server's fresh database then starts as a copy of (a file copy on SQLite,
 * `create database … template` on PostgreSQL), instead of applying every migration again. A
 * fresh migration costs about 1.5 s of waiting on each engine; a run starts some hundreds of
 * servers. The copies are the databases the servers would have made themselves: the migration
 * suites, and the CLI's first start on an empty data dir, still migrate from nothing.
 *
 * Each run (each vitest process) makes its own pair, named after it, and drops them at its end.
 */
let made: Promise<() => Promise<void>> | undefined;

export default async function setup(): Promise<() => Promise<void>> {
  made ??= makeTemplates();
  return await made;
}

async function makeTemplates(): Promise<() => Promise<void>> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pricebook-template-'));
  const sqlite = await openDatabase({ databaseUrl: undefined, dataDir: dir });
  await sqlite.close();
  // Whatever the WAL still holds goes into the file, so that the file alone is the database.
  const file = new SqliteDatabase(path.join(dir, SQLITE_FILE_NAME));
  file.pragma('wal_checkpoint(TRUNCATE)');
  file.close();
  process.env[SQLITE_TEMPLATE_VARIABLE] = path.join(dir, SQLITE_FILE_NAME);

  let dropPostgres = async () => undefined;
  if (process.env.PRICEBOOK_TEST_ENGINES !== 'sqlite' && (await postgresAvailable())) {
    const name = `pricebook_template_${process.pid}_${randomBytes(4).toString('hex')}`;
    await withAdmin((admin) => admin.query(`create database ${name}`));
    const url = new URL(POSTGRES_ADMIN_URL);
    url.pathname = `/${name}`;
    const postgres = await openDatabase({ databaseUrl: url.toString(), dataDir: dir, poolSize: 1 });
    await postgres.close();
    process.env[POSTGRES_TEMPLATE_VARIABLE] = name;
    dropPostgres = async () => {
      await withAdmin((admin) => admin.query(`drop database if exists ${name} with (force)`));
    };
  }
  let dropped = false;
  // Each project of the run gets this teardown; the first call does the work.
  return async () => {
    if (dropped) return;
    dropped = true;
    Reflect.deleteProperty(process.env, SQLITE_TEMPLATE_VARIABLE);
    Reflect.deleteProperty(process.env, POSTGRES_TEMPLATE_VARIABLE);
    await dropPostgres();
    fs.rmSync(dir, { recursive: true, force: true });
  };
}

async function withAdmin(work: (admin: pg.Client) => Promise<unknown>): Promise<void> {
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await admin.connect();
  try {
    await work(admin);
  } finally {
    await admin.end();
  }
}

import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import { SQLITE_FILE_NAME } from '../../src/storage/database.js';

/**
 * The engines every storage and HTTP suite runs on. PostgreSQL is used when its server
 * answers (`PRICEBOOK_TEST_POSTGRES_URL`, default the local one); without it the PostgreSQL
 * runs are skipped with a notice, except under CI=true, where a missing server is a failure.
 */
export type EngineName = 'sqlite' | 'postgres';

export const POSTGRES_ADMIN_URL = process.env.PRICEBOOK_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REQUIRED = process.env.CI === 'true';

let available: Promise<boolean> | undefined;

export function postgresAvailable(): Promise<boolean> {
  available ??= (async () => {
    const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL, connectionTimeoutMillis: 3000 });
    try {
      await client.connect();
      await client.query('select 1');
      return true;
    } catch (error) {
      if (REQUIRED) throw new Error(`CI=true but PostgreSQL is not reachable at ${redact(POSTGRES_ADMIN_URL)}: ${String(error)}`);
      process.stderr.write(`\n*** PostgreSQL not reachable at ${redact(POSTGRES_ADMIN_URL)}: PostgreSQL suites are SKIPPED ***\n\n`);
      return false;
    } finally {
      await client.end().catch(() => undefined);
    }
  })();
  return available;
}

/**
 * `PRICEBOOK_TEST_ENGINES=sqlite` (what `npm run test:quick` sets) runs the SQLite half only,
 * without asking for PostgreSQL.
 */
const SQLITE_ONLY = process.env.PRICEBOOK_TEST_ENGINES === 'sqlite';

export async function enginesUnderTest(): Promise<EngineName[]> {
  if (SQLITE_ONLY) return ['sqlite'];
  return (await postgresAvailable()) ? ['sqlite', 'postgres'] : ['sqlite'];
}

/**
 * The engine of the suites that test the HTTP protocol and the process, not storage:
 * connections, slow clients, the request log, the SSRF guard, receivers' time limits, the
 * client's pacing, the admin page's files, what `pricebook prices` (an HTTPS client of the API)
 * says about files and answers. What they check happens before or beside the database, the
 * same on both engines, so they run once. (`pricebook prices`'s import, diff and export round
 * trips run on both, as do the HTTP suites of the answers it reads.)
 */
export const PROTOCOL_ENGINES: readonly EngineName[] = ['sqlite'];

/** Where the run's migrated databases are named (test/support/template-databases.ts sets them). */
export const SQLITE_TEMPLATE_VARIABLE = 'PRICEBOOK_TEST_SQLITE_TEMPLATE';
export const POSTGRES_TEMPLATE_VARIABLE = 'PRICEBOOK_TEST_POSTGRES_TEMPLATE';

/**
 * A database of its own for one test file, dropped by the returned function: a copy of the
 * run's migrated one when the run made one, unless `empty` asks for a database with no tables.
 */
export async function createPostgresDatabase(options: { empty?: boolean } = {}): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `pricebook_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const template = options.empty === true ? undefined : process.env[POSTGRES_TEMPLATE_VARIABLE];
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(template === undefined ? `create database ${name}` : `create database ${name} template ${template}`);
  } finally {
    await admin.end();
  }
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
      await client.connect();
      try {
        await client.query(`drop database if exists ${name} with (force)`);
      } finally {
        await client.end();
      }
    },
  };
}

/**
 * A fresh SQLite data dir: a copy of the run's migrated database when the run made one (what
 * the server would have made on an empty dir), else empty.
 */
export function freshDataDir(prefix = 'pricebook-test-'): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const template = process.env[SQLITE_TEMPLATE_VARIABLE];
  if (template !== undefined) fs.copyFileSync(template, path.join(dir, SQLITE_FILE_NAME));
  return dir;
}

export const REDIS_TEST_URL = process.env.PRICEBOOK_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

let redisAnswers: Promise<boolean> | undefined;

/** Whether the shared test Redis answers; as with PostgreSQL, required under CI=true, else skipped with a notice. */
export function redisAvailable(): Promise<boolean> {
  redisAnswers ??= (async () => {
    const client = new Redis(REDIS_TEST_URL, { lazyConnect: true, connectTimeout: 3000, maxRetriesPerRequest: 0, retryStrategy: () => null });
    client.on('error', () => undefined);
    try {
      await client.connect();
      await client.ping();
      return true;
    } catch (error) {
      if (REQUIRED) throw new Error(`CI=true but Redis is not reachable at ${redact(REDIS_TEST_URL)}: ${String(error)}`);
      process.stderr.write(`\n*** Redis not reachable at ${redact(REDIS_TEST_URL)}: Redis suites are SKIPPED ***\n\n`);
      return false;
    } finally {
      client.disconnect();
    }
  })();
  return redisAnswers;
}

/** A key prefix of its own for one test run, and a function that deletes every key under it. */
export function createRedisPrefix(): { prefix: string; clear: () => Promise<void> } {
  const prefix = `pricebook-test-${process.pid}-${randomBytes(4).toString('hex')}:`;
  return {
    prefix,
    clear: async () => {
      const client = new Redis(REDIS_TEST_URL, { maxRetriesPerRequest: 1 });
      try {
        // SCAN, not KEYS: the shared server is not blocked. Bounded by the keys a test makes.
        for await (const keys of client.scanStream({ match: `${prefix}*`, count: 1000 }) as AsyncIterable<string[]>) {
          if (keys.length > 0) await client.del(...keys);
        }
      } finally {
        client.disconnect();
      }
    },
  };
}

function redact(url: string): string {
  const parsed = new URL(url);
  parsed.password = '';
  return parsed.toString();
}

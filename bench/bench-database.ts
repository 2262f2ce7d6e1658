import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { type Database, openDatabase } from '../src/storage/database.js';

/**
 * A fresh database for one bench run: a new SQLite data dir, or a new database on the
 * PostgreSQL server of `adminUrl` (created here, dropped by `drop`).
 */
export interface BenchDatabase {
  engine: 'sqlite' | 'postgres';
  dataDir: string;
  /** The server's DATABASE_URL, for PostgreSQL. */
  databaseUrl: string | undefined;
  /** Opens it with the project's own openDatabase, so migrations make the same indexes. */
  open(): Promise<Database>;
  drop(): Promise<void>;
}

export async function createBenchDatabase(adminUrl: string | undefined, label: string): Promise<BenchDatabase> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `pricebook-bench-${label}-`));
  if (adminUrl === undefined) {
    return {
      engine: 'sqlite',
      dataDir,
      databaseUrl: undefined,
      open: () => openDatabase({ databaseUrl: undefined, dataDir }),
      drop: async () => fs.rmSync(dataDir, { recursive: true, force: true }),
    };
  }
  const name = `pricebook_bench_${label}_${process.pid}_${randomBytes(3).toString('hex')}`;
  await withAdmin(adminUrl, (admin) => admin.query(`create database ${name}`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const databaseUrl = url.toString();
  return {
    engine: 'postgres',
    dataDir,
    databaseUrl,
    open: () => openDatabase({ databaseUrl, dataDir }),
    drop: async () => {
      fs.rmSync(dataDir, { recursive: true, force: true });
      await withAdmin(adminUrl, (admin) => admin.query(`drop database if exists ${name} with (force)`));
    },
  };
}

async function withAdmin(adminUrl: string, work: (client: pg.Client) => Promise<unknown>): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 5000 });
  await admin.connect();
  try {
    await work(admin);
  } finally {
    await admin.end();
  }
}

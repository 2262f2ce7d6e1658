import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../src/storage/database.js';
import { QueuedSqliteDialect } from '../../src/storage/sqlite-dialect.js';

describe('the SQLite driver (one connection, reused statements)', () => {
  let dataDir: string;
  let database: Database;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pricebook-sqlite-driver-'));
    database = await openDatabase({ databaseUrl: undefined, dataDir });
    await sql`create table counters (name text primary key, value integer not null)`.execute(database.db);
    await sql`insert into counters (name, value) values ('hits', 0)`.execute(database.db);
  });
  afterAll(async () => {
    await database.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('hands the connection to concurrent transactions one at a time, in the order they asked', async () => {
    const entered: number[] = [];
    await Promise.all(
      Array.from({ length: 60 }, (_, index) =>
        database.db.transaction().execute(async (trx) => {
          entered.push(index);
          const { rows } = await sql<{ value: number }>`select value from counters where name = 'hits'`.execute(trx);
          // A wait inside the transaction: no other may read the counter meanwhile.
          await new Promise((resolve) => setTimeout(resolve, 1));
          await sql`update counters set value = ${rows[0]!.value + 1} where name = 'hits'`.execute(trx);
        }),
      ),
    );
    expect(entered).toEqual(Array.from({ length: 60 }, (_, index) => index));
    const { rows } = await sql<{ value: number }>`select value from counters where name = 'hits'`.execute(database.db);
    expect(rows[0]!.value).toBe(60);
  });

  it('answers correctly with more distinct statements than it keeps prepared, twice over', async () => {
    for (let pass = 0; pass < 2; pass++) {
      for (let n = 1; n <= 300; n++) {
        const { rows } = await sql<{ answer: number }>`select ${sql.raw(String(n))} * ${2} as answer`.execute(database.db);
        expect(rows[0]!.answer).toBe(n * 2);
      }
      // Long statements (more SQL than the cache holds, and some too long to keep at all).
      for (const length of [30_000, 70_000, 30_000, 100_000, 30_000, 30_000, 30_000, 30_000, 30_000, 30_000]) {
        const padding = sql.raw(`/*${'x'.repeat(length)}*/`);
        const { rows } = await sql<{ answer: number }>`select ${length} + ${pass} as answer ${padding}`.execute(database.db);
        expect(rows[0]!.answer).toBe(length + pass);
      }
    }
  });

  it('reports changed rows and the inserted id of writes, and rolls back a failed transaction', async () => {
    const insert = await sql`insert into counters (name, value) values ('other', 5)`.execute(database.db);
    expect(insert.numAffectedRows).toBe(1n);
    expect(typeof insert.insertId).toBe('bigint');
    await expect(
      database.db.transaction().execute(async (trx) => {
        await sql`update counters set value = 99 where name = 'other'`.execute(trx);
        throw new Error('abandon');
      }),
    ).rejects.toThrow('abandon');
    const { rows } = await sql<{ value: number }>`select value from counters where name = 'other'`.execute(database.db);
    expect(rows[0]!.value).toBe(5);
  });

  it('answers a write that commits on its own, and a transaction, only once the log is on disk; reads and statements inside a transaction at once', async () => {
    const file = path.join(dataDir, 'durable.sqlite');
    const connection = new SqliteDatabase(file);
    connection.pragma('journal_mode = WAL');
    const waits: string[] = [];
    let release: () => void = () => undefined;
    const durable = () => {
      waits.push('sync');
      return new Promise<void>((resolve) => (release = resolve));
    };
    const db = new Kysely<Record<string, never>>({ dialect: new QueuedSqliteDialect(connection, undefined, durable) });
    try {
      const created = sql`create table notes (id integer primary key, body text)`.execute(db).then(() => waits.push('created'));
      await new Promise((resolve) => setTimeout(resolve, 20));
      // The table's creation committed on its own: it waits for the sync.
      expect(waits).toEqual(['sync']);
      release();
      await created;
      expect(waits).toEqual(['sync', 'created']);

      let inserted = false;
      const insert = sql<{ id: number }>`insert into notes (body) values ('a') returning id`.execute(db).then((result) => {
        inserted = true;
        return result;
      });
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(inserted).toBe(false);
      release();
      expect((await insert).rows).toEqual([{ id: 1 }]);

      // A read waits for nothing.
      expect((await sql`select count(*) as n from notes`.execute(db)).rows).toEqual([{ n: 1 }]);
      expect(waits).toEqual(['sync', 'created', 'sync']);

      let committed = false;
      const transaction = db
        .transaction()
        .execute(async (trx) => {
          await sql`insert into notes (body) values ('b')`.execute(trx);
          await sql`insert into notes (body) values ('c')`.execute(trx);
          // Inside the transaction no statement waited.
          expect(waits).toHaveLength(3);
        })
        .then(() => (committed = true));
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(waits).toHaveLength(4);
      expect(committed).toBe(false);
      release();
      await transaction;
      expect(committed).toBe(true);
    } finally {
      release();
      await db.destroy();
    }
  });
});

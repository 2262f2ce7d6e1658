import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, SQLITE_FILE_NAME } from '../../src/storage/database.js';

const mode = (file: string) => fs.statSync(file).mode & 0o777;

describe('the SQLite files', () => {
  const made: string[] = [];
  afterEach(() => {
    for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });
  const tempDir = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pricebook-files-'));
    made.push(dir);
    return dir;
  };

  it('are created owner-only: the data dir 0700, the database and its WAL 0600', async () => {
    const dataDir = path.join(tempDir(), 'data', 'nested');
    const previous = process.umask(0o022);
    try {
      const database = await openDatabase({ databaseUrl: undefined, dataDir });
      await sql`insert into stores (name, created_at) values ('x', '2026-01-01T00:00:00.000Z')`.execute(database.db);
      expect(mode(dataDir)).toBe(0o700);
      expect(mode(path.join(dataDir, SQLITE_FILE_NAME))).toBe(0o600);
      expect(mode(path.join(dataDir, `${SQLITE_FILE_NAME}-wal`))).toBe(0o600);
      await database.close();
    } finally {
      process.umask(previous);
    }
  });

  it('an existing database file readable by others is made owner-only, its rows kept', async () => {
    const dataDir = tempDir();
    const first = await openDatabase({ databaseUrl: undefined, dataDir });
    await sql`insert into stores (name, created_at) values ('kept', '2026-01-01T00:00:00.000Z')`.execute(first.db);
    await first.close();
    const file = path.join(dataDir, SQLITE_FILE_NAME);
    fs.chmodSync(file, 0o644);

    const again = await openDatabase({ databaseUrl: undefined, dataDir });
    expect(mode(file)).toBe(0o600);
    const { rows } = await sql<{ name: string }>`select name from stores`.execute(again.db);
    expect(rows).toEqual([{ name: 'kept' }]);
    await again.close();
  });
});

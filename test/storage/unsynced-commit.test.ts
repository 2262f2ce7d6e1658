import { type Kysely, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { KyselyUnitOfWork } from '../../src/storage/kysely-unit-of-work.js';
import type { Tables } from '../../src/storage/tables.js';
import { enginesUnderTest } from '../support/engines.js';
import { suiteServer } from '../support/suite-server.js';

/**
 * A transaction asked not to wait for the disk (an upload's slices) changes the engine's sync
 * setting for itself alone: the commit after it, the one that answers, waits as always.
 */
describe.each(await enginesUnderTest())('transactions that do not wait for the disk on %s', (engine) => {
  const suite = suiteServer(engine, { tenants: 0 });
  const synced = engine === 'sqlite' ? 2 : 'on';
  const unsynced = engine === 'sqlite' ? 1 : 'off';

  it('set the sync setting for their own commit only, and put it back after a commit or a rollback', async () => {
    let connection: Kysely<Tables> | undefined;
    const uow = new KyselyUnitOfWork(suite.server.services.database, (repos, db) => {
      connection = db;
      return repos;
    });
    // SQLite's `synchronous` (2 FULL, 1 NORMAL) on its one writing connection; PostgreSQL's `synchronous_commit`.
    const setting = async (): Promise<number | string> => {
      if (engine === 'sqlite') return Number((await sql<{ synchronous: number }>`pragma synchronous`.execute(connection!)).rows[0]!.synchronous);
      return (await sql<{ synchronous_commit: string }>`show synchronous_commit`.execute(connection!)).rows[0]!.synchronous_commit;
    };

    expect(await uow.transaction(() => setting())).toBe(synced);
    expect(await uow.transaction(() => setting(), { unsynced: true })).toBe(unsynced);
    expect(await uow.transaction(() => setting())).toBe(synced);
    await expect(
      uow.transaction(
        async () => {
          expect(await setting()).toBe(unsynced);
          throw new Error('rolled back');
        },
        { unsynced: true },
      ),
    ).rejects.toThrow('rolled back');
    expect(await uow.transaction(() => setting())).toBe(synced);
    // Joined to an ordinary transaction, the option changes nothing: that commit waits.
    expect(await uow.transaction(() => uow.transaction(() => setting(), { unsynced: true }))).toBe(synced);
  });
});

import { type Kysely, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { KyselyUnitOfWork } from '../../src/storage/kysely-unit-of-work.js';
import type { Tables } from '../../src/storage/tables.js';
import { enginesUnderTest } from '../support/engines.js';
import { suiteServer } from '../support/suite-server.js';

/**
 * A transaction asked not to wait for the disk (an upload's slices) changes the engine's sync
 * setting for itself alone: the commit after it, the one that answers, waits as always. On
 * SQLite every transaction commits unsynced, and an ordinary one then waits for its log to be
 * synced off the event loop (`durableCommits`) before it returns.
 */
describe.each(await enginesUnderTest())('transactions that do not wait for the disk on %s', (engine) => {
  const suite = suiteServer(engine, { tenants: 0 });
  // On SQLite no commit syncs the log (synchronous NORMAL): an ordinary transaction waits for its sync after it.
  const synced = engine === 'sqlite' ? 1 : 'on';
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

  it.runIf(engine === 'sqlite')('return from an ordinary commit only once its log is on disk, and from an unsynced one at once', async () => {
    const database = suite.server.services.database;
    let syncs = 0;
    let release: () => void = () => undefined;
    const disk = new Promise<void>((resolve) => (release = resolve));
    const uow = new KyselyUnitOfWork({
      ...database,
      durableCommits: () => {
        syncs++;
        return disk;
      },
    });
    let returned = false;
    const ordinary = uow
      .transaction(async () => 'committed')
      .then((value) => {
        returned = true;
        return value;
      });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(syncs).toBe(1);
    expect(returned).toBe(false);
    // The writing connection is free meanwhile: the next transaction commits and waits its turn.
    expect(await uow.transaction(async () => 'unsynced', { unsynced: true })).toBe('unsynced');
    expect(syncs).toBe(1);
    release();
    expect(await ordinary).toBe('committed');
    // A rolled-back transaction waits for nothing.
    await expect(uow.transaction(() => Promise.reject(new Error('rolled back')))).rejects.toThrow('rolled back');
    expect(syncs).toBe(1);
  });
});

import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SqliteLogSync } from '../../src/storage/sqlite-log-sync.js';

/** The log's sync off the event loop: commits that end during one sync share the next. */
describe('syncing SQLite’s log off the event loop', () => {
  let dir: string;
  let file: string;
  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'pricebook-log-sync-'));
    file = path.join(dir, 'pricebook.sqlite-wal');
    await fs.writeFile(file, 'frames');
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await fs.rm(dir, { recursive: true, force: true });
  });

  /** Counts the file's data syncs, each held until the test lets it end. */
  async function heldSyncs(): Promise<{ started: () => number; finish: () => void }> {
    const probe = await fs.open(file, 'r');
    const prototype = Object.getPrototypeOf(probe) as { datasync: () => Promise<void> };
    await probe.close();
    let started = 0;
    const waiting: Array<() => void> = [];
    const real = prototype.datasync;
    vi.spyOn(prototype, 'datasync').mockImplementation(async function (this: unknown) {
      started++;
      await new Promise<void>((resolve) => waiting.push(resolve));
      return real.call(this);
    });
    return { started: () => started, finish: () => waiting.splice(0).forEach((resolve) => resolve()) };
  }

  it('answers a call made during a sync only after a sync that started after it', async () => {
    const syncs = await heldSyncs();
    const log = new SqliteLogSync(file);
    const order: string[] = [];
    const first = log.sync().then(() => order.push('first'));
    await vi.waitFor(() => expect(syncs.started()).toBe(1));
    // Five commits end while the first sync runs: one more sync covers them all.
    const later = Array.from({ length: 5 }, (_, index) => log.sync().then(() => order.push(`later ${index}`)));
    syncs.finish();
    await first;
    expect(order).toEqual(['first']);
    await vi.waitFor(() => expect(syncs.started()).toBe(2));
    syncs.finish();
    await Promise.all(later);
    expect(order).toEqual(['first', 'later 0', 'later 1', 'later 2', 'later 3', 'later 4']);
    expect(syncs.started()).toBe(2);
    await log.close();
  });

  it('fails a sync whose log cannot be opened, and opens it again on the next', async () => {
    const log = new SqliteLogSync(path.join(dir, 'missing-wal'));
    await expect(log.sync()).rejects.toThrow(/ENOENT/);
    await fs.writeFile(path.join(dir, 'missing-wal'), 'frames');
    await expect(log.sync()).resolves.toBeUndefined();
    await log.close();
  });

  it('still syncs a commit that ends after it closed, keeping no descriptor open', async () => {
    const log = new SqliteLogSync(file);
    await log.sync();
    await log.close();
    const before = (await fs.readdir('/proc/self/fd')).length;
    await expect(log.sync()).resolves.toBeUndefined();
    expect((await fs.readdir('/proc/self/fd')).length).toBe(before);
    await fs.rm(file);
    // Synced on a descriptor of its own: a log that is gone fails that sync, not a later one.
    await expect(log.sync()).rejects.toThrow(/ENOENT/);
  });
});

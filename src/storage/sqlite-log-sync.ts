import fs from 'node:fs/promises';

/**
 * Makes SQLite's write-ahead log durable off the event loop. With `synchronous = FULL` the
 * commit itself syncs the log, inside the driver's synchronous call: while the disk writes back
 * (another upload's slices, a checkpoint copying hundreds of MiB into the database file) the
 * whole process waits, and on a busy disk one commit held the loop for 450 ms. A transaction
 * instead commits with `synchronous = NORMAL` (its frames are written to the log, not yet
 * synced) and then waits here, on a thread of libuv's pool, for the log file's data to reach
 * the disk before it returns: the same guarantee when it answers, and the loop turns meanwhile.
 *
 * Why that is enough: SQLite appends a commit's frames to the log in order and only reuses the
 * log from its start once a checkpoint has copied every frame into the database file and synced
 * it, so after this sync a transaction's frames are on disk, in the log or in the database.
 *
 * Commits that end while a sync is under way share the next one (a group commit): one sync
 * that started after their commit covers them all.
 */
export class SqliteLogSync {
  private handle: Promise<fs.FileHandle> | undefined;
  private current: Promise<void> | undefined;
  private next: Promise<void> | undefined;
  private closed = false;

  constructor(private readonly logFile: string) {}

  /** Resolves once every frame committed before the call is on disk. */
  sync(): Promise<void> {
    if (this.next !== undefined) return this.next;
    if (this.current === undefined) {
      this.current = this.flush().finally(() => {
        this.current = undefined;
      });
      return this.current;
    }
    // The sync under way may have started before this commit: one more, after it.
    this.next = this.current
      .catch(() => undefined)
      .then(() => {
        this.next = undefined;
        return this.sync();
      });
    return this.next;
  }

  /**
   * Closes the kept descriptor once the syncs under way have ended. A commit that ends later
   * (the database closes after this) still gets its sync, on a descriptor opened for it alone.
   */
  async close(): Promise<void> {
    this.closed = true;
    await this.current?.catch(() => undefined);
    await this.next?.catch(() => undefined);
    const handle = await this.handle?.catch(() => undefined);
    this.handle = undefined;
    await handle?.close();
  }

  private async flush(): Promise<void> {
    if (this.closed) {
      const handle = await fs.open(this.logFile, 'r');
      try {
        await handle.datasync();
      } finally {
        await handle.close();
      }
      return;
    }
    // Opened once, while the database's connections keep the log in place (SQLite removes it
    // only when the last one closes); the data of the file is synced, whichever descriptor asks.
    this.handle ??= fs.open(this.logFile, 'r');
    const handle = await this.handle.catch((error: unknown) => {
      this.handle = undefined;
      throw error;
    });
    await handle.datasync();
  }
}

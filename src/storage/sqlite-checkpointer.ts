import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** How often the checkpointer moves the write-ahead log into the database file. */
const CHECKPOINT_EVERY_MS = 200;

/**
 * The worker's whole program (CommonJS, as an eval'd worker runs): a connection of its own to
 * the database file, a passive checkpoint on a timer, and a last one when told to stop.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
const checkpoint = () => { try { db.pragma('wal_checkpoint(PASSIVE)'); } catch { /* busy or closing: the next turn retries */ } };
const timer = setInterval(checkpoint, workerData.everyMs);
parentPort.once('message', () => { clearInterval(timer); checkpoint(); db.close(); parentPort.close(); });
`;

/**
 * SQLite checkpoints (copies the write-ahead log into the database file and syncs it) off the
 * event loop. By default the connection that commits checkpoints as part of the commit once the
 * log passes 1000 pages, in the same synchronous call: a commit of a large cascade, with its
 * events, history entries and kept deleted rows, held the loop for half a second. The writer's
 * automatic checkpoint is off (`wal_autocheckpoint = 0`), and this worker thread, on a
 * connection of its own, runs a passive checkpoint every 200 ms: it never blocks the writer or
 * a reader, and what a reader still needs stays in the log until the next one. Crash safety is
 * SQLite's either way: a checkpoint interrupted is redone from the log.
 */
export class SqliteCheckpointer {
  private readonly worker: Worker;
  private readonly exited: Promise<void>;

  constructor(file: string) {
    const driver = createRequire(import.meta.url).resolve('better-sqlite3');
    this.worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { driver, file, everyMs: CHECKPOINT_EVERY_MS } });
    this.exited = new Promise((resolve) => this.worker.once('exit', () => resolve()));
    // A process that has nothing else to do may end: the worker never keeps it alive.
    this.worker.unref();
  }

  /** A last checkpoint, then the worker's connection closes. */
  async stop(): Promise<void> {
    // Held again until it has exited: a process closing its database waits for the last checkpoint.
    this.worker.ref();
    this.worker.postMessage('stop');
    await this.exited;
  }
}

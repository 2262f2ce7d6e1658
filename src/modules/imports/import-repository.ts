import type { Import, ImportError, ImportMode, ImportResult } from '../../contract/imports.js';
import type { ChangeOrigin } from '../history/history-entry.js';
import type { Page } from '../shared/page.js';

/** Who uploaded an import, and with which request: its apply's history entries name them (source `import`). */
export type ImportUploader = Pick<ChangeOrigin, 'actor' | 'requestId'>;

/** How an import was asked for. */
export interface ImportOptions {
  mode: ImportMode;
  dryRun: boolean;
  changeSetId?: number;
  /** The file's name as the uploader gave it. */
  fileName?: string;
}

/** An import a process took on: it owns it while its lease lasts. */
export interface ClaimedImport {
  id: number;
  storeId: number;
  mode: ImportMode;
  dryRun: boolean;
  /** The change set its rows go into as operations; null: they change the book. */
  changeSetId: number | null;
  leaseToken: string;
  /** Times it was taken up, this one included. */
  attempts: number;
  uploader: ImportUploader;
}

/** How an import ends. */
export type ImportOutcome =
  | { status: 'succeeded'; result: ImportResult; finishedAt: string }
  | { status: 'failed'; errors: readonly ImportError[]; errorCount: number; finishedAt: string };

/** What one store has in the import queue: imports waiting or worked on, and the bytes of their files. */
export interface StoreImportQueue {
  storeId: number;
  queued: number;
  running: number;
  /** Bytes of the files of its queued and running imports (and of uploads under way). */
  bytes: number;
}

/**
 * Imports as rows: uploads begun, queued or discarded, claimed and leased, ended, cleaned up and
 * purged; what they hold (file, staged prices, changes) is `ImportContentsRepository`'s.
 */
export interface ImportRepository {
  /** A new import whose file is still arriving (`uploading`: never answered, never claimed). */
  beginUpload(storeId: number, options: ImportOptions, uploader: ImportUploader, createdAt: string): Promise<number>;
  /**
   * The store's imports that count against its queue caps: queued and running ones, and uploads
   * under way that started at `uploadsSince` (ISO 8601) or later, with the bytes of their files.
   */
  queueOf(storeId: number, uploadsSince: string): Promise<{ imports: number; bytes: number }>;
  /**
   * Makes a transaction that checks and then changes the store's queue wait for any other doing
   * the same (on SQLite, write transactions already run one at a time).
   */
  lockQueue(storeId: number): Promise<void>;
  /** An upload whose file arrived whole becomes a queued import; the import as queued. */
  enqueue(importId: number, rows: number): Promise<Import>;
  /** An upload refused or abandoned: hidden, its slices to be deleted (`cleanup`), then the row. */
  discard(importId: number, at: string): Promise<void>;
  find(storeId: number, id: number): Promise<Import | undefined>;
  list(storeId: number, page: Page): Promise<Import[]>;
  count(storeId: number): Promise<number>;
  /**
   * Takes an import to work on: queued, or running with its lease passed (its process died),
   * and of a store none of whose imports is running under a live lease (a store's imports run
   * one at a time, oldest first). Among stores, the one whose imports were claimed least recently
   * goes first (round-robin); within a store, the oldest. Never one of `working` (imports this
   * process works on, whose lease may have run out while it did). Leases it until `leaseUntil`;
   * undefined when there is none.
   */
  claim(now: number, leaseUntil: number, leaseToken: string, working: readonly number[]): Promise<ClaimedImport | undefined>;
  /** Extends the lease and records progress; false when the lease is no longer this token's. */
  progress(claim: ClaimedImport, update: { leaseUntil: number; processed: number; rows?: number; format?: 'long' | 'matrix' }): Promise<boolean>;
  /** Extends the lease alone (while an apply runs); false when the lease is no longer this token's. */
  renew(claim: ClaimedImport, leaseUntil: number): Promise<boolean>;
  /** Hands a running import back to the queue (its process stops). */
  release(claim: ClaimedImport): Promise<void>;
  /** Ids of the store's dry runs before `beforeId`, newest first, past the first `skip`; at most `limit`. */
  olderDryRuns(storeId: number, beforeId: number, skip: number, limit: number): Promise<number[]>;
  /**
   * Ends the import (only while the lease is `claim`'s: false otherwise) and marks its file
   * and staged rows for deletion (`cleanup`). The import as it ended, or undefined when the
   * lease was lost.
   */
  finish(claim: ClaimedImport, outcome: ImportOutcome): Promise<Import | undefined>;
  /**
   * Imports whose slices or staged rows are still to be deleted: discarded uploads, and ended
   * imports marked before `markedBefore` (ISO 8601); at most `limit`, oldest first.
   */
  toClean(markedBefore: string, limit: number): Promise<number[]>;
  /** The import's leftovers are gone: a discarded upload goes entirely, an ended import stays, unmarked. */
  cleaned(importId: number): Promise<void>;
  /** Uploads begun before `before` (ISO 8601) that never ended (their process died): discarded. How many. */
  abandonUploads(before: string, at: string, limit: number): Promise<number>;
  /**
   * Deletes ended imports (with nothing left to clean) that ended before `before`, their dry
   * runs' changes first: up to `limit` rows in all; how many.
   */
  purgeEnded(before: string, limit: number): Promise<number>;
  /** Stores with imports queued or running, at most `limit` of them. */
  queues(limit: number): Promise<StoreImportQueue[]>;
}

import type { Import, ImportChange, ImportChangeKind, ImportError, ImportMode, ImportResult } from '../../contract/imports.js';
import type { ChangeOrigin } from '../history/history-entry.js';
import type { Page } from '../page.js';
import type { NewTradePrice } from '../trade-prices/trade-price-repository.js';

/** A price an import checked, staged until the import applies: its place in the file, and the price. */
export type StagedPrice = NewTradePrice & { position: number };

/** A change a dry run found, numbered in the order it was found (from 1). */
export type NumberedChange = ImportChange & { seq: number };

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

export interface ImportRepository {
  /** A new import whose file is still arriving (`uploading`: never answered, never claimed). */
  beginUpload(storeId: number, options: ImportOptions, uploader: ImportUploader, createdAt: string): Promise<number>;
  /** Stores slice `seq` of an upload's file and adds its bytes to the import's size. */
  appendChunk(importId: number, storeId: number, seq: number, data: Buffer): Promise<void>;
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
  /** Slice `seq` of the import's file; undefined past the last one. */
  readChunk(importId: number, seq: number): Promise<Buffer | undefined>;
  stage(claim: ClaimedImport, prices: readonly StagedPrice[]): Promise<void>;
  /** Deletes up to `limit` of the import's staged prices; how many it deleted. */
  deleteStaged(importId: number, limit: number): Promise<number>;
  /** Deletes up to `limit` slices of the import's file; how many it deleted. */
  deleteChunks(importId: number, limit: number): Promise<number>;
  /** Keeps a dry run's changes. */
  recordChanges(claim: ClaimedImport, changes: readonly NumberedChange[]): Promise<void>;
  /** Deletes up to `limit` of the import's changes; how many it deleted. */
  deleteChanges(importId: number, limit: number): Promise<number>;
  /** Ids of the store's dry runs before `beforeId`, newest first, past the first `skip`; at most `limit`. */
  olderDryRuns(storeId: number, beforeId: number, skip: number, limit: number): Promise<number[]>;
  /** The import's changes by customer id, SKU (by code point), break, then the order found: a page of them. */
  changes(importId: number, page: Page): Promise<ImportChange[]>;
  /** How many changes of each kind the import keeps. */
  changeCounts(importId: number): Promise<Record<ImportChangeKind, number>>;
  /** Staged prices by position, `limit` at a time after `afterPosition`. */
  staged(importId: number, afterPosition: number, limit: number): Promise<StagedPrice[]>;
  /** The customers with staged prices, ascending. */
  stagedCustomers(importId: number): Promise<number[]>;
  /** Up to `limit` staged prices of the customer with a SKU above `afterSku` (from the first when null), by SKU then position. */
  stagedBySku(importId: number, customerId: number, afterSku: string | null, limit: number): Promise<StagedPrice[]>;
  /** Every staged price of the customer for one SKU, by position. */
  stagedOfSku(importId: number, customerId: number, sku: string): Promise<StagedPrice[]>;
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

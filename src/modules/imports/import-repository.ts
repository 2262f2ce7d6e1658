import type { Import, ImportError, ImportMode, ImportResult } from '../../contract/imports.js';
import type { Page } from '../page.js';

/** A price an import checked, staged until the import applies (prices in ten-thousandths). */
export interface StagedPrice {
  position: number;
  customerId: number;
  productId: number;
  sku: string;
  price: number;
  minQuantity: number;
  validFrom: string | null;
  validUntil: string | null;
}

/** An import a process took on: it owns it while its lease lasts. */
export interface ClaimedImport {
  id: number;
  storeId: number;
  mode: ImportMode;
  dryRun: boolean;
  leaseToken: string;
  /** Times it was taken up, this one included. */
  attempts: number;
}

/** How an import ends. */
export type ImportOutcome =
  | { status: 'succeeded'; result: ImportResult; finishedAt: string }
  | { status: 'failed'; errors: readonly ImportError[]; errorCount: number; finishedAt: string };

export interface ImportRepository {
  /** A queued import with its file. */
  insert(storeId: number, options: { mode: ImportMode; dryRun: boolean; rows: number }, csv: string, createdAt: string): Promise<Import>;
  find(storeId: number, id: number): Promise<Import | undefined>;
  list(storeId: number, page: Page): Promise<Import[]>;
  count(storeId: number): Promise<number>;
  /**
   * Takes the oldest queued import, or a running one whose lease has passed (its process
   * died), leasing it until `leaseUntil`; undefined when there is none.
   */
  claim(now: number, leaseUntil: number, leaseToken: string): Promise<ClaimedImport | undefined>;
  /** Extends the lease and records progress; false when the lease is no longer this token's. */
  progress(claim: ClaimedImport, update: { leaseUntil: number; processed: number; rows?: number; format?: 'long' | 'matrix' }): Promise<boolean>;
  /** Hands a running import back to the queue (its process stops). */
  release(claim: ClaimedImport): Promise<void>;
  readFile(importId: number): Promise<string | undefined>;
  stage(claim: ClaimedImport, prices: readonly StagedPrice[]): Promise<void>;
  clearStaged(importId: number): Promise<void>;
  /** Staged prices by position, `limit` at a time after `afterPosition`. */
  staged(importId: number, afterPosition: number, limit: number): Promise<StagedPrice[]>;
  /** The customers with staged prices, ascending. */
  stagedCustomers(importId: number): Promise<number[]>;
  stagedOf(importId: number, customerId: number): Promise<StagedPrice[]>;
  /**
   * Ends the import (only while the lease is `claim`'s: false otherwise), dropping its file and
   * staged rows. The import as it ended, or undefined when the lease was lost.
   */
  finish(claim: ClaimedImport, outcome: ImportOutcome): Promise<Import | undefined>;
}

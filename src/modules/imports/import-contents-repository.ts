import type { ImportChange, ImportChangeKind } from '../../contract/imports.js';
import type { Page } from '../shared/page.js';
import type { NewTradePrice } from '../trade-prices/trade-price-repository.js';
import type { ClaimedImport } from './import-repository.js';

/** A price an import checked, staged until the import applies: its place in the file, and the price. */
export type StagedPrice = NewTradePrice & { position: number };

/** A change a dry run found, numbered in the order it was found (from 1). */
export type NumberedChange = ImportChange & { seq: number };

/**
 * What an import holds besides its row, each kept by the import and its place: its file's
 * slices (in the order they arrived), the prices its check staged (in the file's order), a dry
 * run's changes (in the order found); each deleted a bounded batch at a time once the import
 * no longer needs it.
 */
export interface ImportContentsRepository {
  /** Stores slice `seq` of an upload's file and adds its bytes to the import's size. */
  appendChunk(importId: number, storeId: number, seq: number, data: Buffer): Promise<void>;
  /** Slice `seq` of the import's file; undefined past the last one. */
  readChunk(importId: number, seq: number): Promise<Buffer | undefined>;
  /** Deletes up to `limit` slices of the import's file; how many it deleted. */
  deleteChunks(importId: number, limit: number): Promise<number>;

  /** Stages checked prices, each at its `position`. */
  stage(claim: ClaimedImport, prices: readonly StagedPrice[]): Promise<void>;
  /** Staged prices by position, `limit` at a time after `afterPosition`. */
  staged(importId: number, afterPosition: number, limit: number): Promise<StagedPrice[]>;
  /** The customers with staged prices, ascending. */
  stagedCustomers(importId: number): Promise<number[]>;
  /** Up to `limit` staged prices of the customer with a SKU above `afterSku` (from the first when null), by SKU then position. */
  stagedBySku(importId: number, customerId: number, afterSku: string | null, limit: number): Promise<StagedPrice[]>;
  /** Every staged price of the customer for one SKU, by position. */
  stagedOfSku(importId: number, customerId: number, sku: string): Promise<StagedPrice[]>;
  /** Deletes up to `limit` of the import's staged prices; how many it deleted. */
  deleteStaged(importId: number, limit: number): Promise<number>;

  /** Keeps a dry run's changes. */
  recordChanges(claim: ClaimedImport, changes: readonly NumberedChange[]): Promise<void>;
  /** The import's changes by customer id, SKU (by code point), break, then the order found: a page of them. */
  changes(importId: number, page: Page): Promise<ImportChange[]>;
  /** How many changes of each kind the import keeps. */
  changeCounts(importId: number): Promise<Record<ImportChangeKind, number>>;
  /** Deletes up to `limit` of the import's changes; how many it deleted. */
  deleteChanges(importId: number, limit: number): Promise<number>;
}

import { IMPORT_DEFAULTS } from '../../config/settings.js';
import { MAX_IMPORT_BYTES } from '../../contract/imports.js';
import { AppError } from '../shared/errors.js';

/**
 * The bounds of CSV imports on the server, each written once: the store's queue caps and their
 * refusals, the defaults of the settings, and the batch sizes every step works in. What the API
 * promises (the largest file, the problems kept, the changes kept) is the contract's
 * (`contract/imports.ts`), which the CLI and the client read too.
 */

/** A store's import queue caps (docs/imports.md, "Limits"). */
export interface ImportQueueCaps {
  /** Imports of one store queued or running at once, uploads under way included. */
  maxImports: number;
  /** Bytes of the files of one store's queued and running imports and uploads. */
  maxBytes: number;
}

export const DEFAULT_IMPORT_CAPS: ImportQueueCaps = { maxImports: IMPORT_DEFAULTS.maxQueued, maxBytes: IMPORT_DEFAULTS.maxQueuedMiB * 2 ** 20 };
/** How long ended imports are kept (PRICEBOOK_IMPORT_RETENTION). */
export const DEFAULT_IMPORT_RETENTION_MS = IMPORT_DEFAULTS.retentionDays * 24 * 3600_000;
/** How long a process owns an import it works on without renewing its lease (PRICEBOOK_IMPORT_LEASE). */
export const DEFAULT_IMPORT_LEASE_MS = IMPORT_DEFAULTS.leaseSeconds * 1000;

/** How long a refused upload is told to wait before trying again, seconds. */
export const QUEUE_FULL_RETRY_SECONDS = 60;

/** An upload refused because the store's queue holds its cap of imports, or of bytes. */
export function queueFull(caps: ImportQueueCaps, what: 'imports' | 'bytes'): AppError {
  const message =
    what === 'imports'
      ? `This store already has ${caps.maxImports} imports queued or running; send the file again once one has ended`
      : `The files of this store's queued and running imports would exceed ${Math.floor(caps.maxBytes / 2 ** 20)} MiB; send the file again once one has ended`;
  return new AppError('import_queue_full', message, undefined, QUEUE_FULL_RETRY_SECONDS);
}

/** A file past `MAX_IMPORT_BYTES`: announced so, or found so as it arrives. */
export function bodyTooLarge(): AppError {
  return new AppError('body_too_large', `Request body is larger than ${MAX_IMPORT_BYTES / 2 ** 20} MiB`);
}

/** Times an import is taken up before it is failed. */
export const MAX_ATTEMPTS = 3;
/** An upload not finished after this long lost its process: it is discarded. Requests last 30 s at most. */
export const UPLOAD_ABANDONED_MS = 10 * 60_000;
/** Leftovers of an ended import are the maintenance loop's after this long (its process cleans them first). */
export const CLEANUP_GRACE_MS = 60_000;
/** Stores the queue metrics list, at most. */
export const QUEUE_METRIC_STORES = 1000;

/** Rows checked per batch, at most: their lookups are a query or two. */
export const CHECK_ROWS = 1000;
/** Fields read per batch, at most (a row or two of a wide matrix). */
export const CHECK_CELLS = 16_384;
/** Fields read between two chances to give way (a few milliseconds of work). */
export const PACE_CELLS = 2000;
/** Staged prices (or a dry run's changes) written per transaction, with the lease renewed: a few milliseconds on SQLite. */
export const STAGE_PIECE = 500;
/** Staged prices created or deleted per apply batch (and read per query): a few milliseconds on SQLite. */
export const APPLY_BATCH = 500;
/** Staged prices of one customer a replace compares with its records at a time (whole SKUs). */
export const REPLACE_WINDOW = 1000;
/** Ids or e-mail addresses looked up per query: far below either engine's limit of bound parameters. */
export const LOOKUP_CHUNK = 1000;
/** Staged rows and file slices deleted per statement once an import ends. */
export const CLEAN_ROWS = 5000;
export const CLEAN_CHUNKS = 8;
/**
 * Older dry runs a dry run's start looks at to drop their changes: the store's others past its
 * newest were dropped by the dry runs before (or go with their imports).
 */
export const OLDER_DRY_RUNS_CHECKED = 50;

import { randomBytes } from 'node:crypto';
import { type Import, type ImportChange, type ImportChanges, type ImportError, MAX_KEPT_DRY_RUNS, type ImportEventData, type ImportResult, MAX_IMPORT_ERROR_FIELD, MAX_IMPORT_ERROR_MESSAGE, MAX_IMPORT_ERRORS } from '../../contract/imports.js';
import { type Clock, isoTimestamp } from '../clock.js';
import { found } from '../errors.js';
import { eventOf } from '../events/events.js';
import type { Page } from '../page.js';
import { diffPrices } from '../trade-prices/price-diff.js';
import type { NewTradePrice, SkuRange } from '../trade-prices/trade-price-repository.js';
import { TradePriceWrites } from '../trade-prices/trade-price-writes.js';
import { customerProblem } from '../pricing/trade-customer.js';
import type { Repositories, UnitOfWork } from '../unit-of-work.js';
import { clip } from '../../text/clip.js';
import { type CsvLayout, type CsvPrice, readHeader, readRow } from './csv-format.js';
import { CsvProblem } from '../../csv/csv-problem.js';
import { CsvRecordReader } from '../../csv/csv-record-reader.js';
import { type ImportPacer, ImportTurns, soloPacer } from './import-pacing.js';
import type { ChangeOrigin } from '../history/history-entry.js';
import type { ClaimedImport, ImportOptions, ImportOutcome, ImportUploader, StagedPrice, StoreImportQueue } from './import-repository.js';
import { changesOfDiff, createdChanges, deletedChanges, DryRunChanges } from './dry-run-changes.js';
import { AppError } from '../errors.js';
import { type ChangeSetOperation, MAX_OPERATIONS_PER_SET } from '../../contract/change-sets.js';

import { type ImportQueueCaps, ImportUpload, queueFull } from './import-upload.js';

/** Rows checked per batch, at most: their lookups are a query or two. */
const CHECK_ROWS = 1000;
/** Fields read per batch, at most (a row or two of a wide matrix). */
const CHECK_CELLS = 16_384;
/** Fields read between two chances to give way (a few milliseconds of work). */
const PACE_CELLS = 2000;
/** Staged prices written per transaction (with the lease renewed), and created or deleted per apply batch: each a few milliseconds on SQLite. */
const STAGE_PIECE = 500;
const APPLY_BATCH = 500;
/** Staged prices of one customer a replace compares with its records at a time (whole SKUs). */
const REPLACE_WINDOW = 1000;
/** Ids or e-mail addresses looked up per query: far below either engine's limit of bound parameters. */
const LOOKUP_CHUNK = 1000;
/** Staged rows and file slices deleted per statement once an import ends. */
const CLEAN_ROWS = 5000;
const CLEAN_CHUNKS = 8;
/**
 * Older dry runs a dry run's start looks at to drop their changes: the store's others past its
 * newest were dropped by the dry runs before (or go with their imports).
 */
const OLDER_DRY_RUNS_CHECKED = 50;
/** Times an import is taken up before it is failed. */
const MAX_ATTEMPTS = 3;
/** An upload not finished after this long lost its process: it is discarded. Requests last 30 s at most. */
const UPLOAD_ABANDONED_MS = 10 * 60_000;
/** Leftovers of an ended import are the maintenance loop's after this long (its process cleans them first). */
const CLEANUP_GRACE_MS = 60_000;
/** Stores the queue metrics list, at most. */
export const QUEUE_METRIC_STORES = 1000;
/** Prices an import into a change set takes in replace mode (its `trade_prices.replace` operations together), held in memory while they are added. */
export const MAX_CHANGE_SET_IMPORT_PRICES = 100_000;

export const DEFAULT_IMPORT_CAPS: ImportQueueCaps = { maxImports: 4, maxBytes: 200 * 2 ** 20 };
export const DEFAULT_IMPORT_RETENTION_MS = 30 * 24 * 3600_000;

/** Raised when a process lost an import it worked on (another one took it over). */
class LeaseLost extends Error {}

/** Raised inside the apply transaction when what the check found no longer holds: the import fails with `problems`, nothing written. */
class StaleCheck extends Error {
  constructor(readonly problems: ImportError[]) {
    super(problems[0]?.message);
  }
}

export interface ImportServiceOptions {
  /** How long a process owns an import it works on without renewing its lease (PRICEBOOK_IMPORT_LEASE). Default 5 minutes. */
  leaseMs?: number;
  /** The per-store queue caps (PRICEBOOK_IMPORT_MAX_QUEUED, PRICEBOOK_IMPORT_MAX_QUEUED_MIB). */
  caps?: ImportQueueCaps;
  /** How long ended imports are kept (PRICEBOOK_IMPORT_RETENTION). Default 30 days. */
  retentionMs?: number;
  /** Where an import into a change set (`changeSet=ID`) adds its operations. */
  changeSets?: ChangeSetSink;
}

/** What an import into a change set needs of it: `ChangeSetService.addOperations`. */
export interface ChangeSetSink {
  addOperations(storeId: number, origin: ChangeOrigin, id: number, operations: readonly ChangeSetOperation[]): Promise<unknown>;
}

/** How `process` ended: `ended` false when the import went back to the queue; `failure` an unexpected error that failed it. */
export interface ProcessOutcome {
  ended: boolean;
  failure?: unknown;
}

/** Customers as the store has them, by id and by lower-cased e-mail address. */
interface CustomerMaps {
  byId: Map<number, { id: number; trade: boolean }>;
  byEmail: Map<string, { id: number; trade: boolean }>;
}

/**
 * CSV imports of trade prices (docs/imports.md). An upload is stored slice by slice as it
 * arrives (`startUpload`) and queued once whole; a background runner (`ImportRunner`) then
 * works the queue, a store's imports one at a time, stores in turn:
 *
 * 1. **Check**, the file read slice by slice: rows read, customers and SKUs looked up, prices
 *    staged in short transactions; every problem counted, the first 1000 kept.
 * 2. A file with any problem **fails** and changes nothing.
 * 3. **Apply** the staged prices in one transaction, in batches with pauses between them for
 *    other work: all of it or none. `add` creates every price; `replace` gives each customer
 *    of the file exactly its prices, as the replace endpoint does (equal records stay, with
 *    their ids). A dry run counts instead, outside any write transaction.
 *
 * Once the import ends its file and staged rows are deleted, in batches. Any error but a lost
 * lease fails the import at once with its reason. A process that dies mid-way leaves its lease
 * to run out; another process (or the same one, restarted) takes the import again from the
 * start: the apply step had committed all or nothing.
 */
export class ImportService {
  private readonly queuedListeners = new Set<() => void>();
  /** Turns of the process's import work: uploads storing their files and the runner's imports share them. */
  readonly turns = new ImportTurns();
  private readonly leaseMs: number;
  private readonly caps: ImportQueueCaps;
  private readonly retentionMs: number;
  private readonly changeSets: ChangeSetSink | undefined;

  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    options: ImportServiceOptions = {},
  ) {
    this.leaseMs = options.leaseMs ?? 300_000;
    this.caps = options.caps ?? DEFAULT_IMPORT_CAPS;
    this.retentionMs = options.retentionMs ?? DEFAULT_IMPORT_RETENTION_MS;
    this.changeSets = options.changeSets;
  }

  /** Calls `listener` whenever this process queues an import (a runner here wakes up for it). */
  whenQueued(listener: () => void): () => void {
    this.queuedListeners.add(listener);
    return () => this.queuedListeners.delete(listener);
  }

  /**
   * Begins an upload, if the store's queue has room: refused at once (`import_queue_full`)
   * when it holds its cap of imports, or when `declaredBytes` (the request's length, if it says
   * one) would take its files past the bytes cap. Nothing is stored then. `uploader` (who
   * sends it, with which request) is kept with the import: its apply's history entries name them.
   */
  async startUpload(storeId: number, uploader: ImportUploader, options: ImportOptions, declaredBytes: number | undefined): Promise<ImportUpload> {
    const now = this.clock.now();
    const uploadsSince = new Date(now - UPLOAD_ABANDONED_MS).toISOString();
    const queue = await this.uow.repos.imports.queueOf(storeId, uploadsSince);
    if (queue.imports >= this.caps.maxImports) throw queueFull(this.caps, 'imports');
    if (declaredBytes !== undefined && queue.bytes + declaredBytes > this.caps.maxBytes) throw queueFull(this.caps, 'bytes');
    const importId = await this.uow.repos.imports.beginUpload(storeId, options, uploader, isoTimestamp(this.clock));
    const queued = () => {
      for (const listener of this.queuedListeners) listener();
    };
    return new ImportUpload(this.uow, this.caps, importId, storeId, uploadsSince, queued, this.turns);
  }

  /** Gives an upload up (refused, replayed, or its client went away): nothing of it stays. */
  discardUpload(upload: ImportUpload): Promise<void> {
    return upload.discard(isoTimestamp(this.clock), (importId) => this.cleanup(importId, soloPacer(), false));
  }

  async get(storeId: number, id: number): Promise<Import> {
    return found(await this.uow.repos.imports.find(storeId, id), `Import ${id}`);
  }

  /**
   * What a dry run would change, a page at a time, with the kept changes' counts; only a dry
   * run that succeeded has them (`wrong_state` otherwise: a real run's changes are in the price
   * history).
   */
  async changes(storeId: number, id: number, page: Page): Promise<ImportChanges> {
    const run = await this.get(storeId, id);
    if (!run.dryRun) throw new AppError('wrong_state', `Import ${id} is not a dry run: what it changed is in the price history (entries of source import, sourceId ${id})`);
    if (run.status !== 'succeeded' || run.result === null) {
      const why = run.status === 'failed' ? 'it failed: its problems are in `errors`' : `it is still ${run.status}: ask again once it has succeeded`;
      throw new AppError('wrong_state', `Import ${id} has no changes to show: ${why}`);
    }
    const repos = this.uow.repos;
    const [counts, rows] = await Promise.all([repos.imports.changeCounts(id), repos.imports.changes(id, page)]);
    const total = counts.created + counts.changed + counts.deleted;
    if (total === 0 && run.result.created + run.result.deleted > 0) {
      throw new AppError('wrong_state', `Import ${id}'s changes are no longer kept: a store's ${MAX_KEPT_DRY_RUNS} newest dry runs keep theirs (and dry runs from before changes were kept have none); check the file again`);
    }
    const complete = counts.created + counts.changed === run.result.created && counts.deleted + counts.changed === run.result.deleted;
    return { importId: id, counts, complete, total, rows };
  }

  list(storeId: number, page: Page): Promise<Import[]> {
    return this.uow.repos.imports.list(storeId, page);
  }

  count(storeId: number): Promise<number> {
    return this.uow.repos.imports.count(storeId);
  }

  /**
   * Takes the next import to work on, if any: round-robin over stores, a store's imports one at
   * a time; never one of `working` (those this process works on already).
   */
  claimNext(working: readonly number[] = []): Promise<ClaimedImport | undefined> {
    const now = this.clock.now();
    return this.uow.transaction((repos) => repos.imports.claim(now, now + this.leaseMs, randomBytes(12).toString('hex'), working));
  }

  /** Hands an import back to the queue (its process is stopping). */
  release(claim: ClaimedImport): Promise<void> {
    return this.uow.repos.imports.release(claim);
  }

  /**
   * Works an import to its end: checks, then fails or applies, then deletes its file and
   * staged rows. `shouldStop` is asked between batches; when it says so the import goes back
   * to the queue and this resolves `ended: false`. Any error but a lost lease fails the import
   * at once with its reason (and is answered as `failure`, for the log).
   */
  async process(claim: ClaimedImport, shouldStop: () => boolean, pacer: ImportPacer = soloPacer()): Promise<ProcessOutcome> {
    let failure: unknown;
    /** A dry run's changes stay only when it succeeded. */
    let succeeded = false;
    try {
      if (claim.attempts > MAX_ATTEMPTS) {
        // Taken up again and again without ending: its process died each time; stop trying.
        const message = `The import was interrupted ${claim.attempts - 1} times without finishing; nothing was changed. Send the file again, or split it`;
        await this.finishFailed(claim, [{ row: 1, field: null, message }], 1);
      } else {
        const changes = new DryRunChanges();
        const checked = await this.check(claim, shouldStop, pacer, changes);
        if (checked === undefined) {
          await this.release(claim);
          return { ended: false };
        }
        if (checked.errorCount > 0) await this.finishFailed(claim, checked.errors, checked.errorCount);
        else {
          await this.apply(claim, checked.staged, pacer, changes);
          succeeded = true;
        }
      }
    } catch (error) {
      if (error instanceof LeaseLost) return { ended: true };
      if (error instanceof StaleCheck) {
        await this.finishFailed(claim, error.problems, error.problems.length);
        await this.cleanup(claim.id, pacer, true);
        return { ended: true };
      }
      failure = error;
      const reason = error instanceof Error ? error.message : String(error);
      const message = `The import stopped on an unexpected error and changed nothing: ${clip(reason.replace(/\s+/g, ' '), 160)}`;
      try {
        await this.finishFailed(claim, [{ row: 1, field: null, message }], 1);
      } catch (second) {
        // Another process took it over, or the database itself fails (then the lease runs
        // out and the import is taken up again): either way nothing here is left to clean.
        return { ended: second instanceof LeaseLost, failure };
      }
    }
    await this.cleanup(claim.id, pacer, !succeeded);
    return { ended: true, ...(failure !== undefined && { failure }) };
  }

  /** Step 1: every row read, looked up and staged (counted, for an `add` dry run); undefined when told to stop. */
  private async check(claim: ClaimedImport, shouldStop: () => boolean, pacer: ImportPacer, changes: DryRunChanges): Promise<{ errors: ImportError[]; errorCount: number; staged: number } | undefined> {
    const repos = this.uow.repos;
    await this.clearStaged(claim, pacer);
    const reader = new CsvRecordReader((seq) => repos.imports.readChunk(claim.id, seq));
    const problems = new ProblemList();
    let layout: CsvLayout | undefined;
    let matrixCustomers: CustomerMaps | undefined;
    let row = 0;
    let position = 0;
    let batch: Array<{ row: number; fields: string[] }> = [];
    let cells = 0;
    let counted = 0;
    const countOnly = claim.dryRun && claim.mode === 'add';
    const renew = async (update: { processed: number; rows?: number; format?: 'long' | 'matrix' }) => {
      if (!(await repos.imports.progress(claim, { leaseUntil: this.clock.now() + this.leaseMs, ...update }))) throw new LeaseLost();
    };

    const flush = async () => {
      const rows = batch;
      batch = [];
      cells = 0;
      if (rows.length === 0) return;
      const found: ImportError[] = [];
      const prices: CsvPrice[] = [];
      let sincePace = 0;
      for (const { row: at, fields } of rows) {
        const read = readRow(layout!, fields, at);
        for (const problem of read.errors) found.push(problem);
        for (const price of read.prices) prices.push(price);
        sincePace += fields.length;
        if (sincePace >= PACE_CELLS) {
          sincePace = 0;
          await pacer.pace();
        }
      }
      await pacer.pace();
      const resolved = await this.resolve(claim.storeId, prices, matrixCustomers, pacer);
      // A batch's problems in the order of its rows (sort is stable: a row's stay in order).
      problems.add([...found, ...resolved.errors].sort((a, b) => a.row - b.row));
      const processed = rows[rows.length - 1]!.row - 1;
      // Once the file has a problem nothing will be applied: only look for more problems. An
      // `add` dry run needs no staged prices: it counts them.
      const staging = problems.count === 0 && !countOnly ? resolved.prices : [];
      counted += problems.count === 0 ? resolved.prices.length : 0;
      for (let start = 0; start === 0 || start < staging.length; start += STAGE_PIECE) {
        const piece = staging.slice(start, start + STAGE_PIECE).map((price) => ({ ...price, position: ++position }));
        await this.uow.transaction(async (inTransaction) => {
          if (!(await inTransaction.imports.progress(claim, { leaseUntil: this.clock.now() + this.leaseMs, processed }))) throw new LeaseLost();
          if (piece.length > 0) await inTransaction.imports.stage(claim, piece);
        });
        await pacer.pace();
      }
      // An `add` dry run's changes are its prices, kept as they are counted (the first ones).
      if (problems.count === 0 && countOnly && changes.room > 0) await this.keepChanges(claim, changes, createdChanges(resolved.prices.slice(0, changes.room)), pacer);
    };

    for (;;) {
      if (shouldStop()) return undefined;
      let records: string[][] | undefined;
      try {
        records = await reader.next();
      } catch (error) {
        if (!(error instanceof CsvProblem)) throw error;
        // A malformed file (an unclosed quote, a row too wide): what came before it is checked too.
        if (layout !== undefined) await flush();
        problems.add([{ row: error.line, field: null, message: error.message }]);
        return { errors: problems.kept, errorCount: problems.count, staged: 0 };
      }
      if (records === undefined) break;
      for (const record of records) {
        row += 1;
        if (layout === undefined) {
          const header = readHeader(record);
          if ('errors' in header) {
            problems.add(header.errors);
            return { errors: problems.kept, errorCount: problems.count, staged: 0 };
          }
          layout = header.layout;
          if (layout.format === 'matrix') matrixCustomers = await this.customersOf(claim.storeId, layout.customers.map((customer) => customer.ref), pacer);
          await renew({ processed: 0, format: layout.format });
          continue;
        }
        batch.push({ row, fields: record });
        cells += record.length;
        if (batch.length >= CHECK_ROWS || cells >= CHECK_CELLS) await flush();
      }
      await pacer.pace();
    }
    if (layout === undefined) {
      problems.add([{ row: 1, field: null, message: 'The file has no header' }]);
      return { errors: problems.kept, errorCount: problems.count, staged: 0 };
    }
    await flush();
    if (row < 2 && problems.count === 0) problems.add([{ row: 1, field: null, message: 'The file has a header and no rows' }]);
    await renew({ processed: row - 1, rows: row - 1 });
    return { errors: problems.kept, errorCount: problems.count, staged: counted };
  }

  /**
   * Staged rows and kept changes of an earlier attempt, deleted in batches; for a dry run, also
   * the changes of the store's older dry runs past its MAX_KEPT_DRY_RUNS newest (this one
   * among them), so a store keeps at most that many dry runs' changes.
   */
  private async clearStaged(claim: ClaimedImport, pacer: ImportPacer): Promise<void> {
    const repos = this.uow.repos;
    while ((await repos.imports.deleteStaged(claim.id, CLEAN_ROWS)) >= CLEAN_ROWS) await pacer.pace();
    if (!claim.dryRun) return;
    const older = await repos.imports.olderDryRuns(claim.storeId, claim.id, MAX_KEPT_DRY_RUNS - 1, OLDER_DRY_RUNS_CHECKED);
    for (const importId of [claim.id, ...older]) {
      while ((await repos.imports.deleteChanges(importId, CLEAN_ROWS)) >= CLEAN_ROWS) await pacer.pace();
    }
  }

  /** The customers `refs` name, looked up a chunk at a time. */
  private async customersOf(storeId: number, refs: ReadonlyArray<CsvPrice['customer']>, pacer: ImportPacer): Promise<CustomerMaps> {
    const ids = [...new Set(refs.flatMap((ref) => ('id' in ref ? [ref.id] : [])))];
    const emails = [...new Set(refs.flatMap((ref) => ('email' in ref ? [ref.email.toLowerCase()] : [])))];
    const maps: CustomerMaps = { byId: new Map(), byEmail: new Map() };
    for (let start = 0; start < ids.length; start += LOOKUP_CHUNK) {
      for (const [id, customer] of await this.uow.repos.customers.tradeFlags(storeId, ids.slice(start, start + LOOKUP_CHUNK))) maps.byId.set(id, customer);
      if (start + LOOKUP_CHUNK < ids.length) await pacer.pace();
    }
    for (let start = 0; start < emails.length; start += LOOKUP_CHUNK) {
      for (const [email, customer] of await this.uow.repos.customers.tradeFlagsByEmail(storeId, emails.slice(start, start + LOOKUP_CHUNK))) maps.byEmail.set(email, customer);
      if (start + LOOKUP_CHUNK < emails.length) await pacer.pace();
    }
    return maps;
  }

  /** The prices' customers (a matrix's, looked up once from its header) and SKUs, looked up in the store. */
  private async resolve(
    storeId: number,
    prices: readonly CsvPrice[],
    matrixCustomers: CustomerMaps | undefined,
    pacer: ImportPacer,
  ): Promise<{ prices: Array<Omit<StagedPrice, 'position'>>; errors: ImportError[] }> {
    const customers = matrixCustomers ?? (await this.customersOf(storeId, prices.map((price) => price.customer), pacer));
    const skus = [...new Set(prices.map((price) => price.sku))];
    const owners = new Map<string, number>();
    for (let start = 0; start < skus.length; start += LOOKUP_CHUNK) {
      const references = await this.uow.repos.tradePrices.findReferences(storeId, [], [], skus.slice(start, start + LOOKUP_CHUNK));
      for (const [sku, productId] of references.skuOwners) owners.set(sku, productId);
    }
    const errors: ImportError[] = [];
    const resolved: Array<Omit<StagedPrice, 'position'>> = [];
    // A matrix row gives one price a filled cell, all of one SKU: an unknown one is said once a row.
    const rowsOfUnknownSku = new Set<number>();
    for (const price of prices) {
      const customer = 'id' in price.customer ? customers.byId.get(price.customer.id) : customers.byEmail.get(price.customer.email.toLowerCase());
      const name = 'id' in price.customer ? `Customer ${price.customer.id}` : `Customer '${clip(price.customer.email, 64)}'`;
      const productId = owners.get(price.sku);
      const unfit = customerProblem(name, customer, { trade: true });
      if (unfit !== undefined) errors.push({ row: price.row, field: price.customerField, message: unfit });
      if (productId === undefined && !rowsOfUnknownSku.has(price.row)) {
        rowsOfUnknownSku.add(price.row);
        errors.push({ row: price.row, field: 'sku', message: `SKU '${clip(price.sku, 64)}' does not exist in this store` });
      }
      if (customer === undefined || !customer.trade || productId === undefined) continue;
      resolved.push({
        customerId: customer.id,
        productId,
        sku: price.sku,
        price: price.price,
        minQuantity: price.minQuantity,
        validFrom: price.validFrom,
        validUntil: price.validUntil,
      });
    }
    return { prices: resolved, errors };
  }

  private async finishFailed(claim: ClaimedImport, errors: readonly ImportError[], errorCount: number): Promise<void> {
    await this.finish(claim, { status: 'failed', errors, errorCount, finishedAt: isoTimestamp(this.clock) });
  }

  /** Ends the import with its event, in one transaction (joined when called inside one). */
  private async finish(claim: ClaimedImport, outcome: ImportOutcome): Promise<void> {
    await this.uow.transaction(async (repos) => {
      const ended = await repos.imports.finish(claim, outcome);
      // Another process took the import over meanwhile: none of this may count.
      if (ended === undefined) throw new LeaseLost();
      await repos.events.append([eventOf(claim.storeId, outcome.status === 'succeeded' ? 'import.succeeded' : 'import.failed', eventData(ended))], outcome.finishedAt);
    });
  }

  /**
   * Step 3: all staged prices in one transaction; a dry run counts them, reading outside any
   * transaction (other writes need not wait for it), and ends in a short one.
   */
  private async apply(claim: ClaimedImport, staged: number, pacer: ImportPacer, changes: DryRunChanges): Promise<void> {
    // The lease is renewed outside any transaction meanwhile: a long apply must not look like a dead process.
    const keeper = this.keepLease(claim);
    try {
      if (!claim.dryRun && claim.changeSetId === null) {
        await this.applyAll(claim, pacer);
        return;
      }
      const result: ImportResult = { created: 0, deleted: 0, unchanged: 0 };
      if (claim.mode === 'add') result.created = staged;
      else await this.replace(claim, result, pacer, claim.dryRun ? { changes } : {});
      if (!claim.dryRun && claim.changeSetId !== null) await this.addToChangeSet(claim, claim.changeSetId, staged);
      await this.finish(claim, { status: 'succeeded', result, finishedAt: isoTimestamp(this.clock) });
    } finally {
      clearInterval(keeper);
    }
  }

  /**
   * An import into a change set: its staged prices become the set's operations, all of them or
   * none (`add`: a `trade_price.create` a row; `replace`: a `trade_prices.replace` of scope
   * `customer` for each customer of the file), and the book is not touched; the result counts
   * what applying them would change now, as a dry run's does. The set refusing them (it holds
   * at most 10 000 operations, it is no longer open, an operation the book refuses) fails the
   * import with its reasons.
   */
  private async addToChangeSet(claim: ClaimedImport, changeSetId: number, stagedCount: number): Promise<void> {
    if (this.changeSets === undefined) throw new Error('imports into change sets need the change set service');
    // Refused before a row is read: the operations are held in memory, so a file of millions of rows must not be.
    const most = claim.mode === 'add' ? MAX_OPERATIONS_PER_SET : MAX_CHANGE_SET_IMPORT_PRICES;
    if (stagedCount > most) {
      throw new StaleCheck([{ row: 1, field: null, message: `The file has ${stagedCount} prices; an import into a change set takes at most ${most} (${claim.mode === 'add' ? 'a set holds at most that many operations' : 'in replace mode'}); nothing was added` }]);
    }
    const staged: StagedPrice[] = [];
    for (let after = 0; ; ) {
      const batch = await this.uow.repos.imports.staged(claim.id, after, APPLY_BATCH);
      if (batch.length === 0) break;
      staged.push(...batch);
      after = batch[batch.length - 1]!.position;
    }
    let operations: ChangeSetOperation[];
    if (claim.mode === 'add') operations = staged.map((price) => ({ type: 'trade_price.create', ...asNewPrice(price) }));
    else {
      const byCustomer = new Map<number, StagedPrice[]>();
      for (const price of staged) byCustomer.set(price.customerId, [...(byCustomer.get(price.customerId) ?? []), price]);
      operations = [...byCustomer].map(([customerId, prices]) => ({
        type: 'trade_prices.replace',
        customerId,
        scope: 'customer',
        prices: prices.map(({ productId, sku, price, minQuantity, validFrom, validUntil }) => ({ productId, sku, price, minQuantity, validFrom, validUntil })),
      }));
    }
    try {
      await this.changeSets.addOperations(claim.storeId, importOrigin(claim), changeSetId, operations);
    } catch (error) {
      if (!(error instanceof AppError) || !['validation_failed', 'not_found', 'wrong_state'].includes(error.kind)) throw error;
      const reasons = (error.problems ?? []).slice(0, MAX_IMPORT_ERRORS - 1).map((problem) => ({ row: 1, field: problem.field, message: `Operation ${problem.index ?? 0}: ${problem.message}` }));
      throw new StaleCheck([{ row: 1, field: null, message: `Change set ${changeSetId} refused the file's operations; nothing was added: ${error.message}` }, ...reasons]);
    }
  }

  /**
   * Keeps a dry run's changes while it has room, STAGE_PIECE at a time (numbered as they are
   * written), each piece in a transaction that makes sure the import is still this process's,
   * with the pacer's turn after it.
   */
  private async keepChanges(claim: ClaimedImport, changes: DryRunChanges, found: readonly ImportChange[], pacer: ImportPacer): Promise<void> {
    for (let start = 0; start < found.length && changes.room > 0; start += STAGE_PIECE) {
      const piece = changes.number(found.slice(start, start + STAGE_PIECE));
      await this.uow.transaction(async (repos) => {
        if (!(await repos.imports.renew(claim, this.clock.now() + this.leaseMs))) throw new LeaseLost();
        await repos.imports.recordChanges(claim, piece);
      });
      await pacer.pace();
    }
  }

  /** Renews the claim's lease every third of its length, from outside any transaction, until cleared. */
  private keepLease(claim: ClaimedImport): NodeJS.Timeout {
    const outside = this.uow.repos;
    const timer = setInterval(() => {
      outside.imports.renew(claim, this.clock.now() + this.leaseMs).catch(() => undefined);
    }, Math.max(1000, Math.floor(this.leaseMs / 3)));
    timer.unref();
    return timer;
  }

  /** The real apply: every staged price in one transaction. */
  private async applyAll(claim: ClaimedImport, pacer: ImportPacer): Promise<void> {
    await pacer.aside(() =>
      this.uow.transaction(async (repos) => {
        // The history chain first, before any write (docs/history.md): the apply appends to it.
        await repos.history.lockChain(claim.storeId);
        const changedAt = isoTimestamp(this.clock);
        const result: ImportResult = { created: 0, deleted: 0, unchanged: 0 };
        const writes = this.writes(repos, claim, changedAt, pacer);
        if (claim.mode === 'add') {
          for (let after = 0; ; ) {
            const batch = await repos.imports.staged(claim.id, after, APPLY_BATCH);
            if (batch.length === 0) break;
            result.created += batch.length;
            await writes.create(batch.map(asNewPrice));
            after = batch[batch.length - 1]!.position;
          }
        } else {
          await this.replace(claim, result, pacer, { writes });
        }
        await this.finish(claim, { status: 'succeeded', result, finishedAt: isoTimestamp(this.clock) });
      }),
    );
  }

  /**
   * The apply's writes, as every writer of trade prices makes them (`TradePriceWrites`): in
   * batches of APPLY_BATCH with the pacer's turn after each, every batch's SKUs and customers
   * looked up again before it is created. Their history entries say `import`, with the
   * import's id, its uploader and the upload's request id.
   */
  private writes(repos: Repositories, claim: ClaimedImport, changedAt: string, pacer: ImportPacer): TradePriceWrites {
    const { storeId } = claim;
    return new TradePriceWrites(repos, storeId, importOrigin(claim), changedAt, {
      batch: APPLY_BATCH,
      pace: () => pacer.pace(),
      beforeCreate: (batch) => checkStillValid(repos, storeId, batch),
    });
  }

  /**
   * `replace`: each customer of the file gets exactly its staged prices (counted only, unless
   * `writes` are given; a dry run keeps its `changes`). A customer's prices are walked in windows of SKUs, in the database's order: its
   * staged prices of the window's SKUs against its records of the same SKUs (only equal SKUs
   * can match), then its records of SKUs between windows and after the last one, which the
   * file does not name, removed. So a customer with a million prices costs a window's worth of
   * memory at a time, not a million.
   */
  private async replace(claim: ClaimedImport, result: ImportResult, pacer: ImportPacer, { writes, changes }: { writes?: TradePriceWrites; changes?: DryRunChanges }): Promise<void> {
    const repos = this.uow.repos;
    const { storeId } = claim;
    for (const customerId of await repos.imports.stagedCustomers(claim.id)) {
      let after: string | null = null;
      for (let last = false; !last; ) {
        let window = await repos.imports.stagedBySku(claim.id, customerId, after, REPLACE_WINDOW);
        last = window.length < REPLACE_WINDOW;
        if (!last) {
          // The page may end inside its last SKU: that SKU waits for the next window, unless it
          // is the only one (then it comes whole).
          const edge = window[window.length - 1]!.sku;
          window = window.filter((price) => price.sku !== edge);
          if (window.length === 0) window = await repos.imports.stagedOfSku(claim.id, customerId, edge);
        }
        if (window.length === 0) break;
        const skus = [...new Set(window.map((price) => price.sku))];
        const upTo = window[window.length - 1]!.sku;
        const desired = [...window].sort((a, b) => a.position - b.position).map(asNewPrice);
        const diff = diffPrices(await repos.tradePrices.allOf(storeId, customerId, skus), desired);
        result.created += diff.create.length;
        result.deleted += diff.remove.length;
        result.unchanged += diff.unchanged.length;
        await pacer.pace();
        await writes?.apply(diff);
        const dropped = await this.removeRange(claim, customerId, { after, upTo, except: skus }, result, { writes, changes });
        if (changes !== undefined && changes.room > 0) await this.keepChanges(claim, changes, [...changesOfDiff(diff), ...dropped], pacer);
        after = upTo;
      }
      const dropped = await this.removeRange(claim, customerId, { after, upTo: null, except: [] }, result, { writes, changes });
      if (changes !== undefined) await this.keepChanges(claim, changes, dropped, pacer);
    }
  }

  /**
   * The customer's records of SKUs the file does not name, in `range`: removed in batches
   * (counted only without `writes`; for a dry run's `changes`, the first ones are answered).
   */
  private async removeRange(claim: ClaimedImport, customerId: number, range: SkuRange, result: ImportResult, { writes, changes }: { writes?: TradePriceWrites | undefined; changes?: DryRunChanges | undefined }): Promise<ImportChange[]> {
    const repos = this.uow.repos;
    const { storeId } = claim;
    if (writes === undefined) {
      const count = await repos.tradePrices.countCustomerRange(storeId, customerId, range);
      result.deleted += count;
      if (changes === undefined || count === 0 || changes.room === 0) return [];
      return deletedChanges(await repos.tradePrices.customerRange(storeId, customerId, range, Math.min(count, changes.room)));
    }
    for (;;) {
      // Each batch deleted is gone from the next read: the range shrinks until it is empty.
      const removed = (await repos.tradePrices.customerRange(storeId, customerId, range, APPLY_BATCH)).sort((a, b) => a.id - b.id);
      if (removed.length === 0) return [];
      result.deleted += removed.length;
      await writes.remove(removed);
    }
  }

  /**
   * Deletes an ended (or discarded) import's staged rows and file slices, in batches, then
   * unmarks it; a dry run's changes too when it did not succeed (`dropChanges`).
   */
  private async cleanup(importId: number, pacer: ImportPacer, dropChanges: boolean): Promise<void> {
    const repos = this.uow.repos;
    while ((await repos.imports.deleteStaged(importId, CLEAN_ROWS)) >= CLEAN_ROWS) await pacer.pace();
    if (dropChanges) while ((await repos.imports.deleteChanges(importId, CLEAN_ROWS)) >= CLEAN_ROWS) await pacer.pace();
    while ((await repos.imports.deleteChunks(importId, CLEAN_CHUNKS)) >= CLEAN_CHUNKS) await pacer.pace();
    await repos.imports.cleaned(importId);
  }

  /**
   * Maintenance: uploads whose process died are discarded, then the leftovers (file slices,
   * staged rows) of imports that ended more than a minute ago and were not cleaned (their
   * process died too), up to about `limit` rows; how many rows it deleted.
   */
  async purgeLeftovers(now: number, limit: number): Promise<number> {
    const repos = this.uow.repos;
    const at = new Date(now).toISOString();
    let deleted = await repos.imports.abandonUploads(new Date(now - UPLOAD_ABANDONED_MS).toISOString(), at, limit);
    for (const importId of await repos.imports.toClean(new Date(now - CLEANUP_GRACE_MS).toISOString(), 10)) {
      while (deleted < limit) {
        const rows = (await repos.imports.deleteStaged(importId, Math.min(CLEAN_ROWS, limit - deleted))) + (await repos.imports.deleteChunks(importId, CLEAN_CHUNKS));
        deleted += rows;
        if (rows === 0) {
          await repos.imports.cleaned(importId);
          deleted += 1;
          break;
        }
      }
      if (deleted >= limit) break;
    }
    return deleted;
  }

  /** Maintenance: up to `limit` imports that ended longer ago than the retention, deleted; how many. */
  purgeEnded(now: number, limit: number): Promise<number> {
    return this.uow.repos.imports.purgeEnded(new Date(now - this.retentionMs).toISOString(), limit);
  }

  /** The queue per store, for metrics: stores with imports queued or running (at most `QUEUE_METRIC_STORES`). */
  queues(): Promise<StoreImportQueue[]> {
    return this.uow.repos.imports.queues(QUEUE_METRIC_STORES);
  }
}

/** The first problems of a file, each cut to its bounds, and the count of them all. */
class ProblemList {
  readonly kept: ImportError[] = [];
  count = 0;

  add(found: readonly ImportError[]): void {
    this.count += found.length;
    for (const problem of found) {
      if (this.kept.length >= MAX_IMPORT_ERRORS) break;
      this.kept.push({
        row: problem.row,
        field: problem.field === null ? null : clip(problem.field, MAX_IMPORT_ERROR_FIELD - 1),
        message: clip(problem.message, MAX_IMPORT_ERROR_MESSAGE - 1),
      });
    }
  }
}

/** What an import's events carry: the import without its list of problems (`errorCount` stays). */
function eventData(ended: Import): ImportEventData {
  const data: Partial<Import> = { ...ended };
  delete data.errors;
  return data as ImportEventData;
}

/**
 * The check found each price's customer a trade customer and its SKU the product's, outside
 * the apply transaction: before a batch is written, inside it, they are looked up again (the
 * SKUs found stay registered to their products until it ends). A SKU renamed or deleted
 * meanwhile, or a customer no longer a trade one, fails the import: a price must never be
 * recorded against a product that does not own its SKU.
 */
async function checkStillValid(repos: Repositories, storeId: number, prices: readonly NewTradePrice[]): Promise<void> {
  const references = await repos.tradePrices.findReferences(
    storeId,
    [...new Set(prices.map((price) => price.customerId))],
    [...new Set(prices.map((price) => price.productId))],
    [...new Set(prices.map((price) => price.sku))],
  );
  const again = 'while the import ran; nothing was changed: send the file again';
  for (const price of prices) {
    if (references.skuOwners.get(price.sku) !== price.productId) {
      throw new StaleCheck([{ row: 1, field: null, message: `SKU '${clip(price.sku, 64)}' stopped belonging to product ${price.productId} (renamed or deleted) ${again}` }]);
    }
    if (references.customers.get(price.customerId)?.trade !== true) {
      throw new StaleCheck([{ row: 1, field: null, message: `Customer ${price.customerId} was deleted or stopped being a trade customer ${again}` }]);
    }
  }
}

/** The origin of an import's changes: its uploader, the upload's request, the import's id. */
function importOrigin(claim: ClaimedImport): ChangeOrigin {
  return { actor: claim.uploader.actor, source: 'import', sourceId: claim.id, requestId: claim.uploader.requestId };
}

function asNewPrice(staged: StagedPrice): NewTradePrice {
  const { customerId, productId, sku, price, minQuantity, validFrom, validUntil } = staged;
  return { customerId, productId, sku, price, minQuantity, validFrom, validUntil };
}

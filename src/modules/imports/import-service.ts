import { randomBytes } from 'node:crypto';
import { parse } from 'csv-parse';
import { type Import, type ImportError, type ImportMode, type ImportResult, MAX_IMPORT_ERRORS } from '../../contract/imports.js';
import { type Clock, isoTimestamp } from '../clock.js';
import { found, invalidField } from '../errors.js';
import { eventOf, eventsOf } from '../events/events.js';
import { fromPriceUnits, toPriceUnits } from '../money.js';
import type { Page } from '../page.js';
import { diffPrices } from '../trade-prices/price-diff.js';
import type { NewTradePrice } from '../trade-prices/trade-price-repository.js';
import type { Repositories, UnitOfWork } from '../unit-of-work.js';
import { batchStart, yieldToOtherWork } from '../yield-to-other-work.js';
import { type CsvLayout, type CsvPrice, readHeader, readRow } from './csv-format.js';
import type { ClaimedImport, StagedPrice } from './import-repository.js';

/** Records checked (and their prices staged) per batch: one short transaction each. */
const CHECK_BATCH = 2000;
/** Staged prices created per batch of the apply step (all batches in one transaction). */
const APPLY_BATCH = 2000;
/** Times an import is taken up before it is failed. */
const MAX_ATTEMPTS = 3;

/** Raised when a process lost an import it worked on (another one took it over). */
class LeaseLost extends Error {}

/**
 * CSV imports of trade prices (docs/imports.md). `create` stores the file and answers at once;
 * a background runner (`ImportRunner`) then takes imports one at a time:
 *
 * 1. **Check**, batch by batch, each its own short transaction: read the rows, look their
 *    customers and SKUs up, stage the prices; collect every problem (the first 1000 kept).
 * 2. A file with any problem **fails** and changes nothing.
 * 3. **Apply** the staged prices in one transaction, in batches with pauses between them for
 *    other work (reads of other stores never wait for it): all of it or none. `add` creates
 *    every price; `replace` gives each customer of the file exactly its prices, as the replace
 *    endpoint does (equal records stay, with their ids). A dry run counts instead.
 *
 * A process that dies mid-way leaves its lease to run out; another process (or the same one,
 * restarted) takes the import again from the start: the apply step had committed all or nothing.
 */
export class ImportService {
  private readonly queuedListeners = new Set<() => void>();

  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    /** How long a process owns an import it works on without renewing its lease (PRICEBOOK_IMPORT_LEASE). */
    private readonly leaseMs = 300_000,
  ) {}

  /** Calls `listener` whenever this process queues an import (a runner here wakes up for it). */
  whenQueued(listener: () => void): () => void {
    this.queuedListeners.add(listener);
    return () => this.queuedListeners.delete(listener);
  }

  /** Stores the file as a queued import. */
  async create(storeId: number, text: string, options: { mode: ImportMode; dryRun: boolean }): Promise<Import> {
    if (text.replace(/^\uFEFF/, '').trim() === '') throw invalidField(null, 'The file is empty: it needs a header and at least one row');
    const queued = await this.uow.transaction((repos) => repos.imports.insert(storeId, { ...options, rows: estimateRows(text) }, text, isoTimestamp(this.clock)));
    for (const listener of this.queuedListeners) listener();
    return queued;
  }

  async get(storeId: number, id: number): Promise<Import> {
    return found(await this.uow.repos.imports.find(storeId, id), `Import ${id}`);
  }

  list(storeId: number, page: Page): Promise<Import[]> {
    return this.uow.repos.imports.list(storeId, page);
  }

  count(storeId: number): Promise<number> {
    return this.uow.repos.imports.count(storeId);
  }

  /** Takes the next import to work on, if any. */
  claimNext(): Promise<ClaimedImport | undefined> {
    const now = this.clock.now();
    return this.uow.transaction((repos) => repos.imports.claim(now, now + this.leaseMs, randomBytes(12).toString('hex')));
  }

  /** Hands an import back to the queue (its process is stopping). */
  release(claim: ClaimedImport): Promise<void> {
    return this.uow.repos.imports.release(claim);
  }

  /**
   * Works an import to its end: checks, then fails or applies. `shouldStop` is asked between
   * batches; when it says so the import goes back to the queue and this resolves false.
   */
  async process(claim: ClaimedImport, shouldStop: () => boolean): Promise<boolean> {
    if (claim.attempts > MAX_ATTEMPTS) {
      // Taken up again and again without ending: something fails every time; stop trying.
      const message = `The import was interrupted ${claim.attempts - 1} times without finishing; nothing was changed. Send the file again, or split it`;
      await this.finishFailed(claim, [{ row: 1, field: null, message }], 1);
      return true;
    }
    try {
      const checked = await this.check(claim, shouldStop);
      if (checked === undefined) {
        await this.release(claim);
        return false;
      }
      if (checked.errorCount > 0) {
        await this.finishFailed(claim, checked.errors, checked.errorCount);
        return true;
      }
      await this.apply(claim);
      return true;
    } catch (error) {
      if (error instanceof LeaseLost) return true;
      throw error;
    }
  }

  /** Step 1: every row read, looked up and staged; undefined when told to stop. */
  private async check(claim: ClaimedImport, shouldStop: () => boolean): Promise<{ errors: ImportError[]; errorCount: number } | undefined> {
    const repos = this.uow.repos;
    await repos.imports.clearStaged(claim.id);
    const csv = await repos.imports.readFile(claim.id);
    if (csv === undefined) throw new Error(`import ${claim.id} has no file`);
    const errors: ImportError[] = [];
    let errorCount = 0;
    const report = (found: readonly ImportError[]) => {
      errorCount += found.length;
      errors.push(...found.slice(0, MAX_IMPORT_ERRORS - errors.length));
    };

    let layout: CsvLayout | undefined;
    let row = 0;
    let position = 0;
    let batch: Array<{ row: number; fields: string[] }> = [];
    const flush = async () => {
      const started = batchStart();
      const found: ImportError[] = [];
      const prices = batch.flatMap(({ row: at, fields }) => {
        const read = readRow(layout!, fields, at);
        found.push(...read.errors);
        return read.prices;
      });
      const resolved = await this.resolve(repos, claim.storeId, prices);
      // A batch's problems in the order of its rows (sort is stable: a row's stay in order).
      report([...found, ...resolved.errors].sort((a, b) => a.row - b.row));
      // Once the file has a problem nothing will be applied: only look for more problems.
      if (errorCount === 0) {
        const staged = resolved.prices.map((price) => ({ ...price, position: ++position }));
        await this.uow.transaction((inTransaction) => inTransaction.imports.stage(claim, staged));
      }
      const renewed = await repos.imports.progress(claim, { leaseUntil: this.clock.now() + this.leaseMs, processed: row - 1 });
      if (!renewed) throw new LeaseLost();
      batch = [];
      await yieldToOtherWork(started);
    };

    const parser = parse(csv, { bom: true, relax_column_count: true, relax_quotes: false, skip_empty_lines: true });
    let malformed = false;
    try {
      for await (const record of parser as AsyncIterable<string[]>) {
        row += 1;
        if (layout === undefined) {
          const header = readHeader(record);
          if ('errors' in header) {
            report(header.errors);
            return { errors, errorCount };
          }
          layout = header.layout;
          await repos.imports.progress(claim, { leaseUntil: this.clock.now() + this.leaseMs, processed: 0, format: layout.format });
          continue;
        }
        batch.push({ row, fields: record });
        if (batch.length >= CHECK_BATCH) {
          if (shouldStop()) return undefined;
          await flush();
        }
      }
    } catch (error) {
      // A malformed file (an unclosed quote, a quote inside a bare field): the parser says where.
      if (!(error instanceof Error) || !('code' in error) || !String(error.code).startsWith('CSV_')) throw error;
      const line = (error as { lines?: number }).lines;
      report([{ row: typeof line === 'number' && line > 0 ? line : row + 1, field: null, message: `is not valid CSV: ${error.message}` }]);
      malformed = true;
    }
    if (malformed) return { errors, errorCount };
    if (layout === undefined) {
      report([{ row: 1, field: null, message: 'The file has no header' }]);
      return { errors, errorCount };
    }
    if (batch.length > 0) await flush();
    if (row < 2 && errorCount === 0) report([{ row: 1, field: null, message: 'The file has a header and no rows' }]);
    await repos.imports.progress(claim, { leaseUntil: this.clock.now() + this.leaseMs, processed: row - 1, rows: row - 1 });
    return { errors, errorCount };
  }

  /** The prices' customers and SKUs looked up in the store: two or three queries a batch. */
  private async resolve(repos: Repositories, storeId: number, prices: readonly CsvPrice[]): Promise<{ prices: Array<Omit<StagedPrice, 'position'>>; errors: ImportError[] }> {
    const ids = [...new Set(prices.flatMap((price) => ('id' in price.customer ? [price.customer.id] : [])))];
    const emails = [...new Set(prices.flatMap((price) => ('email' in price.customer ? [price.customer.email] : [])))];
    const skus = [...new Set(prices.map((price) => price.sku))];
    const [byId, byEmail, references] = await Promise.all([
      repos.customers.tradeFlags(storeId, ids),
      repos.customers.tradeFlagsByEmail(storeId, emails),
      repos.tradePrices.findReferences(storeId, [], [], skus),
    ]);
    const errors: ImportError[] = [];
    const resolved: Array<Omit<StagedPrice, 'position'>> = [];
    for (const price of prices) {
      const customer = 'id' in price.customer ? byId.get(price.customer.id) : byEmail.get(price.customer.email.toLowerCase());
      const name = 'id' in price.customer ? `Customer ${price.customer.id}` : `Customer '${price.customer.email}'`;
      const productId = references.skuOwners.get(price.sku);
      if (customer === undefined) errors.push({ row: price.row, field: price.customerField, message: `${name} does not exist in this store` });
      else if (!customer.trade) errors.push({ row: price.row, field: price.customerField, message: `${name} is not a trade customer` });
      if (productId === undefined) errors.push({ row: price.row, field: 'sku', message: `SKU '${price.sku}' does not exist in this store` });
      if (customer === undefined || !customer.trade || productId === undefined) continue;
      resolved.push({
        customerId: customer.id,
        productId,
        sku: price.sku,
        price: toPriceUnits(price.price),
        minQuantity: price.minQuantity,
        validFrom: price.validFrom,
        validUntil: price.validUntil,
      });
    }
    return { prices: resolved, errors };
  }

  private async finishFailed(claim: ClaimedImport, errors: readonly ImportError[], errorCount: number): Promise<void> {
    await this.uow.transaction(async (repos) => {
      const finishedAt = isoTimestamp(this.clock);
      const ended = await repos.imports.finish(claim, { status: 'failed', errors, errorCount, finishedAt });
      if (ended === undefined) throw new LeaseLost();
      await repos.events.append([eventOf(claim.storeId, 'import.failed', ended)], finishedAt);
    });
  }

  /** Steps 3: all staged prices in one transaction (or counted, in a dry run). */
  private async apply(claim: ClaimedImport): Promise<void> {
    await this.uow.transaction(async (repos) => {
      const changedAt = isoTimestamp(this.clock);
      const write = !claim.dryRun;
      const result: ImportResult = { created: 0, deleted: 0, unchanged: 0 };
      if (claim.mode === 'add') {
        for (let after = 0; ; ) {
          const started = batchStart();
          const batch = await repos.imports.staged(claim.id, after, APPLY_BATCH);
          if (batch.length === 0) break;
          result.created += batch.length;
          if (write) {
            const created = await repos.tradePrices.insertMany(claim.storeId, batch.map(asNewPrice), changedAt);
            await repos.events.append(eventsOf(claim.storeId, 'trade_customer_product_price.created', created), changedAt);
          }
          after = batch[batch.length - 1]!.position;
          await yieldToOtherWork(started);
        }
      } else {
        for (const customerId of await repos.imports.stagedCustomers(claim.id)) {
          const started = batchStart();
          const desired = (await repos.imports.stagedOf(claim.id, customerId)).map(asNewPrice);
          const diff = diffPrices(await repos.tradePrices.allOf(claim.storeId, customerId), desired);
          result.created += diff.create.length;
          result.deleted += diff.remove.length;
          result.unchanged += diff.unchanged.length;
          if (write) {
            await repos.tradePrices.deleteMany(
              claim.storeId,
              diff.remove.map((record) => record.id),
            );
            await repos.events.append(eventsOf(claim.storeId, 'trade_customer_product_price.deleted', diff.remove), changedAt);
            const created = await repos.tradePrices.insertMany(claim.storeId, diff.create, changedAt);
            await repos.events.append(eventsOf(claim.storeId, 'trade_customer_product_price.created', created), changedAt);
          }
          await yieldToOtherWork(started);
        }
      }
      const finishedAt = isoTimestamp(this.clock);
      const ended = await repos.imports.finish(claim, { status: 'succeeded', result, finishedAt });
      // Another process took the import over meanwhile: none of this may count.
      if (ended === undefined) throw new LeaseLost();
      await repos.events.append([eventOf(claim.storeId, 'import.succeeded', ended)], finishedAt);
    });
  }
}

function asNewPrice(staged: StagedPrice): NewTradePrice {
  return {
    customerId: staged.customerId,
    productId: staged.productId,
    sku: staged.sku,
    price: fromPriceUnits(staged.price),
    minQuantity: staged.minQuantity,
    validFrom: staged.validFrom,
    validUntil: staged.validUntil,
  };
}

/** Data rows, counted by line ends before the file is read (exact unless a quoted field spans lines). */
function estimateRows(text: string): number {
  let lines = 0;
  let start = 0;
  for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', start)) {
    if (text.slice(start, end).trim() !== '') lines += 1;
    start = end + 1;
  }
  if (text.slice(start).trim() !== '') lines += 1;
  return Math.max(0, lines - 1);
}

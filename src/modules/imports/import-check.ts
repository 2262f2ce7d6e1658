import { type ImportError, MAX_IMPORT_ERROR_FIELD, MAX_IMPORT_ERROR_MESSAGE, MAX_IMPORT_ERRORS } from '../../contract/imports.js';
import { CsvProblem } from '../../csv/csv-problem.js';
import { CsvRecordReader, malformedOf } from '../../csv/csv-record-reader.js';
import { clip } from '../../text/clip.js';
import type { UnitOfWork } from '../shared/unit-of-work.js';
import { type CsvLayout, type CsvPrice, readHeader, readRow } from './csv-format.js';
import { createdChanges, type DryRunChanges, keepChanges } from './dry-run-changes.js';
import type { ImportCleanup } from './import-cleanup.js';
import type { ImportLeases } from './import-lease.js';
import { CHECK_CELLS, CHECK_ROWS, PACE_CELLS, STAGE_PIECE } from './import-limits.js';
import type { ImportPacer } from './import-pacing.js';
import type { ClaimedImport } from './import-repository.js';
import { type CustomerMaps, customersOf, resolvePrices } from './import-resolve.js';

/** What the check found: the first problems and the count of them all, and the prices staged (counted, for an `add` dry run). */
export interface CheckedFile {
  errors: ImportError[];
  errorCount: number;
  staged: number;
}

/**
 * Step 1 of an import, the file read slice by slice: rows read (`csv-format.ts`), customers
 * and SKUs looked up (`import-resolve.ts`) a batch at a time, prices staged in short
 * transactions under the lease; every problem counted, the first 1000 kept. Once the file has
 * a problem nothing will be applied: the rest is only read for more problems.
 */
export class ImportCheck {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly leases: ImportLeases,
    private readonly cleanup: ImportCleanup,
  ) {}

  /** Every row read, looked up and staged (counted, for an `add` dry run, its first changes kept); undefined when told to stop. */
  async run(claim: ClaimedImport, shouldStop: () => boolean, pacer: ImportPacer, changes: DryRunChanges): Promise<CheckedFile | undefined> {
    const { uow, leases } = this;
    const repos = uow.repos;
    await this.cleanup.beforeCheck(claim, pacer);
    const reader = new CsvRecordReader((seq) => repos.importContents.readChunk(claim.id, seq));
    const problems = new ProblemList();
    let layout: CsvLayout | undefined;
    let matrixCustomers: CustomerMaps | undefined;
    let row = 0;
    let position = 0;
    let batch: Array<{ row: number; fields: string[]; malformed?: string }> = [];
    let cells = 0;
    let counted = 0;
    const countOnly = claim.dryRun && claim.mode === 'add';

    const flush = async () => {
      const rows = batch;
      batch = [];
      cells = 0;
      if (rows.length === 0) return;
      const found: ImportError[] = [];
      const prices: CsvPrice[] = [];
      let sincePace = 0;
      for (const { row: at, fields, malformed } of rows) {
        if (malformed !== undefined) {
          found.push({ row: at, field: null, message: malformed });
          continue;
        }
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
      const resolved = await resolvePrices(uow.repos, claim.storeId, prices, matrixCustomers, pacer);
      // A batch's problems in the order of its rows (sort is stable: a row's stay in order).
      problems.add([...found, ...resolved.errors].sort((a, b) => a.row - b.row));
      const processed = rows[rows.length - 1]!.row - 1;
      // Once the file has a problem nothing will be applied: only look for more problems. An
      // `add` dry run needs no staged prices: it counts them.
      const staging = problems.count === 0 && !countOnly ? resolved.prices : [];
      counted += problems.count === 0 ? resolved.prices.length : 0;
      for (let start = 0; start === 0 || start < staging.length; start += STAGE_PIECE) {
        const piece = staging.slice(start, start + STAGE_PIECE).map((price) => ({ ...price, position: ++position }));
        await uow.transaction(async (inTransaction) => {
          await leases.progress(inTransaction, claim, { processed });
          if (piece.length > 0) await inTransaction.importContents.stage(claim, piece);
        });
        await pacer.pace();
      }
      // An `add` dry run's changes are its prices, kept as they are counted (the first ones).
      if (problems.count === 0 && countOnly && changes.room > 0)
        await keepChanges(leases, claim, changes, createdChanges(resolved.prices.slice(0, changes.room)), pacer);
    };

    for (;;) {
      if (shouldStop()) return undefined;
      let records: string[][] | undefined;
      try {
        records = await reader.next();
      } catch (error) {
        if (!(error instanceof CsvProblem)) throw error;
        // A row too wide or too long: what came before it is checked too. (A record whose quoting is broken is one problem; the rest is read.)
        if (layout !== undefined) await flush();
        problems.add([{ row: error.line, field: null, message: error.message }]);
        return { errors: problems.kept, errorCount: problems.count, staged: 0 };
      }
      if (records === undefined) break;
      for (const record of records) {
        row += 1;
        const cut = malformedOf(record);
        if (layout === undefined) {
          const header = cut === undefined ? readHeader(record) : { errors: [{ row, field: null, message: cut.message }] };
          if ('errors' in header) {
            problems.add(header.errors);
            return { errors: problems.kept, errorCount: problems.count, staged: 0 };
          }
          layout = header.layout;
          if (layout.format === 'matrix')
            matrixCustomers = await customersOf(
              uow.repos,
              claim.storeId,
              layout.customers.map((customer) => customer.ref),
              pacer,
            );
          await leases.progress(repos, claim, { processed: 0, format: layout.format });
          continue;
        }
        batch.push(cut === undefined ? { row, fields: record } : { row, fields: [], malformed: cut.message });
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
    await leases.progress(repos, claim, { processed: row - 1, rows: row - 1 });
    return { errors: problems.kept, errorCount: problems.count, staged: counted };
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

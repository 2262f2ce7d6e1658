import type { Kysely, Selectable } from 'kysely';
import type { Import, ImportError, ImportMode, ImportResult, ImportStatus } from '../../contract/imports.js';
import type { ClaimedImport, ImportOutcome, ImportRepository, StagedPrice } from '../../modules/imports/import-repository.js';
import type { Page } from '../../modules/page.js';
import type { ImportRowsTable, ImportsTable, Tables } from '../tables.js';
import { fromFlag, toFlag } from './values.js';

/** The columns answered: never the file. */
const IMPORT_COLUMNS = ['id', 'store_id', 'status', 'mode', 'dry_run', 'format', 'rows', 'processed', 'errors', 'error_count', 'result', 'created_at', 'finished_at'] as const;
/** 10 bound parameters a staged row: 3000 rows stay under both engines' limits. */
const STAGED_PER_INSERT = 3000;

export class KyselyImportRepository implements ImportRepository {
  constructor(private readonly db: Kysely<Tables>) {}

  async insert(storeId: number, options: { mode: ImportMode; dryRun: boolean; rows: number }, csv: string, createdAt: string): Promise<Import> {
    const row = await this.db
      .insertInto('imports')
      .values({ store_id: storeId, status: 'queued', mode: options.mode, dry_run: toFlag(options.dryRun), format: null, rows: options.rows, result: null, created_at: createdAt, finished_at: null, lease_until: null, lease_token: null })
      .returning(IMPORT_COLUMNS)
      .executeTakeFirstOrThrow();
    await this.db.insertInto('import_files').values({ import_id: row.id, store_id: storeId, csv }).execute();
    return toImport(row);
  }

  async find(storeId: number, id: number): Promise<Import | undefined> {
    const row = await this.db.selectFrom('imports').select(IMPORT_COLUMNS).where('store_id', '=', storeId).where('id', '=', id).executeTakeFirst();
    return row && toImport(row);
  }

  async list(storeId: number, page: Page): Promise<Import[]> {
    const rows = await this.db.selectFrom('imports').select(IMPORT_COLUMNS).where('store_id', '=', storeId).orderBy('id').limit(page.count).offset(page.offset).execute();
    return rows.map(toImport);
  }

  async count(storeId: number): Promise<number> {
    const row = await this.db.selectFrom('imports').select((eb) => eb.fn.countAll<number>().as('count')).where('store_id', '=', storeId).executeTakeFirstOrThrow();
    return Number(row.count);
  }

  async claim(now: number, leaseUntil: number, leaseToken: string): Promise<ClaimedImport | undefined> {
    // The candidate first, then a conditional update: of two processes taking the same one,
    // only the one whose update still finds it free gets it.
    const candidate = await this.db
      .selectFrom('imports')
      .select(['id'])
      .where((eb) => eb.or([eb('status', '=', 'queued'), eb.and([eb('status', '=', 'running'), eb('lease_until', '<', now)])]))
      .orderBy('id')
      .limit(1)
      .executeTakeFirst();
    if (candidate === undefined) return undefined;
    const taken = await this.db
      .updateTable('imports')
      .set((eb) => ({ status: 'running', lease_until: leaseUntil, lease_token: leaseToken, attempts: eb('attempts', '+', 1) }))
      .where('id', '=', candidate.id)
      .where((eb) => eb.or([eb('status', '=', 'queued'), eb.and([eb('status', '=', 'running'), eb('lease_until', '<', now)])]))
      .returning(['id', 'store_id', 'mode', 'dry_run', 'attempts'])
      .executeTakeFirst();
    return taken && { id: Number(taken.id), storeId: Number(taken.store_id), mode: taken.mode as ImportMode, dryRun: fromFlag(taken.dry_run), leaseToken, attempts: Number(taken.attempts) };
  }

  async progress(claim: ClaimedImport, update: { leaseUntil: number; processed: number; rows?: number; format?: 'long' | 'matrix' }): Promise<boolean> {
    const result = await this.db
      .updateTable('imports')
      .set({
        lease_until: update.leaseUntil,
        processed: update.processed,
        ...(update.rows !== undefined && { rows: update.rows }),
        ...(update.format !== undefined && { format: update.format }),
      })
      .where('id', '=', claim.id)
      .where('lease_token', '=', claim.leaseToken)
      .where('status', '=', 'running')
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  async release(claim: ClaimedImport): Promise<void> {
    await this.db
      .updateTable('imports')
      .set({ status: 'queued', lease_until: null, lease_token: null, processed: 0 })
      .where('id', '=', claim.id)
      .where('lease_token', '=', claim.leaseToken)
      .where('status', '=', 'running')
      .execute();
  }

  async readFile(importId: number): Promise<string | undefined> {
    const row = await this.db.selectFrom('import_files').select('csv').where('import_id', '=', importId).executeTakeFirst();
    return row?.csv;
  }

  async stage(claim: ClaimedImport, prices: readonly StagedPrice[]): Promise<void> {
    for (let start = 0; start < prices.length; start += STAGED_PER_INSERT) {
      await this.db
        .insertInto('import_rows')
        .values(
          prices.slice(start, start + STAGED_PER_INSERT).map((price) => ({
            import_id: claim.id,
            store_id: claim.storeId,
            position: price.position,
            customer_id: price.customerId,
            product_id: price.productId,
            sku: price.sku,
            price: price.price,
            min_quantity: price.minQuantity,
            valid_from: price.validFrom,
            valid_until: price.validUntil,
          })),
        )
        .execute();
    }
  }

  async clearStaged(importId: number): Promise<void> {
    await this.db.deleteFrom('import_rows').where('import_id', '=', importId).execute();
  }

  async staged(importId: number, afterPosition: number, limit: number): Promise<StagedPrice[]> {
    const rows = await this.db.selectFrom('import_rows').selectAll().where('import_id', '=', importId).where('position', '>', afterPosition).orderBy('position').limit(limit).execute();
    return rows.map(toStaged);
  }

  async stagedCustomers(importId: number): Promise<number[]> {
    const rows = await this.db.selectFrom('import_rows').select('customer_id').distinct().where('import_id', '=', importId).orderBy('customer_id').execute();
    return rows.map((row) => Number(row.customer_id));
  }

  async stagedOf(importId: number, customerId: number): Promise<StagedPrice[]> {
    const rows = await this.db.selectFrom('import_rows').selectAll().where('import_id', '=', importId).where('customer_id', '=', customerId).orderBy('position').execute();
    return rows.map(toStaged);
  }

  async finish(claim: ClaimedImport, outcome: ImportOutcome): Promise<Import | undefined> {
    const row = await this.db
      .updateTable('imports')
      .set({
        status: outcome.status,
        finished_at: outcome.finishedAt,
        lease_until: null,
        lease_token: null,
        ...(outcome.status === 'succeeded'
          ? { result: JSON.stringify(outcome.result) }
          : { errors: JSON.stringify(outcome.errors), error_count: outcome.errorCount }),
      })
      .where('id', '=', claim.id)
      .where('lease_token', '=', claim.leaseToken)
      .where('status', '=', 'running')
      .returning(IMPORT_COLUMNS)
      .executeTakeFirst();
    if (row === undefined) return undefined;
    await this.clearStaged(claim.id);
    await this.db.deleteFrom('import_files').where('import_id', '=', claim.id).execute();
    return toImport(row);
  }
}

function toImport(row: Pick<Selectable<ImportsTable>, (typeof IMPORT_COLUMNS)[number]>): Import {
  return {
    id: Number(row.id),
    status: row.status as ImportStatus,
    mode: row.mode as ImportMode,
    dryRun: fromFlag(row.dry_run),
    format: row.format as Import['format'],
    rows: row.rows === null ? null : Number(row.rows),
    processed: Number(row.processed),
    errors: JSON.parse(row.errors) as ImportError[],
    errorCount: Number(row.error_count),
    result: row.result === null ? null : (JSON.parse(row.result) as ImportResult),
    createdAt: row.created_at,
    finishedAt: row.finished_at,
  };
}

function toStaged(row: Selectable<ImportRowsTable>): StagedPrice {
  return {
    position: Number(row.position),
    customerId: Number(row.customer_id),
    productId: Number(row.product_id),
    sku: row.sku,
    price: Number(row.price),
    minQuantity: Number(row.min_quantity),
    validFrom: row.valid_from,
    validUntil: row.valid_until,
  };
}

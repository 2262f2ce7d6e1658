import { type Kysely, type Selectable, sql } from 'kysely';
import { IMPORT_CHANGE_KINDS, type ImportChange, type ImportChangeKind } from '../../contract/imports.js';
import type { ImportContentsRepository, NumberedChange, StagedPrice } from '../../modules/imports/import-contents-repository.js';
import type { ClaimedImport } from '../../modules/imports/import-repository.js';
import type { Page } from '../../modules/shared/page.js';
import { fromPriceUnits, toPriceUnits } from '../../modules/shared/money.js';
import type { Engine } from '../engine.js';
import type { Tables } from '../tables.js';
import type { ImportChangesTable, ImportRowsTable } from '../tables/import-tables.js';
import { pricedSkuOfRow } from './priced-sku-rows.js';
import { byCodePoint } from './values.js';

/** 10 bound parameters a staged row: 3000 rows stay under both engines' limits. */
const STAGED_PER_INSERT = 3000;
/** 12 bound parameters a change: 2000 (24 000 a statement) stay under both engines' limits. */
const CHANGES_PER_INSERT = 2000;

/** An import's file slices (`import_file_chunks`), staged prices (`import_rows`) and a dry run's changes (`import_changes`), each keyed `(import_id, seq or position)`. */
export class KyselyImportContentsRepository implements ImportContentsRepository {
  constructor(
    private readonly db: Kysely<Tables>,
    private readonly engine: Engine,
  ) {}

  async appendChunk(importId: number, storeId: number, seq: number, data: Buffer): Promise<void> {
    await this.db.insertInto('import_file_chunks').values({ import_id: importId, store_id: storeId, seq, data }).execute();
    await this.db
      .updateTable('imports')
      .set((eb) => ({ file_bytes: eb('file_bytes', '+', data.length) }))
      .where('id', '=', importId)
      .execute();
  }

  async readChunk(importId: number, seq: number): Promise<Buffer | undefined> {
    const row = await this.db.selectFrom('import_file_chunks').select('data').where('import_id', '=', importId).where('seq', '=', seq).executeTakeFirst();
    return row?.data;
  }

  deleteChunks(importId: number, limit: number): Promise<number> {
    return deleteFirstRows(this.db, 'import_file_chunks', 'seq', importId, limit);
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
            price: toPriceUnits(price.price),
            min_quantity: price.minQuantity,
            valid_from: price.validFrom,
            valid_until: price.validUntil,
          })),
        )
        .execute();
    }
  }

  async staged(importId: number, afterPosition: number, limit: number): Promise<StagedPrice[]> {
    const rows = await this.db
      .selectFrom('import_rows')
      .selectAll()
      .where('import_id', '=', importId)
      .where('position', '>', afterPosition)
      .orderBy('position')
      .limit(limit)
      .execute();
    return rows.map(toStaged);
  }

  async stagedCustomers(importId: number): Promise<number[]> {
    const rows = await this.db.selectFrom('import_rows').select('customer_id').distinct().where('import_id', '=', importId).orderBy('customer_id').execute();
    return rows.map((row) => Number(row.customer_id));
  }

  async stagedBySku(importId: number, customerId: number, afterSku: string | null, limit: number): Promise<StagedPrice[]> {
    let query = this.db.selectFrom('import_rows').selectAll().where('import_id', '=', importId).where('customer_id', '=', customerId);
    if (afterSku !== null) query = query.where('sku', '>', afterSku);
    const rows = await query.orderBy('sku').orderBy('position').limit(limit).execute();
    return rows.map(toStaged);
  }

  async stagedOfSku(importId: number, customerId: number, sku: string): Promise<StagedPrice[]> {
    const rows = await this.db
      .selectFrom('import_rows')
      .selectAll()
      .where('import_id', '=', importId)
      .where('customer_id', '=', customerId)
      .where('sku', '=', sku)
      .orderBy('position')
      .execute();
    return rows.map(toStaged);
  }

  deleteStaged(importId: number, limit: number): Promise<number> {
    return deleteFirstRows(this.db, 'import_rows', 'position', importId, limit);
  }

  async recordChanges(claim: ClaimedImport, changes: readonly NumberedChange[]): Promise<void> {
    for (let start = 0; start < changes.length; start += CHANGES_PER_INSERT) {
      await this.db
        .insertInto('import_changes')
        .values(
          changes.slice(start, start + CHANGES_PER_INSERT).map((change) => ({
            import_id: claim.id,
            store_id: claim.storeId,
            seq: change.seq,
            kind: change.kind,
            customer_id: change.customerId,
            sku: change.sku,
            min_quantity: change.minQuantity,
            valid_from: change.validFrom,
            valid_until: change.validUntil,
            price_before: change.before === null ? null : toPriceUnits(change.before),
            price_after: change.after === null ? null : toPriceUnits(change.after),
            trade_price_id: change.tradePriceId,
          })),
        )
        .execute();
    }
  }

  async changes(importId: number, page: Page): Promise<ImportChange[]> {
    // Along the index of migration 029, which orders SKUs the same way.
    const rows = await this.db
      .selectFrom('import_changes')
      .selectAll()
      .where('import_id', '=', importId)
      .orderBy('customer_id')
      .orderBy(byCodePoint(this.engine, 'sku'))
      .orderBy('min_quantity')
      .orderBy('seq')
      .limit(page.count)
      .offset(page.offset)
      .execute();
    return rows.map(toChange);
  }

  async changeCounts(importId: number): Promise<Record<ImportChangeKind, number>> {
    const rows = await this.db
      .selectFrom('import_changes')
      .select((eb) => ['kind', eb.fn.countAll<number>().as('n')])
      .where('import_id', '=', importId)
      .groupBy('kind')
      .execute();
    const counts = Object.fromEntries(IMPORT_CHANGE_KINDS.map((kind) => [kind, 0])) as Record<ImportChangeKind, number>;
    for (const row of rows) if ((IMPORT_CHANGE_KINDS as readonly string[]).includes(row.kind)) counts[row.kind as ImportChangeKind] = Number(row.n);
    return counts;
  }

  deleteChanges(importId: number, limit: number): Promise<number> {
    return deleteFirstRows(this.db, 'import_changes', 'seq', importId, limit);
  }
}

/**
 * Deletes up to `limit` of an import's rows of a table keyed `(import_id, key)`: the
 * `limit`-th key bounds the delete, one short statement along the primary key.
 */
export async function deleteFirstRows(
  db: Kysely<Tables>,
  table: 'import_rows' | 'import_file_chunks' | 'import_changes',
  key: 'position' | 'seq',
  importId: number,
  limit: number,
): Promise<number> {
  // Typed as one of the three: each has `import_id` and its key, which is all this reads.
  const same = table as 'import_changes';
  const column = sql.ref<number>(key);
  const edge = await db
    .selectFrom(same)
    .select(column.as('edge'))
    .where('import_id', '=', importId)
    .orderBy(column)
    .limit(1)
    .offset(limit - 1)
    .executeTakeFirst();
  let deleting = db.deleteFrom(same).where('import_id', '=', importId);
  if (edge !== undefined) deleting = deleting.where(column, '<=', edge.edge);
  const result = await deleting.executeTakeFirst();
  return Number(result.numDeletedRows);
}

function toChange(row: Selectable<ImportChangesTable>): ImportChange {
  return {
    kind: row.kind as ImportChangeKind,
    customerId: Number(row.customer_id),
    sku: row.sku,
    minQuantity: Number(row.min_quantity),
    validFrom: row.valid_from,
    validUntil: row.valid_until,
    before: row.price_before === null ? null : fromPriceUnits(Number(row.price_before)),
    after: row.price_after === null ? null : fromPriceUnits(Number(row.price_after)),
    tradePriceId: row.trade_price_id === null ? null : Number(row.trade_price_id),
  };
}

function toStaged(row: Selectable<ImportRowsTable>): StagedPrice {
  return {
    position: Number(row.position),
    customerId: Number(row.customer_id),
    ...pricedSkuOfRow(row),
  };
}

import { type Import, type ImportChange, type ImportChanges, MAX_IMPORT_CHANGES, MAX_KEPT_DRY_RUNS } from '../../contract/imports.js';
import type { TradePrice } from '../../contract/trade-prices.js';
import { AppError } from '../shared/errors.js';
import type { Page } from '../shared/page.js';
import type { PriceDiff } from '../trade-prices/price-diff.js';
import type { NewTradePrice } from '../trade-prices/trade-price-repository.js';
import type { Repositories } from '../shared/unit-of-work.js';
import type { ImportLeases } from './import-lease.js';
import { STAGE_PIECE } from './import-limits.js';
import type { ImportPacer } from './import-pacing.js';
import type { NumberedChange } from './import-contents-repository.js';
import type { ClaimedImport } from './import-repository.js';

/**
 * What a dry run would change, kept as it is found (`GET /v1/imports/{id}/changes`): each
 * change numbered in order, the first MAX_IMPORT_CHANGES kept, the rest only counted by the
 * import's `result`.
 */
export class DryRunChanges {
  private kept = 0;

  /** The changes still to be kept, numbered: none once MAX_IMPORT_CHANGES are. */
  number(changes: readonly ImportChange[]): NumberedChange[] {
    return changes.slice(0, MAX_IMPORT_CHANGES - this.kept).map((change) => ({ ...change, seq: ++this.kept }));
  }

  /** Room for this many more. */
  get room(): number {
    return MAX_IMPORT_CHANGES - this.kept;
  }
}

/**
 * Keeps `found` while `changes` has room, STAGE_PIECE at a time (numbered as they are written),
 * each piece in a transaction that makes sure the import is still this process's, with the
 * pacer's turn after it.
 */
export async function keepChanges(
  leases: ImportLeases,
  claim: ClaimedImport,
  changes: DryRunChanges,
  found: readonly ImportChange[],
  pacer: ImportPacer,
): Promise<void> {
  for (let start = 0; start < found.length && changes.room > 0; start += STAGE_PIECE) {
    const piece = changes.number(found.slice(start, start + STAGE_PIECE));
    await leases.underLease(claim, (repos) => repos.importContents.recordChanges(claim, piece));
    await pacer.pace();
  }
}

/**
 * What the dry run `run` would change, a page at a time, with the kept changes' counts; only a
 * dry run that succeeded has them (`wrong_state` otherwise: a real run's changes are in the
 * price history).
 */
export async function readChanges(repos: Repositories, run: Import, page: Page): Promise<ImportChanges> {
  const { id } = run;
  if (!run.dryRun)
    throw new AppError('wrong_state', `Import ${id} is not a dry run: what it changed is in the price history (entries of source import, sourceId ${id})`);
  if (run.status !== 'succeeded' || run.result === null) {
    const why = run.status === 'failed' ? 'it failed: its problems are in `errors`' : `it is still ${run.status}: ask again once it has succeeded`;
    throw new AppError('wrong_state', `Import ${id} has no changes to show: ${why}`);
  }
  const [counts, rows] = await Promise.all([repos.importContents.changeCounts(id), repos.importContents.changes(id, page)]);
  const total = counts.created + counts.changed + counts.deleted;
  if (total === 0 && run.result.created + run.result.deleted > 0) {
    throw new AppError(
      'wrong_state',
      `Import ${id}'s changes are no longer kept: a store's ${MAX_KEPT_DRY_RUNS} newest dry runs keep theirs (and dry runs from before changes were kept have none); check the file again`,
    );
  }
  const complete = counts.created + counts.changed === run.result.created && counts.deleted + counts.changed === run.result.deleted;
  return { importId: id, counts, complete, total, rows };
}

/** Prices of the file with no record like them. */
export function createdChanges(prices: readonly NewTradePrice[]): ImportChange[] {
  return prices.map((price) => ({ kind: 'created', ...slotOf(price), before: null, after: price.price, tradePriceId: null }));
}

/** Records the file does not keep. */
export function deletedChanges(records: readonly TradePrice[]): ImportChange[] {
  return records.map((record) => ({ kind: 'deleted', ...slotOf(record), before: record.price, after: null, tradePriceId: record.id }));
}

/**
 * A replace's diff of one customer's prices as changes: a record removed and a price created
 * for the same product, SKU, break and window are one price `changed` (old → new); the others
 * are created or deleted as they are.
 */
export function changesOfDiff(diff: PriceDiff): ImportChange[] {
  const removed = new Map<string, TradePrice[]>();
  for (const record of diff.remove) {
    const key = slotKey(record);
    removed.set(key, [...(removed.get(key) ?? []), record]);
  }
  const changes: ImportChange[] = [];
  for (const price of diff.create) {
    const replaced = removed.get(slotKey(price))?.shift();
    if (replaced === undefined) changes.push(...createdChanges([price]));
    else changes.push({ kind: 'changed', ...slotOf(price), before: replaced.price, after: price.price, tradePriceId: replaced.id });
  }
  changes.push(...deletedChanges([...removed.values()].flat()));
  return changes;
}

type Slot = Pick<ImportChange, 'customerId' | 'sku' | 'minQuantity' | 'validFrom' | 'validUntil'>;

function slotOf(price: Slot): Slot {
  const { customerId, sku, minQuantity, validFrom, validUntil } = price;
  return { customerId, sku, minQuantity, validFrom, validUntil };
}

/** A price's place: a record and a price of the file in the same place differ only in price. */
function slotKey(price: Slot & { productId: number }): string {
  return JSON.stringify([price.productId, price.sku, price.minQuantity, price.validFrom, price.validUntil]);
}

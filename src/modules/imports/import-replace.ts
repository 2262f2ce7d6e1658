import type { ImportChange, ImportResult } from '../../contract/imports.js';
import { diffPrices } from '../trade-prices/price-diff.js';
import type { SkuRange } from '../trade-prices/trade-price-repository.js';
import type { TradePriceWrites } from '../trade-prices/trade-price-writes.js';
import type { UnitOfWork } from '../shared/unit-of-work.js';
import { changesOfDiff, deletedChanges, type DryRunChanges, keepChanges } from './dry-run-changes.js';
import type { ImportLeases } from './import-lease.js';
import { APPLY_BATCH, REPLACE_WINDOW } from './import-limits.js';
import type { ImportPacer } from './import-pacing.js';
import type { ClaimedImport } from './import-repository.js';
import { asNewPrice } from './staged-prices.js';

/** How a replace walk ends its diffs: written with `writes` (the real apply), or counted only (a dry run keeps its `changes`; an import into a change set, none). */
export interface ReplaceTargets {
  writes?: TradePriceWrites | undefined;
  changes?: DryRunChanges | undefined;
}

/**
 * `replace`: each customer of the file gets exactly its staged prices. A customer's prices are
 * walked in windows of SKUs, in the database's order: its staged prices of the window's SKUs
 * against its records of the same SKUs (only equal SKUs can match), then its records of SKUs
 * between windows and after the last one, which the file does not name, removed. So a customer
 * with a million prices costs a window's worth of memory at a time, not a million.
 */
export class ImportReplace {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly leases: ImportLeases,
  ) {}

  /** Walks every customer of the file, adding what it finds to `result`. */
  async walk(claim: ClaimedImport, result: ImportResult, pacer: ImportPacer, { writes, changes }: ReplaceTargets): Promise<void> {
    const repos = this.uow.repos;
    const { storeId } = claim;
    for (const customerId of await repos.importContents.stagedCustomers(claim.id)) {
      let after: string | null = null;
      for (let last = false; !last;) {
        let window = await repos.importContents.stagedBySku(claim.id, customerId, after, REPLACE_WINDOW);
        last = window.length < REPLACE_WINDOW;
        if (!last) {
          // The page may end inside its last SKU: that SKU waits for the next window, unless it
          // is the only one (then it comes whole).
          const edge = window[window.length - 1]!.sku;
          window = window.filter((price) => price.sku !== edge);
          if (window.length === 0) window = await repos.importContents.stagedOfSku(claim.id, customerId, edge);
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
        if (changes !== undefined && changes.room > 0) await keepChanges(this.leases, claim, changes, [...changesOfDiff(diff), ...dropped], pacer);
        after = upTo;
      }
      const dropped = await this.removeRange(claim, customerId, { after, upTo: null, except: [] }, result, { writes, changes });
      if (changes !== undefined) await keepChanges(this.leases, claim, changes, dropped, pacer);
    }
  }

  /**
   * The customer's records of SKUs the file does not name, in `range`: removed in batches
   * (counted only without `writes`; for a dry run's `changes`, the first ones are answered).
   */
  private async removeRange(
    claim: ClaimedImport,
    customerId: number,
    range: SkuRange,
    result: ImportResult,
    { writes, changes }: ReplaceTargets,
  ): Promise<ImportChange[]> {
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
}

import type { ImportResult } from '../../contract/imports.js';
import { clip } from '../../text/clip.js';
import { type Clock, isoTimestamp } from '../shared/clock.js';
import type { NewTradePrice } from '../trade-prices/trade-price-repository.js';
import { TradePriceWrites } from '../trade-prices/trade-price-writes.js';
import type { Repositories, UnitOfWork } from '../shared/unit-of-work.js';
import type { DryRunChanges } from './dry-run-changes.js';
import type { ImportChangeSetBridge } from './import-change-set.js';
import { type ImportLeases, importOrigin, StaleCheck } from './import-lease.js';
import { APPLY_BATCH } from './import-limits.js';
import type { ImportPacer } from './import-pacing.js';
import type { ImportReplace } from './import-replace.js';
import type { ClaimedImport } from './import-repository.js';
import { asNewPrice, stagedBatches } from './staged-prices.js';

/**
 * Step 3 of an import that found no problem: the staged prices applied in one transaction, in
 * batches with pauses between them for other work, all of it or none. `add` creates every price;
 * `replace` gives each customer of the file exactly its prices, as the replace endpoint does
 * (equal records stay, with their ids). A dry run, or an import into a change set, counts
 * instead, reading outside any write transaction (other writes need not wait for it), and ends
 * in a short one.
 */
export class ImportApply {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly leases: ImportLeases,
    private readonly replace: ImportReplace,
    private readonly changeSet: ImportChangeSetBridge,
  ) {}

  /** Applies (or counts) the `staged` prices the check staged, and ends the import as succeeded. */
  async run(claim: ClaimedImport, staged: number, pacer: ImportPacer, changes: DryRunChanges): Promise<void> {
    // The lease is renewed outside any transaction meanwhile: a long apply must not look like a dead process.
    const stopKeeping = this.leases.keepAlive(claim);
    try {
      if (!claim.dryRun && claim.changeSetId === null) {
        await this.applyAll(claim, pacer);
        return;
      }
      const result: ImportResult = { created: 0, deleted: 0, unchanged: 0 };
      if (claim.mode === 'add') result.created = staged;
      else await this.replace.walk(claim, result, pacer, claim.dryRun ? { changes } : {});
      if (!claim.dryRun && claim.changeSetId !== null) await this.changeSet.addStaged(claim, claim.changeSetId, staged);
      await this.leases.finish(claim, { status: 'succeeded', result, finishedAt: isoTimestamp(this.clock) });
    } finally {
      stopKeeping();
    }
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
          for await (const batch of stagedBatches(repos, claim.id)) {
            result.created += batch.length;
            await writes.create(batch.map(asNewPrice));
          }
        } else {
          await this.replace.walk(claim, result, pacer, { writes });
        }
        await this.leases.finish(claim, { status: 'succeeded', result, finishedAt: isoTimestamp(this.clock) });
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
      throw new StaleCheck([
        { row: 1, field: null, message: `SKU '${clip(price.sku, 64)}' stopped belonging to product ${price.productId} (renamed or deleted) ${again}` },
      ]);
    }
    if (references.customers.get(price.customerId)?.trade !== true) {
      throw new StaleCheck([{ row: 1, field: null, message: `Customer ${price.customerId} was deleted or stopped being a trade customer ${again}` }]);
    }
  }
}

import { type Clock, isoTimestamp } from '../shared/clock.js';
import type { UnitOfWork } from '../shared/unit-of-work.js';
import { signCheckpoint } from './checkpoint-signature.js';

export interface HistoryRetentionOptions {
  /** Entries older than this are cut (`PRICEBOOK_HISTORY_RETENTION`, in days). */
  retentionMs: number;
  /** The history key (`PRICEBOOK_HISTORY_KEY`) that signs each checkpoint. */
  key: string;
  /** Stores looked at per call, at most. Default 100. */
  storesPerCall?: number;
}

/**
 * The retention of the price history, a task of the maintenance loop: cuts each store's
 * oldest entries once they are older than the retention period, and leaves the store's
 * checkpoint (the last entry cut, signed) so that what remains still verifies from it.
 *
 * A cut removes only a stretch at the start of a chain, in seq order, and stops at the first
 * entry inside the period. Each cut is one short transaction holding the store's chain lock
 * (two maintenance processes never move one checkpoint backwards). The deleted trade prices
 * and list entries that as-of reads use are not the history's: they are not cut.
 */
export class HistoryRetention {
  private readonly storesPerCall: number;
  /** The store the last call ended at: calls take turns over the stores. */
  private afterStoreId = 0;

  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly options: HistoryRetentionOptions,
  ) {
    this.storesPerCall = options.storesPerCall ?? 100;
  }

  /** Cuts up to `limit` entries due at `now`, store after store; answers how many it cut. */
  async purge(now: number, limit: number): Promise<number> {
    const horizon = new Date(now - this.options.retentionMs).toISOString();
    const stores = await this.uow.repos.stores.page(this.afterStoreId, this.storesPerCall);
    this.afterStoreId = stores.length < this.storesPerCall ? 0 : stores.at(-1)!.id;
    let cut = 0;
    for (const store of stores) {
      cut += await this.cutStore(store.id, horizon, limit - cut);
      if (cut >= limit) {
        // The store may have more due: the next call starts at it. (Starting at the store after
        // it, the loop saw a call that cut nothing and rested, with this store's backlog left.)
        this.afterStoreId = store.id - 1;
        break;
      }
    }
    return cut;
  }

  /** Cuts up to `limit` of the store's oldest entries with `at` before `horizon`. */
  cutStore(storeId: number, horizon: string, limit: number): Promise<number> {
    return this.uow.transaction(async (repos) => {
      await repos.history.lockChain(storeId);
      const checkpoint = await repos.history.checkpoint(storeId);
      const oldest = await repos.history.chain(storeId, { seq: checkpoint?.seq ?? 0, id: Number.MAX_SAFE_INTEGER }, limit);
      const due = oldest.findIndex((entry) => entry.at >= horizon);
      const last = oldest[(due === -1 ? oldest.length : due) - 1];
      if (last === undefined) return 0;
      const next = { storeId, seq: last.seq, hash: last.hash, lastCutAt: last.at, cutAt: isoTimestamp(this.clock) };
      return repos.history.cut({ ...next, signature: signCheckpoint(this.options.key, next) });
    });
  }
}

import type { EventTopic } from '../../contract/events.js';
import { deleteInBatches } from '../shared/batched-delete.js';
import { eventOf, eventsOf } from '../events/events.js';
import type { ChangeOrigin, HistoryRecord } from '../history/history-entry.js';
import type { Repositories } from '../shared/unit-of-work.js';

/**
 * What tells one kind of priced record (a trade price, a list entry) from another: its
 * repository's writes, its events' topics, its history record, and how it is paced unless a
 * writer says otherwise. `Scope` is what a creation or deletion names besides the records (a
 * list entry's list; nothing, `void`, for a trade price); `Owner`, whose records a cascade takes.
 */
export interface PricedRecordKind<Stored extends { id: number }, New, Scope, Owner> {
  created: EventTopic;
  deleted: EventTopic;
  historyRecord(before: Stored | null, after: Stored | null): HistoryRecord;
  /** Records per batch by default. */
  batch: number;
  /** Between batches by default. */
  pace: () => Promise<void>;
  /** The records come back in the order given. */
  insert(repos: Repositories, storeId: number, items: readonly New[], createdAt: string, scope: Scope): Promise<Stored[]>;
  deleteMany(repos: Repositories, storeId: number, ids: readonly number[], deletedAt: string, scope: Scope): Promise<void>;
  /** The deleted record, or undefined when there was none. */
  deleteOne(repos: Repositories, storeId: number, id: number, deletedAt: string, scope: Scope): Promise<Stored | undefined>;
  /** The `limit` lowest-id records of `owner` above `afterId`, deleted and returned in id order. */
  deleteBatchOf(repos: Repositories, storeId: number, owner: Owner, afterId: number, limit: number, deletedAt: string): Promise<Stored[]>;
  /** Deleted records put back with their own ids, `createdAt` the moment they come back. */
  restore(repos: Repositories, storeId: number, records: readonly Stored[], createdAt: string): Promise<Stored[]>;
}

export interface PricedRecordWritesOptions<New> {
  /** Records per batch; default the kind's. */
  batch?: number;
  /** Between batches (and after the last creation, so a commit gets a turn of its own); default the kind's. */
  pace?: () => Promise<void>;
  /** Before each batch is created, inside the transaction: throws to refuse it (an import checks its SKUs again). */
  beforeCreate?: (batch: readonly New[]) => Promise<void>;
}

/**
 * The one way priced records change: every writer of trade prices or list entries goes
 * through an instance of it (`TradePriceWrites`, `PriceListEntryWrites`) inside its own
 * transaction. Each record created or deleted gets its event here and nowhere else, in the
 * order of the writes, and its price history entry (`origin` says who made it and how) right
 * after, in the same transaction: no writer can bypass either. The store's history chain is
 * locked before the first write (its callers lock it first of all, at the start of their
 * transaction; taking it again costs nothing).
 *
 * Work is bounded: records go in batches (`batch`), each followed by `pace`, a turn of the
 * event loop at most, not a pause: the transaction holds SQLite's one writer, and a pause would
 * be time other writes wait.
 */
export class PricedRecordWrites<Stored extends { id: number }, New, Scope, Owner> {
  private readonly batch: number;
  private readonly pace: () => Promise<void>;
  private locked = false;

  constructor(
    private readonly kind: PricedRecordKind<Stored, New, Scope, Owner>,
    private readonly repos: Repositories,
    private readonly storeId: number,
    /** Who makes the changes and how: every history entry written here carries it. */
    private readonly origin: ChangeOrigin,
    /** When the changes happen: the records' `createdAt` and their events'. */
    private readonly changedAt: string,
    private readonly options: PricedRecordWritesOptions<New> = {},
  ) {
    this.batch = options.batch ?? kind.batch;
    this.pace = options.pace ?? kind.pace;
  }

  /** Creates the records, each with its `…created` event; they come back in the order given. */
  async create(items: readonly New[], scope: Scope): Promise<Stored[]> {
    const created: Stored[] = [];
    for (let start = 0; start < items.length; start += this.batch) {
      const batch = items.slice(start, start + this.batch);
      await this.lock();
      await this.options.beforeCreate?.(batch);
      const records = await this.kind.insert(this.repos, this.storeId, batch, this.changedAt, scope);
      await this.repos.events.append(eventsOf(this.storeId, this.kind.created, records), this.changedAt);
      // The rows, then their history, each a stretch of work of its own (on SQLite, a batch's
      // statements run on the event loop: together they held it past 50 ms).
      await this.pace();
      await this.record(records.map((record) => this.kind.historyRecord(null, record)));
      created.push(...records);
      await this.pace();
    }
    return created;
  }

  /** Deletes these records, each with its `…deleted` event, in the order given. */
  async remove(records: readonly Stored[], scope: Scope): Promise<void> {
    for (let start = 0; start < records.length; start += this.batch) {
      const batch = records.slice(start, start + this.batch);
      await this.lock();
      await this.kind.deleteMany(
        this.repos,
        this.storeId,
        batch.map((record) => record.id),
        this.changedAt,
        scope,
      );
      await this.repos.events.append(eventsOf(this.storeId, this.kind.deleted, batch), this.changedAt);
      await this.pace();
      await this.record(batch.map((record) => this.kind.historyRecord(record, null)));
      await this.pace();
    }
  }

  /**
   * Puts deleted records back as they were, with their own ids (a change set's revert): each
   * with its `…created` event and a `created` history entry, the record's `createdAt` the
   * moment it comes back. An id keeps its place in the tie rule.
   */
  async restore(records: readonly Stored[]): Promise<Stored[]> {
    const restored: Stored[] = [];
    for (let start = 0; start < records.length; start += this.batch) {
      await this.lock();
      const batch = await this.kind.restore(this.repos, this.storeId, records.slice(start, start + this.batch), this.changedAt);
      await this.repos.events.append(eventsOf(this.storeId, this.kind.created, batch), this.changedAt);
      await this.record(batch.map((record) => this.kind.historyRecord(null, record)));
      restored.push(...batch);
      await this.pace();
    }
    return restored;
  }

  /** A diff made real: its removals first, then its creations (so the feed reads as one write would make it); the created records in `diff.create`'s order. */
  async apply(diff: { create: readonly New[]; remove: readonly Stored[] }, scope: Scope): Promise<Stored[]> {
    await this.remove(diff.remove, scope);
    return this.create(diff.create, scope);
  }

  /** Deletes one record with its event; undefined when there is no record `id` (in `scope`). */
  async removeById(id: number, scope: Scope): Promise<Stored | undefined> {
    await this.lock();
    const deleted = await this.kind.deleteOne(this.repos, this.storeId, id, this.changedAt, scope);
    if (deleted !== undefined) {
      await this.repos.events.append([eventOf(this.storeId, this.kind.deleted, deleted)], this.changedAt);
      await this.record([this.kind.historyRecord(deleted, null)]);
    }
    return deleted;
  }

  /** Deletes every record of `owner` (a cascade), in id order, in bounded batches with their events. */
  async removeAllOf(owner: Owner): Promise<void> {
    await this.lock();
    await deleteInBatches(
      (afterId, limit) => this.kind.deleteBatchOf(this.repos, this.storeId, owner, afterId, limit, this.changedAt),
      async (batch) => {
        await this.repos.events.append(eventsOf(this.storeId, this.kind.deleted, batch), this.changedAt);
        await this.record(batch.map((record) => this.kind.historyRecord(record, null)));
      },
    );
  }

  /** The store's history chain, locked once before the first write (rule: lock before writing). */
  private async lock(): Promise<void> {
    if (this.locked) return;
    await this.repos.history.lockChain(this.storeId);
    this.locked = true;
  }

  private record(records: readonly HistoryRecord[]): Promise<void> {
    return this.repos.history.append(this.storeId, this.changedAt, this.origin, records);
  }
}

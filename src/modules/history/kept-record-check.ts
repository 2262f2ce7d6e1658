import { PriceListPrice } from '../../contract/price-lists.js';
import { TradePrice } from '../../contract/trade-prices.js';
import type { Repositories } from '../shared/unit-of-work.js';
import type { BreakList } from './chain-break.js';
import { canonicalJson } from './history-chain.js';
import type { HistoryEntry } from './history-entry.js';
import { KEPT_START, type KeptRecord, type KeptResource } from './history-repository.js';

/** The kept resources, their names in messages and their tables'. */
const KEPT: Record<KeptResource, { noun: string; live: string; deleted: string; fields: readonly string[] }> = {
  trade_price: { noun: 'trade price', live: 'trade_prices', deleted: 'trade_prices_deleted', fields: Object.keys(TradePrice.properties) },
  price_list_entry: { noun: 'list entry', live: 'price_list_prices', deleted: 'price_list_prices_deleted', fields: Object.keys(PriceListPrice.properties) },
};
const KEPT_RESOURCES = Object.keys(KEPT) as KeptResource[];

function isKept(resource: string): resource is KeptResource {
  return Object.hasOwn(KEPT, resource);
}

/**
 * The trade prices and list entries that as-of reads use are rows of their own tables, live
 * and deleted (docs/history.md, "As-of reads"), outside the hash chain. This checks them
 * against the entries that created and deleted them, both ways:
 * - each entry's record is a row: a `created` entry's the live row (or, deleted since, the
 *   deleted row) with its id and `createdAt`; a `deleted` entry's the deleted row with its id,
 *   `createdAt` and the entry's moment as `deleted_at`; every field as the entry has it
 *   (`entries`, batch by batch of the chain's walk; a row that went is compared with the entry
 *   that deleted it);
 * - each row has its entry: a live row created after `boundary` its `created` entry, a deleted
 *   row that went after it its `deleted` entry (`rows`, a walk of the tables).
 * So a row edited, put in or taken out behind the API's back shows, and as-of answers are
 * those the history records. `boundary`: records created (deleted) at or before it may have no
 * entry (older than the history, or cut by retention).
 */
export class KeptRecordCheck {
  /** Rows (live and deleted) checked against their entries. */
  checked = 0;

  constructor(
    private readonly repos: Repositories,
    private readonly storeId: number,
    private readonly breaks: BreakList,
    private readonly batchSize: number,
    private readonly boundary: string | null,
  ) {}

  /** Each of these entries' records must be a row as the entry has it. */
  async entries(batch: readonly HistoryEntry[]): Promise<void> {
    for (const resource of KEPT_RESOURCES) {
      const entries = batch.filter((entry) => entry.resource === resource && (entry.change === 'created' || entry.change === 'deleted'));
      if (entries.length === 0) continue;
      const rows = await this.repos.history.keptRecordsOf(
        this.storeId,
        resource,
        entries.map((entry) => entry.resourceId),
      );
      for (const entry of entries) this.checkEntry(entry, rows);
    }
  }

  /** Each row that went after the boundary must have the entry that made or deleted it. */
  async rows(onProgress: (checked: number) => void): Promise<void> {
    for (const resource of KEPT_RESOURCES) {
      for (const deleted of [false, true]) {
        for (let cursor = KEPT_START; ;) {
          const { records, next } = await this.repos.history.keptRecords(this.storeId, resource, deleted, cursor, this.batchSize);
          const needing = records.filter((row) => this.boundary === null || (row.deletedAt ?? row.record.createdAt) > this.boundary);
          const entries = await this.repos.history.entriesOf(
            this.storeId,
            resource,
            needing.map((row) => row.record.id),
          );
          for (const row of needing) this.checkRow(row, entries);
          this.checked += records.length;
          if (records.length > 0) onProgress(this.checked);
          if (records.length < this.batchSize) break;
          cursor = next;
        }
      }
    }
  }

  private checkEntry(entry: HistoryEntry, rows: readonly KeptRecord[]): void {
    if (!isKept(entry.resource)) return;
    const kept = KEPT[entry.resource];
    const recorded = parsed(entry.change === 'created' ? entry.after : entry.before);
    if (recorded === undefined) {
      this.breaks.add(entry.seq, 'edited', `its record is not a ${kept.noun}`);
      return;
    }
    const sameStretch = (row: KeptRecord) => row.record.id === entry.resourceId && row.record.createdAt === recorded.createdAt;
    const row = entry.change === 'created' ? rows.find(sameStretch) : rows.find((candidate) => sameStretch(candidate) && candidate.deletedAt === entry.at);
    if (row === undefined) {
      const where =
        entry.change === 'created'
          ? `neither in ${kept.live} nor in ${kept.deleted}`
          : `not in ${kept.deleted} (as-of reads before its deletion no longer see it)`;
      this.breaks.add(
        entry.seq,
        'removed',
        `${kept.noun} ${entry.resourceId}, which this entry ${entry.change === 'created' ? 'created' : 'deleted'}, is ${where}`,
      );
      return;
    }
    // A stretch that ended is compared with the entry that deleted it: one row, one break.
    if (entry.change === 'created' && row.deletedAt !== null) return;
    const differs = kept.fields.find(
      (field) => canonicalJson((row.record as Record<string, unknown>)[field] ?? null) !== canonicalJson(recorded[field] ?? null),
    );
    if (differs !== undefined) {
      const table = row.deletedAt === null ? kept.live : kept.deleted;
      const stored = canonicalJson((row.record as Record<string, unknown>)[differs] ?? null);
      this.breaks.add(
        entry.seq,
        'edited',
        `${kept.noun} ${entry.resourceId} in ${table} differs from this entry: its ${differs} is ${stored} where the entry has ${canonicalJson(recorded[differs] ?? null)}`,
      );
    }
  }

  private checkRow(row: KeptRecord, entries: readonly HistoryEntry[]): void {
    const kept = KEPT[row.resource];
    const { id, createdAt } = row.record;
    const madeIt = entries.some((entry) => {
      if (entry.resourceId !== id) return false;
      if (row.deletedAt === null) return entry.change === 'created' && parsed(entry.after)?.createdAt === createdAt;
      return entry.change === 'deleted' && entry.at === row.deletedAt && parsed(entry.before)?.createdAt === createdAt;
    });
    if (madeIt) return;
    const detail =
      row.deletedAt === null
        ? `${kept.noun} ${id} is live (created ${createdAt}, after the history began), but no entry records its creation`
        : `${kept.deleted} holds ${kept.noun} ${id} deleted at ${row.deletedAt}, but no entry records that deletion`;
    this.breaks.add(null, 'inserted', detail);
  }
}

/** A record as an entry stores it (canonical JSON), or undefined when it is not an object. */
function parsed(text: string | null): (Record<string, unknown> & { createdAt?: unknown }) | undefined {
  if (text === null) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

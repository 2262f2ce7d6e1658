import type { Repositories, UnitOfWork } from '../shared/unit-of-work.js';
import { BreakList, type ChainBreak } from './chain-break.js';
import { checkpointSignatureHolds } from './checkpoint-signature.js';
import { GENESIS_HASH, chainHash } from './history-chain.js';
import type { HistoryEntry } from './history-entry.js';
import type { ChainCursor, ChainHead, HistoryCheckpoint } from './history-repository.js';
import { KeptRecordCheck } from './kept-record-check.js';

export interface ChainReport {
  storeId: number;
  /** Entries checked (those after the checkpoint, when retention has cut). */
  entries: number;
  /** Live and deleted trade prices and list entries checked against the entries. */
  records: number;
  /** The chain's last entry as walked; null when the store has no history. */
  head: ChainHead | null;
  /** Where the walk began after a retention cut; null when it began at the genesis hash. */
  checkpoint: { seq: number; hash: string; lastCutAt: string } | null;
  /** Heads recorded elsewhere (`--expect-head`, `--anchors`) that the chain was checked to pass through. */
  anchors: number;
  /** Every break found, in the order found: the first MAX_BREAKS_LISTED. Empty when the history holds. */
  broken: ChainBreak[];
  /** How many breaks were found in all. */
  brokenCount: number;
}

/** Thrown when a store has a checkpoint but no key was given to check its signature. */
export class HistoryKeyMissing extends Error {}

export interface ChainVerifierOptions {
  /** The history key (`PRICEBOOK_HISTORY_KEY`): needed for a store whose history was cut. */
  key: string | undefined;
  /** Entries (and records) read per query. Default 1000. */
  batchSize?: number;
  /** Heads recorded earlier, by store: the chain must still pass through each. */
  anchors?: ReadonlyMap<number, readonly ChainHead[]>;
  /** Called after every batch: what is being checked, how many so far, and about how many there are (null when unknown). */
  onProgress?: (storeId: number, phase: 'entries' | 'records', checked: number, total: number | null) => void;
}

/**
 * `pricebook history verify`: walks a store's chain in seq order, in bounded batches, from the
 * genesis hash (or the signed checkpoint a retention cut left), recomputing each entry's hash,
 * checks that the head row agrees with the last entry and that the chain passes through every
 * anchor given, then checks the trade prices and list entries that as-of reads use, live and
 * deleted, against the entries that created and deleted them (`KeptRecordCheck`). It goes on
 * past a break, so that one broken entry cannot hide later ones, and reports every break.
 * Everything is read in one read-only snapshot: it runs beside serving instances, and sees the
 * database as it was when it began.
 */
export class ChainVerifier {
  private readonly batchSize: number;

  constructor(
    private readonly uow: UnitOfWork,
    private readonly options: ChainVerifierOptions,
  ) {
    this.batchSize = options.batchSize ?? 1000;
  }

  verify(storeId: number): Promise<ChainReport> {
    return this.uow.snapshot((repos) => this.walk(repos, storeId));
  }

  private async walk(repos: Repositories, storeId: number): Promise<ChainReport> {
    const { history } = repos;
    const checkpoint = await history.checkpoint(storeId);
    const breaks = new BreakList();
    const report: ChainReport = {
      storeId,
      entries: 0,
      records: 0,
      head: checkpoint === undefined ? null : { seq: checkpoint.seq, hash: checkpoint.hash },
      checkpoint: checkpoint === undefined ? null : { seq: checkpoint.seq, hash: checkpoint.hash, lastCutAt: checkpoint.lastCutAt },
      anchors: 0,
      broken: breaks.listed,
      brokenCount: 0,
    };
    if (checkpoint !== undefined) {
      if (this.options.key === undefined)
        throw new HistoryKeyMissing(`store ${storeId}'s history was cut by retention: set PRICEBOOK_HISTORY_KEY to check its checkpoint's signature`);
      if (!checkpointSignatureHolds(this.options.key, checkpoint)) {
        breaks.add(checkpoint.seq, 'edited', 'the retention checkpoint’s signature does not hold: it was edited, or signed under another key');
      }
    }
    const headRow = await history.readHead(storeId);
    const records = new KeptRecordCheck(repos, storeId, breaks, this.batchSize, await boundaryOf(repos, checkpoint));
    const chain = new ChainWalk(checkpoint, breaks, this.options.anchors?.get(storeId) ?? []);
    const start = checkpoint?.seq ?? 0;
    const total = Math.max(0, (headRow?.seq ?? start) - start);
    for (let cursor: ChainCursor = { seq: 0, id: 0 }; ;) {
      const batch = await history.chain(storeId, cursor, this.batchSize);
      for (const entry of batch) chain.step(entry);
      await records.entries(batch);
      report.entries = chain.walked;
      this.options.onProgress?.(storeId, 'entries', chain.walked, Math.max(total, chain.walked));
      const last = batch.at(-1);
      if (last === undefined || batch.length < this.batchSize) break;
      cursor = { seq: last.seq, id: last.id };
    }
    chain.end(headRow);
    report.head = chain.head;
    report.anchors = chain.anchorsChecked;
    await records.rows((checked) => this.options.onProgress?.(storeId, 'records', checked, null));
    report.records = records.checked;
    report.brokenCount = breaks.count;
    return report;
  }
}

/**
 * Records created (or deleted) at or before this moment may have no entry: they are older than
 * the history, or their entries were cut by retention. Null: every record must have its entries.
 */
async function boundaryOf(repos: Repositories, checkpoint: HistoryCheckpoint | undefined): Promise<string | null> {
  const startedAt = await repos.history.startedAt();
  if (checkpoint === undefined) return startedAt;
  return startedAt === null || checkpoint.lastCutAt > startedAt ? checkpoint.lastCutAt : startedAt;
}

/** The walk of one chain's entries in (seq, row id) order: each entry against its predecessor, and the anchors. */
class ChainWalk {
  walked = 0;
  anchorsChecked = 0;
  head: ChainHead | null;
  private previous: string;
  /** Whether `previous` is the hash of the entry just before `expected` (not across a gap). */
  private follows = true;
  private expected: number;
  private readonly start: number;
  private readonly anchors: Map<number, string[]>;

  constructor(
    private readonly checkpoint: HistoryCheckpoint | undefined,
    private readonly breaks: BreakList,
    anchors: readonly ChainHead[],
  ) {
    this.start = checkpoint?.seq ?? 0;
    this.expected = this.start + 1;
    this.previous = checkpoint?.hash ?? GENESIS_HASH;
    this.head = checkpoint === undefined ? null : { seq: checkpoint.seq, hash: checkpoint.hash };
    this.anchors = new Map();
    for (const anchor of anchors) this.anchors.set(anchor.seq, [...(this.anchors.get(anchor.seq) ?? []), anchor.hash]);
    // An anchor at the checkpoint is checked against it; one before it was cut with its entry.
    for (const [seq, hashes] of this.anchors) {
      if (seq > this.start) continue;
      if (seq === this.start && this.checkpoint !== undefined) for (const hash of hashes) this.checkAnchor(seq, hash, this.checkpoint.hash);
      this.anchors.delete(seq);
    }
  }

  step(entry: HistoryEntry): void {
    const { breaks } = this;
    if (entry.seq <= this.start) {
      breaks.add(entry.seq, 'inserted', `an entry at or before the retention checkpoint (seq ${this.start}), where every entry was cut`);
      return;
    }
    if (entry.seq < this.expected) {
      breaks.add(entry.seq, 'inserted', 'a second entry with this seq');
      return;
    }
    if (entry.seq > this.expected) {
      breaks.add(
        this.expected,
        'removed',
        entry.seq === this.expected + 1 ? `entry ${this.expected} is missing` : `entries ${this.expected} to ${entry.seq - 1} are missing`,
      );
      this.expected = entry.seq;
      this.follows = false;
    }
    if (this.follows && entry.prevHash !== this.previous) {
      breaks.add(
        entry.seq,
        'inserted',
        `its prevHash is not the hash of entry ${entry.seq - 1}: an entry was put in before it (or entry ${entry.seq - 1} replaced)`,
      );
    }
    if (chainHash(entry.prevHash, entry) !== entry.hash) breaks.add(entry.seq, 'edited', 'its hash does not match its content');
    for (const hash of this.anchors.get(entry.seq) ?? []) this.checkAnchor(entry.seq, hash, entry.hash);
    this.anchors.delete(entry.seq);
    this.previous = entry.hash;
    this.follows = true;
    this.expected += 1;
    this.walked += 1;
    this.head = { seq: entry.seq, hash: entry.hash };
  }

  /** After the last entry: the head row must agree with it, and no anchor may lie past it. */
  end(headRow: ChainHead | undefined): void {
    const { breaks } = this;
    const lastSeq = this.expected - 1;
    if (headRow === undefined) {
      if (lastSeq > 0) breaks.add(lastSeq, 'removed', 'the store’s chain head row is missing');
    } else if (headRow.seq < lastSeq) {
      breaks.add(headRow.seq + 1, 'inserted', `past the chain head (seq ${headRow.seq})`);
    } else if (headRow.seq > lastSeq) {
      breaks.add(
        lastSeq + 1,
        'removed',
        headRow.seq === lastSeq + 1 ? `entry ${headRow.seq}, the last, is missing` : `entries ${lastSeq + 1} to ${headRow.seq}, the last, are missing`,
      );
    } else if (headRow.hash !== this.previous) {
      breaks.add(headRow.seq, 'edited', 'the chain head’s hash is not the last entry’s');
    }
    for (const [seq, hashes] of this.anchors) {
      for (const hash of hashes) {
        this.anchorsChecked += 1;
        breaks.add(seq, 'removed', `the chain ends at entry ${lastSeq}, before the anchor’s entry ${seq} (hash ${hash.slice(0, 12)}…): it was cut short`);
      }
    }
  }

  private checkAnchor(seq: number, expected: string, found: string): void {
    this.anchorsChecked += 1;
    if (expected !== found)
      this.breaks.add(seq, 'edited', `entry ${seq}’s hash is not the anchor’s (${expected.slice(0, 12)}…): the chain was written again from here or before`);
  }
}

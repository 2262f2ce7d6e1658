import type { UnitOfWork } from '../unit-of-work.js';
import { checkpointSignatureHolds } from './checkpoint-signature.js';
import { GENESIS_HASH, chainHash } from './history-chain.js';
import type { ChainCursor, ChainHead, HistoryCheckpoint } from './history-repository.js';

/**
 * What a broken chain says happened to a row behind the API's back: its content no longer
 * matches its hash (`edited`), a seq is missing (`removed`), or a row is where none was
 * appended (`inserted`: its prevHash is not its predecessor's hash, a second row of one seq,
 * a row past the head or before the retention checkpoint).
 */
export type ChainProblem = 'edited' | 'removed' | 'inserted';

export interface ChainBreak {
  /** The first entry that does not hold. */
  seq: number;
  problem: ChainProblem;
  detail: string;
}

export interface ChainReport {
  storeId: number;
  /** Entries checked (those after the checkpoint, when retention has cut). */
  entries: number;
  /** The chain's last entry as verified (the head row agrees with it when `broken` is undefined); null when the store has no history. */
  head: ChainHead | null;
  /** Where the walk began after a retention cut; null when it began at the genesis hash. */
  checkpoint: { seq: number; hash: string; lastCutAt: string } | null;
  broken?: ChainBreak;
}

/** Thrown when a store has a checkpoint but no key was given to check its signature. */
export class HistoryKeyMissing extends Error {}

export interface ChainVerifierOptions {
  /** The history key (`PRICEBOOK_HISTORY_KEY`): needed for a store whose history was cut. */
  key: string | undefined;
  /** Entries read per query. Default 1000. */
  batchSize?: number;
  /** Called after every batch: entries checked so far, and about how many the store has (null when unknown). */
  onProgress?: (storeId: number, checked: number, total: number | null) => void;
}

/** Walks in which retention moved the checkpoint under the walk: the walk starts again, this often at most. */
const RESTARTS = 3;

/**
 * `pricebook history verify`: walks a store's chain in seq order, in bounded batches, from
 * the genesis hash (or the signed checkpoint a retention cut left), recomputing each entry's
 * hash, then checks that the head row agrees with the last entry. Reads only, outside any
 * transaction: it runs beside a serving instance, entries appended during the walk are walked
 * too, and a cut made during it starts it again from the new checkpoint.
 */
export class ChainVerifier {
  private readonly batchSize: number;

  constructor(
    private readonly uow: UnitOfWork,
    private readonly options: ChainVerifierOptions,
  ) {
    this.batchSize = options.batchSize ?? 1000;
  }

  async verify(storeId: number): Promise<ChainReport> {
    for (let attempt = 0; ; attempt++) {
      const checkpoint = await this.uow.repos.history.checkpoint(storeId);
      const report = await this.walk(storeId, checkpoint);
      if (report.broken === undefined || attempt === RESTARTS) return report;
      const now = await this.uow.repos.history.checkpoint(storeId);
      if (now?.seq === checkpoint?.seq && now?.signature === checkpoint?.signature) return report;
    }
  }

  private async walk(storeId: number, checkpoint: HistoryCheckpoint | undefined): Promise<ChainReport> {
    const { history } = this.uow.repos;
    const report: ChainReport = {
      storeId,
      entries: 0,
      head: checkpoint === undefined ? null : { seq: checkpoint.seq, hash: checkpoint.hash },
      checkpoint: checkpoint === undefined ? null : { seq: checkpoint.seq, hash: checkpoint.hash, lastCutAt: checkpoint.lastCutAt },
    };
    const broken = (seq: number, problem: ChainProblem, detail: string): ChainReport => ({ ...report, broken: { seq, problem, detail } });
    if (checkpoint !== undefined) {
      if (this.options.key === undefined) throw new HistoryKeyMissing(`store ${storeId}'s history was cut by retention: set PRICEBOOK_HISTORY_KEY to check its checkpoint's signature`);
      if (!checkpointSignatureHolds(this.options.key, checkpoint)) {
        return broken(checkpoint.seq, 'edited', 'the retention checkpoint’s signature does not hold: it was edited, or signed under another key');
      }
    }
    const start = checkpoint?.seq ?? 0;
    const total = ((await history.readHead(storeId))?.seq ?? start) - start;
    let previous = checkpoint?.hash ?? GENESIS_HASH;
    let expected = start + 1;
    let cursor: ChainCursor = { seq: 0, id: 0 };

    // Walk to the end; then, while the head says there is more (appends during the walk), on.
    for (;;) {
      let walked = 0;
      for (;;) {
        const batch = await history.chain(storeId, cursor, this.batchSize);
        for (const entry of batch) {
          if (entry.seq <= start) return broken(entry.seq, 'inserted', `an entry at or before the retention checkpoint (seq ${start}), where every entry was cut`);
          if (entry.seq < expected) return broken(entry.seq, 'inserted', 'a second entry with this seq');
          if (entry.seq > expected) return broken(expected, 'removed', entry.seq === expected + 1 ? `entry ${expected} is missing` : `entries ${expected} to ${entry.seq - 1} are missing`);
          if (entry.prevHash !== previous) return broken(entry.seq, 'inserted', `its prevHash is not the hash of entry ${entry.seq - 1}: an entry was put in before it (or entry ${entry.seq - 1} replaced)`);
          if (chainHash(entry.prevHash, entry) !== entry.hash) return broken(entry.seq, 'edited', 'its hash does not match its content');
          previous = entry.hash;
          expected += 1;
          report.entries += 1;
          report.head = { seq: entry.seq, hash: entry.hash };
        }
        walked += batch.length;
        const last = batch.at(-1);
        if (last !== undefined) cursor = { seq: last.seq, id: last.id };
        this.options.onProgress?.(storeId, report.entries, Math.max(total, report.entries));
        if (batch.length < this.batchSize) break;
      }
      // Entries and the head commit together, and the head is read after the entries: a head
      // behind the last entry means rows past it that no append made.
      const head = await history.readHead(storeId);
      const lastSeq = expected - 1;
      if (head === undefined) {
        if (lastSeq === 0) return report;
        return broken(lastSeq, 'removed', 'the store’s chain head row is missing');
      }
      if (head.seq < lastSeq) return broken(head.seq + 1, 'inserted', `past the chain head (seq ${head.seq})`);
      if (head.seq > lastSeq) {
        if (walked > 0) continue;
        return broken(lastSeq + 1, 'removed', head.seq === lastSeq + 1 ? `entry ${head.seq}, the last, is missing` : `entries ${lastSeq + 1} to ${head.seq}, the last, are missing`);
      }
      if (head.hash !== previous) return broken(head.seq, 'edited', 'the chain head’s hash is not the last entry’s');
      return report;
    }
  }
}

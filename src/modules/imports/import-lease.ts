import { randomBytes } from 'node:crypto';
import type { Import, ImportError, ImportEventData } from '../../contract/imports.js';
import { type Clock, isoTimestamp } from '../shared/clock.js';
import { eventOf } from '../events/events.js';
import type { ChangeOrigin } from '../history/history-entry.js';
import type { Repositories, UnitOfWork } from '../shared/unit-of-work.js';
import type { ClaimedImport, ImportOutcome } from './import-repository.js';

/** Raised when a process lost an import it worked on (another one took it over). */
export class LeaseLost extends Error {}

/** Raised inside the apply transaction when what the check found no longer holds: the import fails with `problems`, nothing written. */
export class StaleCheck extends Error {
  constructor(readonly problems: ImportError[]) {
    super(problems[0]?.message);
  }
}

/**
 * The imports this process works on, each under a lease: taken from the queue, renewed while
 * the work goes on (every write of it first makes sure the import is still this process's),
 * handed back, or ended with its event. A process that dies leaves its lease to run out; another
 * process takes the import up again.
 */
export class ImportLeases {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    /** How long a process owns an import it works on without renewing its lease. */
    private readonly leaseMs: number,
  ) {}

  /**
   * Takes the next import to work on, if any: round-robin over stores, a store's imports one at
   * a time; never one of `working` (those this process works on already).
   */
  claimNext(working: readonly number[] = []): Promise<ClaimedImport | undefined> {
    const now = this.clock.now();
    return this.uow.transaction((repos) => repos.imports.claim(now, now + this.leaseMs, randomBytes(12).toString('hex'), working));
  }

  /** Hands an import back to the queue (its process is stopping). */
  release(claim: ClaimedImport): Promise<void> {
    return this.uow.repos.imports.release(claim);
  }

  /** Renews the lease and records the check's progress, with `repos` (a transaction's, or outside one); `LeaseLost` when it is no longer this process's. */
  async progress(repos: Repositories, claim: ClaimedImport, update: { processed: number; rows?: number; format?: 'long' | 'matrix' }): Promise<void> {
    if (!(await repos.imports.progress(claim, { leaseUntil: this.clock.now() + this.leaseMs, ...update }))) throw new LeaseLost();
  }

  /** Renews the lease alone, with `repos`; `LeaseLost` when it is no longer this process's. */
  async renew(repos: Repositories, claim: ClaimedImport): Promise<void> {
    if (!(await repos.imports.renew(claim, this.clock.now() + this.leaseMs))) throw new LeaseLost();
  }

  /** Runs `work` in a transaction that first renews the lease (`LeaseLost` when it is no longer this process's). */
  underLease(claim: ClaimedImport, work: (repos: Repositories) => Promise<void>): Promise<void> {
    return this.uow.transaction(async (repos) => {
      await this.renew(repos, claim);
      await work(repos);
    });
  }

  /** Renews the claim's lease every third of its length, from outside any transaction, until the answered function stops it. */
  keepAlive(claim: ClaimedImport): () => void {
    const outside = this.uow.repos;
    const timer = setInterval(
      () => {
        outside.imports.renew(claim, this.clock.now() + this.leaseMs).catch(() => undefined);
      },
      Math.max(1000, Math.floor(this.leaseMs / 3)),
    );
    timer.unref();
    return () => clearInterval(timer);
  }

  /** Fails the import with its problems (the first ones kept, all counted). */
  fail(claim: ClaimedImport, errors: readonly ImportError[], errorCount: number): Promise<void> {
    return this.finish(claim, { status: 'failed', errors, errorCount, finishedAt: isoTimestamp(this.clock) });
  }

  /** Ends the import with its event, in one transaction (joined when called inside one). */
  async finish(claim: ClaimedImport, outcome: ImportOutcome): Promise<void> {
    await this.uow.transaction(async (repos) => {
      const ended = await repos.imports.finish(claim, outcome);
      // Another process took the import over meanwhile: none of this may count.
      if (ended === undefined) throw new LeaseLost();
      await repos.events.append(
        [eventOf(claim.storeId, outcome.status === 'succeeded' ? 'import.succeeded' : 'import.failed', eventData(ended))],
        outcome.finishedAt,
      );
    });
  }
}

/** The origin of an import's changes: its uploader, the upload's request, the import's id. */
export function importOrigin(claim: ClaimedImport): ChangeOrigin {
  return { actor: claim.uploader.actor, source: 'import', sourceId: claim.id, requestId: claim.uploader.requestId };
}

/** What an import's events carry: the import without its list of problems (`errorCount` stays). */
function eventData(ended: Import): ImportEventData {
  const data: Partial<Import> = { ...ended };
  delete data.errors;
  return data as ImportEventData;
}

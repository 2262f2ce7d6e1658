import { clip } from '../../text/clip.js';
import type { ImportApply } from './import-apply.js';
import type { ImportCheck } from './import-check.js';
import type { ImportCleanup } from './import-cleanup.js';
import { type ImportLeases, LeaseLost, StaleCheck } from './import-lease.js';
import { MAX_ATTEMPTS } from './import-limits.js';
import { type ImportPacer, soloPacer } from './import-pacing.js';
import type { ClaimedImport } from './import-repository.js';
import { DryRunChanges } from './dry-run-changes.js';

/** How `process` ended: `ended` false when the import went back to the queue; `failure` an unexpected error that failed it. */
export interface ProcessOutcome {
  ended: boolean;
  failure?: unknown;
}

/**
 * Works a claimed import to its end, step by step: **check** (`ImportCheck`); a file with any
 * problem **fails** and changes nothing; otherwise **apply** (`ImportApply`); then its file and
 * staged rows are deleted (`ImportCleanup`). Any error but a lost lease fails the import at
 * once with its reason. A process that dies mid-way leaves its lease to run out; another
 * process (or the same one, restarted) takes the import again from the start: the apply step
 * had committed all or nothing.
 */
export class ImportProcessor {
  constructor(
    private readonly leases: ImportLeases,
    private readonly check: ImportCheck,
    private readonly apply: ImportApply,
    private readonly cleanup: ImportCleanup,
  ) {}

  /**
   * `shouldStop` is asked between batches; when it says so the import goes back to the queue
   * and this resolves `ended: false`. An unexpected error is answered as `failure`, for the log.
   */
  async process(claim: ClaimedImport, shouldStop: () => boolean, pacer: ImportPacer = soloPacer()): Promise<ProcessOutcome> {
    let failure: unknown;
    /** A dry run's changes stay only when it succeeded. */
    let succeeded = false;
    try {
      if (claim.attempts > MAX_ATTEMPTS) {
        // Taken up again and again without ending: its process died each time; stop trying.
        const message = `The import was interrupted ${claim.attempts - 1} times without finishing; nothing was changed. Send the file again, or split it`;
        await this.leases.fail(claim, [{ row: 1, field: null, message }], 1);
      } else {
        const changes = new DryRunChanges();
        const checked = await this.check.run(claim, shouldStop, pacer, changes);
        if (checked === undefined) {
          await this.leases.release(claim);
          return { ended: false };
        }
        if (checked.errorCount > 0) await this.leases.fail(claim, checked.errors, checked.errorCount);
        else {
          await this.apply.run(claim, checked.staged, pacer, changes);
          succeeded = true;
        }
      }
    } catch (error) {
      if (error instanceof LeaseLost) return { ended: true };
      if (error instanceof StaleCheck) {
        await this.leases.fail(claim, error.problems, error.problems.length);
        await this.cleanup.afterEnd(claim.id, pacer, true);
        return { ended: true };
      }
      failure = error;
      const reason = error instanceof Error ? error.message : String(error);
      const message = `The import stopped on an unexpected error and changed nothing: ${clip(reason.replace(/\s+/g, ' '), 160)}`;
      try {
        await this.leases.fail(claim, [{ row: 1, field: null, message }], 1);
      } catch (second) {
        // Another process took it over, or the database itself fails (then the lease runs
        // out and the import is taken up again): either way nothing here is left to clean.
        return { ended: second instanceof LeaseLost, failure };
      }
    }
    await this.cleanup.afterEnd(claim.id, pacer, !succeeded);
    return { ended: true, ...(failure !== undefined && { failure }) };
  }
}

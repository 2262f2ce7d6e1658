import { MAX_KEPT_DRY_RUNS } from '../../contract/imports.js';
import type { UnitOfWork } from '../shared/unit-of-work.js';
import type { ImportPacer } from './import-pacing.js';
import { CLEAN_CHUNKS, CLEAN_ROWS, CLEANUP_GRACE_MS, OLDER_DRY_RUNS_CHECKED, UPLOAD_ABANDONED_MS } from './import-limits.js';
import type { ClaimedImport } from './import-repository.js';

/**
 * What imports leave behind, deleted a bounded batch at a time: an ended or discarded import's
 * file slices and staged rows (by its process, or by the maintenance loop when that process
 * died), an earlier attempt's staged rows, the changes of dry runs past the store's newest, and
 * imports past their retention.
 */
export class ImportCleanup {
  constructor(
    private readonly uow: UnitOfWork,
    /** How long ended imports are kept. */
    private readonly retentionMs: number,
  ) {}

  /**
   * Deletes an ended (or discarded) import's staged rows and file slices, in batches, then
   * unmarks it; a dry run's changes too when it did not succeed (`dropChanges`).
   */
  async afterEnd(importId: number, pacer: ImportPacer, dropChanges: boolean): Promise<void> {
    const repos = this.uow.repos;
    while ((await repos.importContents.deleteStaged(importId, CLEAN_ROWS)) >= CLEAN_ROWS) await pacer.pace();
    if (dropChanges) while ((await repos.importContents.deleteChanges(importId, CLEAN_ROWS)) >= CLEAN_ROWS) await pacer.pace();
    while ((await repos.importContents.deleteChunks(importId, CLEAN_CHUNKS)) >= CLEAN_CHUNKS) await pacer.pace();
    await repos.imports.cleaned(importId);
  }

  /**
   * Before a check: staged rows and kept changes of an earlier attempt, deleted in batches; for
   * a dry run, also the changes of the store's older dry runs past its MAX_KEPT_DRY_RUNS newest
   * (this one among them), so a store keeps at most that many dry runs' changes.
   */
  async beforeCheck(claim: ClaimedImport, pacer: ImportPacer): Promise<void> {
    const repos = this.uow.repos;
    while ((await repos.importContents.deleteStaged(claim.id, CLEAN_ROWS)) >= CLEAN_ROWS) await pacer.pace();
    if (!claim.dryRun) return;
    const older = await repos.imports.olderDryRuns(claim.storeId, claim.id, MAX_KEPT_DRY_RUNS - 1, OLDER_DRY_RUNS_CHECKED);
    for (const importId of [claim.id, ...older]) {
      while ((await repos.importContents.deleteChanges(importId, CLEAN_ROWS)) >= CLEAN_ROWS) await pacer.pace();
    }
  }

  /**
   * Maintenance: uploads whose process died are discarded, then the leftovers (file slices,
   * staged rows) of imports that ended more than a minute ago and were not cleaned (their
   * process died too), up to about `limit` rows; how many rows it deleted.
   */
  async purgeLeftovers(now: number, limit: number): Promise<number> {
    const repos = this.uow.repos;
    const at = new Date(now).toISOString();
    let deleted = await repos.imports.abandonUploads(new Date(now - UPLOAD_ABANDONED_MS).toISOString(), at, limit);
    for (const importId of await repos.imports.toClean(new Date(now - CLEANUP_GRACE_MS).toISOString(), 10)) {
      while (deleted < limit) {
        const rows =
          (await repos.importContents.deleteStaged(importId, Math.min(CLEAN_ROWS, limit - deleted))) +
          (await repos.importContents.deleteChunks(importId, CLEAN_CHUNKS));
        deleted += rows;
        if (rows === 0) {
          await repos.imports.cleaned(importId);
          deleted += 1;
          break;
        }
      }
      if (deleted >= limit) break;
    }
    return deleted;
  }

  /** Maintenance: up to `limit` imports that ended longer ago than the retention, deleted; how many. */
  purgeEnded(now: number, limit: number): Promise<number> {
    return this.uow.repos.imports.purgeEnded(new Date(now - this.retentionMs).toISOString(), limit);
  }
}

import type { Import, ImportChanges } from '../../contract/imports.js';
import type { Clock } from '../shared/clock.js';
import { found } from '../shared/errors.js';
import type { Page } from '../shared/page.js';
import type { UnitOfWork } from '../shared/unit-of-work.js';
import { readChanges } from './dry-run-changes.js';
import { ImportApply } from './import-apply.js';
import { type ChangeSetSink, ImportChangeSetBridge } from './import-change-set.js';
import { ImportCheck } from './import-check.js';
import { ImportCleanup } from './import-cleanup.js';
import { ImportLeases } from './import-lease.js';
import { DEFAULT_IMPORT_CAPS, DEFAULT_IMPORT_LEASE_MS, DEFAULT_IMPORT_RETENTION_MS, type ImportQueueCaps } from './import-limits.js';
import { type ImportPacer, ImportTurns } from './import-pacing.js';
import { type ProcessOutcome, ImportProcessor } from './import-processor.js';
import { ImportQueue } from './import-queue.js';
import { ImportReplace } from './import-replace.js';
import type { ClaimedImport, ImportOptions, ImportUploader, StoreImportQueue } from './import-repository.js';
import type { ImportUpload } from './import-upload.js';

export interface ImportServiceOptions {
  /** How long a process owns an import it works on without renewing its lease (PRICEBOOK_IMPORT_LEASE). Default 5 minutes. */
  leaseMs?: number;
  /** The per-store queue caps (PRICEBOOK_IMPORT_MAX_QUEUED, PRICEBOOK_IMPORT_MAX_QUEUED_MIB). */
  caps?: ImportQueueCaps;
  /** How long ended imports are kept (PRICEBOOK_IMPORT_RETENTION). Default 30 days. */
  retentionMs?: number;
  /** Where an import into a change set (`changeSet=ID`) adds its operations. */
  changeSets?: ChangeSetSink;
}

/**
 * CSV imports of trade prices (docs/imports.md), one face over their collaborators. An upload
 * is stored slice by slice as it arrives and queued once whole (`ImportQueue`); a background
 * runner (`ImportRunner`) then works the queue, a store's imports one at a time, stores in turn,
 * each import under a lease (`ImportLeases`) and worked to its end (`ImportProcessor`): checked
 * (`ImportCheck`, `import-resolve.ts`), then failed or applied (`ImportApply`, `ImportReplace`,
 * into a change set by `ImportChangeSetBridge`), then cleaned up (`ImportCleanup`). The
 * limits of all of it are in `import-limits.ts`.
 */
export class ImportService {
  /** Turns of the process's import work: uploads storing their files and the runner's imports share them. */
  readonly turns = new ImportTurns();
  private readonly queue: ImportQueue;
  private readonly leases: ImportLeases;
  private readonly processor: ImportProcessor;
  private readonly cleanup: ImportCleanup;

  constructor(
    private readonly uow: UnitOfWork,
    clock: Clock,
    options: ImportServiceOptions = {},
  ) {
    this.leases = new ImportLeases(uow, clock, options.leaseMs ?? DEFAULT_IMPORT_LEASE_MS);
    this.cleanup = new ImportCleanup(uow, options.retentionMs ?? DEFAULT_IMPORT_RETENTION_MS);
    this.queue = new ImportQueue(uow, clock, options.caps ?? DEFAULT_IMPORT_CAPS, this.turns, this.cleanup);
    const replace = new ImportReplace(uow, this.leases);
    const apply = new ImportApply(uow, clock, this.leases, replace, new ImportChangeSetBridge(uow, options.changeSets));
    this.processor = new ImportProcessor(this.leases, new ImportCheck(uow, this.leases, this.cleanup), apply, this.cleanup);
  }

  /** Calls `listener` whenever this process queues an import (a runner here wakes up for it). */
  whenQueued(listener: () => void): () => void {
    return this.queue.whenQueued(listener);
  }

  /** Begins an upload if the store's queue has room (`ImportQueue.startUpload`). */
  startUpload(storeId: number, uploader: ImportUploader, options: ImportOptions, declaredBytes: number | undefined): Promise<ImportUpload> {
    return this.queue.startUpload(storeId, uploader, options, declaredBytes);
  }

  /** Gives an upload up (refused, replayed, or its client went away): nothing of it stays. */
  discardUpload(upload: ImportUpload): Promise<void> {
    return this.queue.discardUpload(upload);
  }

  async get(storeId: number, id: number): Promise<Import> {
    return found(await this.uow.repos.imports.find(storeId, id), `Import ${id}`);
  }

  /** What a dry run would change, a page at a time (`readChanges`). */
  async changes(storeId: number, id: number, page: Page): Promise<ImportChanges> {
    return readChanges(this.uow.repos, await this.get(storeId, id), page);
  }

  list(storeId: number, page: Page): Promise<Import[]> {
    return this.uow.repos.imports.list(storeId, page);
  }

  count(storeId: number): Promise<number> {
    return this.uow.repos.imports.count(storeId);
  }

  /** Takes the next import to work on, if any, never one of `working` (`ImportLeases.claimNext`). */
  claimNext(working: readonly number[] = []): Promise<ClaimedImport | undefined> {
    return this.leases.claimNext(working);
  }

  /** Hands an import back to the queue (its process is stopping). */
  release(claim: ClaimedImport): Promise<void> {
    return this.leases.release(claim);
  }

  /** Works an import to its end (`ImportProcessor.process`). */
  process(claim: ClaimedImport, shouldStop: () => boolean, pacer?: ImportPacer): Promise<ProcessOutcome> {
    return this.processor.process(claim, shouldStop, pacer);
  }

  /** Maintenance: abandoned uploads discarded, ended imports' leftovers deleted, up to about `limit` rows (`ImportCleanup.purgeLeftovers`). */
  purgeLeftovers(now: number, limit: number): Promise<number> {
    return this.cleanup.purgeLeftovers(now, limit);
  }

  /** Maintenance: up to `limit` imports that ended longer ago than the retention, deleted; how many. */
  purgeEnded(now: number, limit: number): Promise<number> {
    return this.cleanup.purgeEnded(now, limit);
  }

  /** The queue per store, for metrics. */
  queues(): Promise<StoreImportQueue[]> {
    return this.queue.queues();
  }
}

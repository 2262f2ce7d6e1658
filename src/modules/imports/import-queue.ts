import { type Clock, isoTimestamp } from '../shared/clock.js';
import type { UnitOfWork } from '../shared/unit-of-work.js';
import type { ImportCleanup } from './import-cleanup.js';
import { type ImportQueueCaps, QUEUE_METRIC_STORES, queueFull, UPLOAD_ABANDONED_MS } from './import-limits.js';
import { type ImportTurns, soloPacer } from './import-pacing.js';
import type { ImportOptions, ImportUploader, StoreImportQueue } from './import-repository.js';
import { ImportUpload } from './import-upload.js';

/**
 * The way into the import queue: uploads begun while the store's queue has room (its caps),
 * stored slice by slice (`ImportUpload`) and queued once whole, or discarded; the listeners told
 * when this process queues one; the queue per store, for metrics.
 */
export class ImportQueue {
  private readonly queuedListeners = new Set<() => void>();

  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly caps: ImportQueueCaps,
    /** Turns of the process's import work: uploads storing their files share them with the runner's imports. */
    private readonly turns: ImportTurns,
    private readonly cleanup: ImportCleanup,
  ) {}

  /** Calls `listener` whenever this process queues an import (a runner here wakes up for it). */
  whenQueued(listener: () => void): () => void {
    this.queuedListeners.add(listener);
    return () => this.queuedListeners.delete(listener);
  }

  /**
   * Begins an upload, if the store's queue has room: refused at once (`import_queue_full`)
   * when it holds its cap of imports, or when `declaredBytes` (the request's length, if it says
   * one) would take its files past the bytes cap. Nothing is stored then. `uploader` (who
   * sends it, with which request) is kept with the import: its apply's history entries name them.
   */
  async startUpload(storeId: number, uploader: ImportUploader, options: ImportOptions, declaredBytes: number | undefined): Promise<ImportUpload> {
    const now = this.clock.now();
    const uploadsSince = new Date(now - UPLOAD_ABANDONED_MS).toISOString();
    const queue = await this.uow.repos.imports.queueOf(storeId, uploadsSince);
    if (queue.imports >= this.caps.maxImports) throw queueFull(this.caps, 'imports');
    if (declaredBytes !== undefined && queue.bytes + declaredBytes > this.caps.maxBytes) throw queueFull(this.caps, 'bytes');
    const importId = await this.uow.repos.imports.beginUpload(storeId, options, uploader, isoTimestamp(this.clock));
    const queued = () => {
      for (const listener of this.queuedListeners) listener();
    };
    return new ImportUpload(this.uow, this.caps, importId, storeId, uploadsSince, queued, this.turns);
  }

  /** Gives an upload up (refused, replayed, or its client went away): nothing of it stays. */
  discardUpload(upload: ImportUpload): Promise<void> {
    return upload.discard(isoTimestamp(this.clock), (importId) => this.cleanup.afterEnd(importId, soloPacer(), false));
  }

  /** The queue per store, for metrics: stores with imports queued or running (at most `QUEUE_METRIC_STORES`). */
  queues(): Promise<StoreImportQueue[]> {
    return this.uow.repos.imports.queues(QUEUE_METRIC_STORES);
  }
}

import { BackgroundLoop } from '../shared/background-loop.js';
import type { ClaimedImport } from './import-repository.js';
import type { ImportService } from './import-service.js';

/** Where the runner reports trouble; pino's logger fits. */
export interface ImportRunnerLog {
  error(details: object, message: string): void;
  info(details: object, message: string): void;
}

export interface ImportRunnerOptions {
  /** Milliseconds between looks for queued imports when there are none. Default 1000. */
  pollIntervalMs?: number;
  /** Imports worked at once, each of another store (PRICEBOOK_IMPORT_CONCURRENCY). Default 4. */
  concurrency?: number;
}

/** Pause after a database error before trying again, milliseconds. */
const ERROR_PAUSE_MS = 5_000;

/**
 * Works queued imports in this process (`serve` runs one): up to `concurrency` at once, each of
 * a different store, taking turns batch by batch with each other and with the uploads under
 * way (the service's `ImportTurns`), so a store's small import
 * starts as soon as it is queued and advances beside another store's large ones instead of
 * waiting for them. Claims go to the store served least recently. Several processes share the
 * queue: each import is leased to one of them. `wake()` (an import was just queued here) ends
 * a wait at once.
 */
export class ImportRunner {
  private readonly loop: BackgroundLoop;
  private readonly pollIntervalMs: number;
  private readonly concurrency: number;
  private readonly active = new Set<Promise<void>>();
  /** The imports this process works on: never claimed again while it does. */
  private readonly working = new Set<number>();

  constructor(
    private readonly imports: ImportService,
    private readonly log: ImportRunnerLog,
    options: ImportRunnerOptions = {},
  ) {
    this.pollIntervalMs = options.pollIntervalMs ?? 1000;
    this.concurrency = options.concurrency ?? 4;
    this.loop = new BackgroundLoop({
      round: () => this.claimOne(),
      log,
      errorMessage: 'imports: error, retrying',
      errorPauseMs: ERROR_PAUSE_MS,
      afterLastRound: async () => {
        await Promise.all(this.active);
      },
    });
  }

  start(): void {
    this.loop.start();
  }

  wake(): void {
    this.loop.wake();
  }

  /** Stops after the batches under way; imports under way go back to the queue. */
  stop(): Promise<void> {
    return this.loop.stop();
  }

  /** Starts work on the next queued import, or waits for a free place or a queued import. */
  private async claimOne(): Promise<void> {
    if (this.active.size >= this.concurrency) {
      await this.loop.pause(this.pollIntervalMs);
      return;
    }
    const claim = await this.imports.claimNext([...this.working]);
    if (claim === undefined) {
      await this.loop.pause(this.pollIntervalMs);
      return;
    }
    this.working.add(claim.id);
    const work = this.work(claim).finally(() => {
      this.active.delete(work);
      this.working.delete(claim.id);
      this.loop.wake();
    });
    this.active.add(work);
  }

  private async work(claim: ClaimedImport): Promise<void> {
    const started = Date.now();
    const pacer = this.imports.turns.pacer();
    try {
      const outcome = await pacer.run(() => this.imports.process(claim, () => !this.loop.running, pacer));
      if (outcome.failure !== undefined)
        this.log.error({ err: outcome.failure, importId: claim.id, storeId: claim.storeId }, 'import failed on an unexpected error');
      if (outcome.ended) this.log.info({ importId: claim.id, storeId: claim.storeId, ms: Date.now() - started }, 'import ended');
    } catch (error) {
      this.log.error({ err: error, importId: claim.id, storeId: claim.storeId }, 'imports: error, the import waits for its lease to run out');
    }
  }
}

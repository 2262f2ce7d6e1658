import { WakeablePause } from '../wakeable-pause.js';
import type { ImportService } from './import-service.js';

/** Where the runner reports trouble; pino's logger fits. */
export interface ImportRunnerLog {
  error(details: object, message: string): void;
  info(details: object, message: string): void;
}

export interface ImportRunnerOptions {
  /** Milliseconds between looks for queued imports when there are none. Default 1000. */
  pollIntervalMs?: number;
}

/** Pause after a database error before trying again, milliseconds. */
const ERROR_PAUSE_MS = 5_000;

/**
 * Works queued imports one at a time in this process (`serve` runs one): takes the oldest,
 * works it to its end, takes the next. Several processes share the queue: each import is
 * leased to one of them. `wake()` (an import was just created here) ends a wait at once.
 */
export class ImportRunner {
  private running = false;
  private loop: Promise<void> | undefined;
  private readonly pauses = new WakeablePause();
  private readonly pollIntervalMs: number;

  constructor(
    private readonly imports: ImportService,
    private readonly log: ImportRunnerLog,
    options: ImportRunnerOptions = {},
  ) {
    this.pollIntervalMs = options.pollIntervalMs ?? 1000;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  wake(): void {
    this.pauses.wake();
  }

  /** Stops after the batch under way; an import under way goes back to the queue. */
  async stop(): Promise<void> {
    this.running = false;
    this.pauses.wake();
    await this.loop;
  }

  private async run(): Promise<void> {
    while (this.running) {
      try {
        const claim = await this.imports.claimNext();
        if (claim === undefined) {
          await this.pauses.sleep(this.pollIntervalMs);
          continue;
        }
        const started = Date.now();
        const ended = await this.imports.process(claim, () => !this.running);
        if (ended) this.log.info({ importId: claim.id, storeId: claim.storeId, ms: Date.now() - started }, 'import ended');
      } catch (error) {
        this.log.error({ err: error }, 'imports: error, retrying');
        await this.pauses.sleep(ERROR_PAUSE_MS);
      }
    }
  }
}

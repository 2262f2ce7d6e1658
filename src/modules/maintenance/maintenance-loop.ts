import type { Clock } from '../shared/clock.js';
import { BackgroundLoop } from '../shared/background-loop.js';

/** One kind of clean-up: deletes up to `limit` rows that are due at `now` and says how many it deleted. */
export interface PurgeTask {
  readonly name: string;
  /** Rows this task deletes per batch, when not the loop's `batchSize`. */
  readonly batchSize?: number;
  purge(now: number, limit: number): Promise<number>;
}

/** Where the loop reports trouble with its database; pino's logger fits. */
export interface MaintenanceLog {
  error(details: object, message: string): void;
}

export interface MaintenanceOptions {
  /** Rows deleted per batch (one short transaction each). Default 2000. */
  batchSize?: number;
  /** Milliseconds between batches, the database free for everyone else. Default 20. */
  batchPauseMs?: number;
  /** Milliseconds one task may spend in one round before the next task has its turn. Default 2000. */
  roundBudgetMs?: number;
  /** Milliseconds between rounds once nothing more is due. Default 60 000. */
  idleIntervalMs?: number;
}

/** Pause after a database error before trying again, milliseconds. */
const ERROR_PAUSE_MS = 5_000;

/**
 * Purges what has expired (old events with their deliveries, idempotency keys past their 24
 * hours) in bounded batches, each its own short transaction with a pause after it, so the
 * purge never holds the database for long. It keeps going while batches come back full, so
 * it deletes as fast as rows fall due, however many that is, and rests `idleIntervalMs` once
 * it has caught up. Whichever process owns maintenance runs it (`serve` or `worker`, switch
 * `PRICEBOOK_MAINTENANCE`); several at once are safe, only wasteful.
 */
export class MaintenanceLoop {
  private readonly batchSize: number;
  private readonly batchPauseMs: number;
  private readonly roundBudgetMs: number;
  private readonly idleIntervalMs: number;
  private readonly loop: BackgroundLoop;
  /** Rows each task has deleted since the start, by task name. */
  readonly purged = new Map<string, number>();

  constructor(
    private readonly tasks: readonly PurgeTask[],
    private readonly clock: Clock,
    log: MaintenanceLog,
    options: MaintenanceOptions = {},
  ) {
    this.batchSize = options.batchSize ?? 2000;
    this.batchPauseMs = options.batchPauseMs ?? 20;
    this.roundBudgetMs = options.roundBudgetMs ?? 2000;
    this.idleIntervalMs = options.idleIntervalMs ?? 60_000;
    this.loop = new BackgroundLoop({
      round: async () => {
        const behind = await this.round();
        await this.loop.pause(behind ? this.batchPauseMs : this.idleIntervalMs);
      },
      log,
      errorMessage: 'maintenance: database error, retrying',
      errorPauseMs: ERROR_PAUSE_MS,
    });
  }

  start(): void {
    this.loop.start();
  }

  /** Stops after the batch under way. */
  stop(): Promise<void> {
    return this.loop.stop();
  }

  /** One turn for each task; answers whether any still had rows due when its turn ended. */
  private async round(): Promise<boolean> {
    let behind = false;
    for (const task of this.tasks) {
      const startedAt = performance.now();
      // Bounded by the budget: a task that cannot catch up in one turn continues next round.
      while (this.loop.running) {
        const batchSize = task.batchSize ?? this.batchSize;
        const deleted = await task.purge(this.clock.now(), batchSize);
        this.purged.set(task.name, (this.purged.get(task.name) ?? 0) + deleted);
        if (deleted < batchSize) break;
        if (performance.now() - startedAt >= this.roundBudgetMs) {
          behind = true;
          break;
        }
        await this.loop.pause(this.batchPauseMs);
      }
    }
    return behind;
  }
}

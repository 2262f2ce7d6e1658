import { WakeablePause } from './wakeable-pause.js';

/** Where a background loop reports a failed round; pino's logger fits. */
export interface BackgroundLoopLog {
  error(details: object, message: string): void;
}

export interface BackgroundLoopOptions {
  /** One round of work; it rests between rounds with `pause` as long as it needs. */
  round: () => Promise<void>;
  log: BackgroundLoopLog;
  /** Logged, with the error, when a round fails. */
  errorMessage: string;
  /** Milliseconds to rest after a failed round before the next one (less on `wake()` or `stop()`). */
  errorPauseMs: number;
  /** Runs once after the last round, before `stop()` resolves: hands back or finishes the work in hand. */
  afterLastRound?: () => Promise<void>;
}

/**
 * Runs rounds of work one after the other in the background until stopped: the start, the
 * stop (which waits for the round under way and then `afterLastRound`), the pauses a `wake()`
 * ends early, and the log line and rest after a round that fails. The import runner, the
 * maintenance loop and the webhook delivery worker each run on one.
 */
export class BackgroundLoop {
  private active = false;
  private loop: Promise<void> | undefined;
  private readonly pauses = new WakeablePause();

  constructor(private readonly options: BackgroundLoopOptions) {}

  /** True from `start()` until `stop()`: a round checks it to end early. */
  get running(): boolean {
    return this.active;
  }

  start(): void {
    if (this.active) return;
    this.active = true;
    this.loop = this.run();
  }

  /** Ends the pause under way, if any: there is work, or the loop stops. */
  wake(): void {
    this.pauses.wake();
  }

  /** Stops: no round starts after the one under way, which `stop()` waits for, then `afterLastRound`. */
  async stop(): Promise<void> {
    this.active = false;
    this.pauses.wake();
    await this.loop;
  }

  /** Waits `ms`, or less when woken; not at all once stopped. */
  pause(ms: number): Promise<void> {
    return this.active ? this.pauses.sleep(ms) : Promise.resolve();
  }

  private async run(): Promise<void> {
    while (this.active) {
      try {
        await this.options.round();
      } catch (error) {
        this.options.log.error({ err: error }, this.options.errorMessage);
        await this.pause(this.options.errorPauseMs);
      }
    }
    await this.options.afterLastRound?.();
  }
}

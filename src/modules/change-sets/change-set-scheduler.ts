import { BackgroundLoop, type BackgroundLoopLog } from '../shared/background-loop.js';
import type { Clock } from '../shared/clock.js';

/** How often the scheduler looks for sets that are due: a scheduled set is applied at most this long after its moment (plus the apply itself). */
export const SCHEDULE_PERIOD_MS = 5000;
/** Sets applied in one look, at most; when that many were due, it looks again at once. */
const SETS_PER_ROUND = 20;

/** What the scheduler drives: `ChangeSetService.applyDue`. */
export interface DueChangeSets {
  applyDue(now: number, limit: number): Promise<number>;
}

/**
 * Applies scheduled change sets once their moment has come: every SCHEDULE_PERIOD_MS, the sets
 * due are applied one transaction each. Whichever processes run maintenance run it; a set is
 * applied once however many do, because the apply claims it in its own transaction (a second
 * process finds it no longer scheduled). A process killed mid-apply leaves the set scheduled,
 * its transaction rolled back: the next round applies it.
 */
export class ChangeSetScheduler {
  private readonly loop: BackgroundLoop;

  constructor(
    private readonly sets: DueChangeSets,
    private readonly clock: Clock,
    log: BackgroundLoopLog,
    periodMs = SCHEDULE_PERIOD_MS,
  ) {
    this.loop = new BackgroundLoop({
      round: async () => {
        const applied = await this.sets.applyDue(this.clock.now(), SETS_PER_ROUND);
        if (applied < SETS_PER_ROUND) await this.loop.pause(periodMs);
      },
      log,
      errorMessage: 'change sets: scheduled apply failed, retrying',
      errorPauseMs: periodMs,
    });
  }

  start(): void {
    this.loop.start();
  }

  /** Stops after the apply under way. */
  stop(): Promise<void> {
    return this.loop.stop();
  }
}

import { type EventLoopUtilization, performance } from 'node:perf_hooks';
import { busySince, LONG_WORK_BUDGET_MS, nextTurn, restAfter } from '../shared/long-work.js';

/**
 * Milliseconds of import work between two rests: the budget of all long work. Each piece of
 * work between two chances to give way (a slice of the file, a batch of lookups, a staged
 * insert, a piece of an upload) is bounded too, so the event loop is never held much longer.
 */
const PACE_BUDGET_MS = LONG_WORK_BUDGET_MS;
/** A rest of the import work lasts this share of the time the process was busy before it (at most `MAX_REST_MS`). */
const REST_SHARE = 0.5;

/** How an import shares the process: with requests, and with the other import work done here. */
export interface ImportPacer {
  /**
   * Called between two small pieces of work: once the import has had its turn for
   * `PACE_BUDGET_MS`, it hands the turn on (after a rest, when the import work of the process
   * is due one) and waits for its next turn.
   */
  pace(): Promise<void>;
  /**
   * Runs `work` without holding a turn: a transaction that other work may have to wait for
   * (on SQLite every write waits for it) must not also keep their turn. `pace()` within it
   * gives the event loop a turn once `PACE_BUDGET_MS` of work is done, without resting: a rest
   * would only make the transaction, and the writes waiting for it, longer.
   */
  aside<T>(work: () => Promise<T>): Promise<T>;
}

/**
 * Turns between the import work of one process (uploads storing their files, imports being
 * checked), first come first served: one piece of work at a time, the next one on a later turn
 * of the event loop; and once the process has been busy `PACE_BUDGET_MS`, a rest half as long
 * as it was busy (100 ms at most), during which only requests run. So all the import work of a
 * process, however many uploads and imports, takes at most about two thirds of the event loop,
 * one piece at a time, and each upload and import advances piece by piece whatever the
 * others' sizes.
 */
export class ImportTurns {
  private held = false;
  private readonly waiting: Array<() => void> = [];
  /** The event loop's use since the import work last rested. */
  private restedUse = busySince();

  /** Runs `work` (a small piece of work: a piece of an upload) in its turn. */
  async turn<T>(work: () => Promise<T>): Promise<T> {
    await this.acquire();
    try {
      return await work();
    } finally {
      await this.handOver();
    }
  }

  /** A pacer for one import; `run` holds a turn around the import's work (handed on at each `pace()`). */
  pacer(): ImportPacer & { run<T>(work: () => Promise<T>): Promise<T> } {
    let holding = false;
    /** Inside `aside`: a transaction other writes wait for (on SQLite, all of them). */
    let asideOf = 0;
    let turnStartedAt = 0;
    // Outside turns (`aside`), the import rests on its own reckoning.
    let since = busySince();
    let startedAt = performance.now();
    const take = async () => {
      await this.acquire();
      holding = true;
      turnStartedAt = performance.now();
    };
    const give = async () => {
      if (!holding) return;
      holding = false;
      await this.handOver();
    };
    return {
      run: async (work) => {
        await take();
        try {
          return await work();
        } finally {
          await give();
        }
      },
      pace: async () => {
        if (holding) {
          if (performance.now() - turnStartedAt < PACE_BUDGET_MS) return;
          await give();
          await take();
          return;
        }
        if (performance.now() - startedAt < PACE_BUDGET_MS) return;
        // Inside a write transaction a rest would lengthen it, and every write waiting for it
        // (another store's too, on SQLite): a turn of the event loop lets requests in instead.
        if (asideOf > 0) await nextTurn();
        else await rest(since);
        since = busySince();
        startedAt = performance.now();
      },
      aside: async (work) => {
        const mine = holding;
        await give();
        since = busySince();
        startedAt = performance.now();
        asideOf += 1;
        try {
          return await work();
        } finally {
          asideOf -= 1;
          if (mine) await take();
        }
      },
    };
  }

  private async acquire(): Promise<void> {
    if (!this.held) {
      this.held = true;
      return;
    }
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  /**
   * Ends a turn: first a rest, when the process has been busy `PACE_BUDGET_MS` since the import
   * work last rested (the turn is kept meanwhile: no import work runs, requests do); then the
   * turn passes to the next waiting, if any, on the next turn of the event loop (handed over
   * at once, every waiting piece would run in this one).
   */
  private async handOver(): Promise<void> {
    if (performance.eventLoopUtilization(this.restedUse).active >= PACE_BUDGET_MS) {
      await rest(this.restedUse);
      this.restedUse = busySince();
    }
    const next = this.waiting.shift();
    if (next === undefined) this.held = false;
    else setImmediate(next);
  }
}

/** Rests half as long as the event loop was busy since `since` (`restAfter`): requests run meanwhile. */
function rest(since: EventLoopUtilization): Promise<void> {
  return restAfter(since, REST_SHARE);
}

/** Pacing for an import worked alone (no runner: tools, tests): rests on its own reckoning. */
export function soloPacer(): ImportPacer {
  const pacer = new ImportTurns().pacer();
  return { pace: () => pacer.pace(), aside: (work) => pacer.aside(work) };
}

import { performance } from 'node:perf_hooks';
import { batchStart, yieldToOtherWork } from '../yield-to-other-work.js';

/**
 * Milliseconds an import works before it gives way. Each piece of work between two `pace()`
 * calls is bounded too (a slice of the file, a batch of lookups, a staged insert), so the
 * event loop is never held much longer than this.
 */
export const PACE_BUDGET_MS = 10;

/** How an import shares the process: with requests, and with the other imports worked here. */
export interface ImportPacer {
  /**
   * Called between two small pieces of work: once the import has worked `PACE_BUDGET_MS`, it
   * lets the event loop run what waits, for as long as it kept the process busy, and lets the
   * other imports of the process have their turn.
   */
  pace(): Promise<void>;
  /**
   * Runs `work` without holding the turn: a transaction that other work may have to wait for
   * (on SQLite every write waits for it) must not also keep their turn. `pace()` within it
   * yields to requests only.
   */
  aside<T>(work: () => Promise<T>): Promise<T>;
}

/**
 * Turns between the imports of one process, first come first served: one import works at a
 * time, until its budget is spent, then the next; so several imports cost the event loop no
 * more than one, and each advances batch by batch whatever the others' sizes.
 */
export class ImportTurns {
  private held = false;
  private readonly waiting: Array<() => void> = [];

  /** A pacer for one import; `run` holds the turn around the import's work. */
  pacer(): ImportPacer & { run<T>(work: () => Promise<T>): Promise<T> } {
    let since = batchStart();
    let startedAt = performance.now();
    let holding = false;
    const take = async () => {
      await this.acquire();
      holding = true;
      since = batchStart();
      startedAt = performance.now();
    };
    const give = () => {
      if (!holding) return;
      holding = false;
      this.release();
    };
    return {
      run: async (work) => {
        await take();
        try {
          return await work();
        } finally {
          give();
        }
      },
      pace: async () => {
        if (performance.now() - startedAt < PACE_BUDGET_MS) return;
        const mine = holding;
        give();
        await yieldToOtherWork(since);
        if (mine) await take();
        else {
          since = batchStart();
          startedAt = performance.now();
        }
      },
      aside: async (work) => {
        const mine = holding;
        give();
        try {
          return await work();
        } finally {
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

  /** Passes the turn to the next import waiting, if any (it stays held). */
  private release(): void {
    const next = this.waiting.shift();
    if (next === undefined) this.held = false;
    else next();
  }
}

/** Pacing for an import worked alone (no runner: tools, tests): yields to requests only. */
export function soloPacer(): ImportPacer {
  const turns = new ImportTurns();
  const pacer = turns.pacer();
  return { pace: () => pacer.pace(), aside: (work) => pacer.aside(work) };
}

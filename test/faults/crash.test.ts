import { describe, expect, it } from 'vitest';
import { enginesUnderTest } from '../support/engines.js';
import { crashSummary, runCrashCycles } from './support/crash-run.js';
import { faultSeed, reportLine } from './support/report.js';
import { strength } from './support/strength.js';

/**
 * Crashes: a real `pricebook serve` under concurrent 1000-item bulk creates is killed with
 * SIGKILL at random moments and restarted. Whatever it acknowledged must be there afterwards,
 * whole; whatever it did not must be there whole or not at all; keys, records and outbox
 * events agree; the engine finds its files intact. The negative controls prove the checker
 * sees loss when the server acknowledges before it commits, and every other figure when the
 * data is damaged behind its back, on both engines: crash-controls.test.ts (a file of their own,
 * so that the untimed group runs them beside this one).
 */
const engines = await enginesUnderTest();
const CYCLES = strength({ sqlite: 14, postgres: 6 }, { sqlite: 30, postgres: 10 });
/**
 * A restart takes one to several seconds, by the machine: cycles stop starting after 40 s
 * (at least 8 run on SQLite, 4 on PostgreSQL), which leaves the retry and the check most of
 * the test's 240 s. This file is the longest of the untimed group, which CI waits for.
 */
const CYCLE_BUDGET_MS = strength(40_000, 1_200_000);
const MIN_CYCLES = strength({ sqlite: 8, postgres: 4 }, { sqlite: 30, postgres: 10 });
const seed = faultSeed();

describe('crash: SIGKILL under concurrent bulk creates', () => {
  it.each(engines)(
    'loses no acknowledged batch and leaves none partial on %s',
    async (engine) => {
      const run = await runCrashCycles({
        engine,
        cycles: CYCLES[engine],
        budgetMs: CYCLE_BUDGET_MS,
        minCycles: MIN_CYCLES[engine],
        concurrency: 6,
        killAfterMs: [150, 1200],
        seed,
      });
      reportLine(crashSummary(`crash/${engine}`, run));
      expect(run.acked, 'batches acknowledged').toBeGreaterThan(run.cycles);
      expect(run.otherStatuses).toEqual({});
      expect({ wrongAnswers: run.wrongAnswers, unansweredAfterRetry: run.unansweredAfterRetry }).toEqual({ wrongAnswers: 0, unansweredAfterRetry: 0 });
      expect(run.check).toEqual({
        storedBatches: run.acked,
        lost: 0,
        partial: 0,
        duplicated: 0,
        answerMismatches: 0,
        keysWithoutRecords: 0,
        recordsWithoutKey: 0,
        badKeys: 0,
        eventsMissing: 0,
        orphanEvents: 0,
        integrity: 'ok',
      });
    },
    strength(240_000, 1_800_000),
  );
});

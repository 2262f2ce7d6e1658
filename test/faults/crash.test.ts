import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/config.js';
import { enginesUnderTest } from '../support/engines.js';
import type { Database } from '../../src/storage/database.js';
import { idempotencyKeyOf } from './support/crash-check.js';
import { type CrashRun, runCrashCycles } from './support/crash-run.js';
import { figure, faultSeed, reportLine } from './support/report.js';

/**
 * Crashes: a real `pricebook serve` under concurrent 1000-item bulk creates is killed with
 * SIGKILL at random moments and restarted. Whatever it acknowledged must be there afterwards,
 * whole; whatever it did not must be there whole or not at all; keys, records and outbox
 * events agree; the engine finds its files intact. The negative control proves the checker
 * sees loss when the server acknowledges before it commits.
 */
const engines = await enginesUnderTest();
const CYCLES = { sqlite: 30, postgres: 10 } as const;
const seed = faultSeed();

function summary(name: string, run: CrashRun): string {
  const { check } = run;
  return (
    `${name}: ${run.cycles} SIGKILL cycles, ${figure(run.acked)} acked batches (${figure(run.acked * 1000)} rows; ${run.retried} left unanswered by a kill and retried with their key, ${run.replayedOnRetry} of them replayed), ` +
    `${check.lost} lost, ${check.partial} partial, ${check.duplicated} duplicated, ${check.answerMismatches} answered ids not stored, ` +
    `${check.keysWithoutRecords + check.recordsWithoutKey + check.badKeys} key/record mismatches, ${check.eventsMissing + check.orphanEvents} event mismatches, ` +
    `integrity ${check.integrity} (${(run.elapsedMs / 1000).toFixed(0)} s)`
  );
}

describe('crash: SIGKILL under concurrent bulk creates', () => {
  it.each(engines)('loses no acknowledged batch and leaves none partial on %s', async (engine) => {
    const run = await runCrashCycles({ engine, cycles: CYCLES[engine], concurrency: 6, killAfterMs: [150, 1200], seed });
    reportLine(summary(`crash/${engine}`, run));
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
  }, 240_000);

  it('the fault switch is off unless PRICEBOOK_FAULT_ACK_BEFORE_COMMIT=1 is set', () => {
    expect(parseConfig({}).faultAckBeforeCommit).toBe(false);
    expect(parseConfig({ PRICEBOOK_FAULT_ACK_BEFORE_COMMIT: '1' }).faultAckBeforeCommit).toBe(true);
  });

  it('negative control: with PRICEBOOK_FAULT_ACK_BEFORE_COMMIT=1 the checker reports acknowledged batches lost', async () => {
    // Killed once the first answers are in (about a second after the start); the unanswered batches are not retried (each commit would hold SQLite for a second).
    const run = await runCrashCycles({ engine: 'sqlite', cycles: 5, concurrency: 6, killAfterMs: [1500, 2500], seed, ackBeforeCommit: true, retryUnanswered: false });
    reportLine(summary('crash/control (ack before commit, sqlite)', run));
    expect(run.check.lost).toBeGreaterThan(0);
    // Loss, not damage: the files are still sound.
    expect(run.check.integrity).toBe('ok');
  }, 120_000);

  it('negative control: rows, keys and events removed behind its back are reported as partial batches and mismatches', async () => {
    const run = await runCrashCycles({ engine: 'sqlite', cycles: 2, concurrency: 6, killAfterMs: [400, 800], seed, beforeCheck: damage });
    reportLine(summary('crash/control (rows, a key and an event deleted, sqlite)', run));
    expect(run.check).toMatchObject({ partial: 1, answerMismatches: 1, recordsWithoutKey: 1, eventsMissing: 1, orphanEvents: 1 });
  }, 120_000);
});

/** Deletes one row of the first stored batch, the key of the second and one outbox event of the third. */
async function damage({ db }: Database, storeId: number): Promise<void> {
  const rows = await db.selectFrom('trade_prices').select(['id', 'price']).where('store_id', '=', storeId).orderBy('id').execute();
  const firstRowOf = new Map<number, number>();
  for (const row of rows) if (!firstRowOf.has(Math.floor(row.price / 10_000))) firstRowOf.set(Math.floor(row.price / 10_000), row.id);
  const [first, second, third] = [...firstRowOf];
  if (third === undefined) throw new Error('the control needs three stored batches');
  await db.deleteFrom('trade_prices').where('id', '=', first![1]).execute();
  await db.deleteFrom('idempotency_keys').where('store_id', '=', storeId).where('key', '=', idempotencyKeyOf(second![0])).execute();
  await db.deleteFrom('events').where('store_id', '=', storeId).where('subject_id', '=', third[1]).where('topic', '=', 'trade_customer_product_price.created').execute();
}

import { describe, expect, it } from 'vitest';
import { performance } from 'node:perf_hooks';
import { busySince, LONG_WORK_BUDGET_MS, longWork, MAX_REST_MS, restAfter, restMs } from '../../src/modules/shared/long-work.js';

/** A clock the test moves, and a count of the turns and rests taken. */
function fake() {
  const state = { at: 1000, turns: 0, rests: 0 };
  const work = longWork({
    budgetMs: 8,
    now: () => state.at,
    giveWay: async () => {
      state.turns += 1;
    },
    restFor: async () => {
      state.rests += 1;
    },
  });
  return { state, work };
}

describe('long work', () => {
  it('takes no turn while under the budget', async () => {
    const { state, work } = fake();
    for (let i = 0; i < 7; i += 1) {
      state.at += 1;
      await work.step();
    }
    expect(state.turns).toBe(0);
  });

  it('takes a turn once the budget has passed, and the budget runs again from it', async () => {
    const { state, work } = fake();
    state.at += 8;
    await work.step();
    expect(state.turns).toBe(1);
    state.at += 7;
    await work.step();
    expect(state.turns).toBe(1);
    state.at += 1;
    await work.step();
    expect(state.turns).toBe(2);
  });

  it('a turn taken outright restarts the budget', async () => {
    const { state, work } = fake();
    state.at += 7;
    await work.turn();
    expect(state.turns).toBe(1);
    state.at += 7;
    await work.step();
    expect(state.turns).toBe(1);
  });

  it('each yields every item in order, stepping between them', async () => {
    const { state, work } = fake();
    const seen: number[] = [];
    for await (const item of work.each([1, 2, 3, 4])) {
      seen.push(item);
      state.at += 5;
    }
    expect(seen).toEqual([1, 2, 3, 4]);
    // Steps before items 2, 3 and 4: at 5 ms (no), 10 ms (yes, then 0), 5 ms (no).
    expect(state.turns).toBe(1);
  });

  it('a rest restarts the budget, and takes no turn of its own', async () => {
    const { state, work } = fake();
    state.at += 7;
    await work.rest();
    expect(state).toMatchObject({ turns: 0, rests: 1 });
    state.at += 7;
    await work.step();
    expect(state.turns).toBe(0);
    state.at += 1;
    await work.step();
    expect(state.turns).toBe(1);
  });

  it('rests as long as the process was busy, or a share of it, at least 1 ms and at most MAX_REST_MS', () => {
    expect([0, 0.2, 20, 99.5, 300].map((busyMs) => restMs(busyMs))).toEqual([1, 1, 20, 100, MAX_REST_MS]);
    expect([0, 20, 300].map((busyMs) => restMs(busyMs, 0.5))).toEqual([1, 10, MAX_REST_MS]);
    expect(MAX_REST_MS).toBe(100);
  });

  it('measures the busy time on the event loop since the mark', async () => {
    const since = busySince();
    for (const end = performance.now() + 30; performance.now() < end;);
    const started = performance.now();
    await restAfter(since);
    // Timers fire late, never early (a millisecond's rounding aside).
    expect(performance.now() - started).toBeGreaterThanOrEqual(29);
  });

  it('has one budget, a few milliseconds', () => {
    expect(LONG_WORK_BUDGET_MS).toBeGreaterThan(0);
    expect(LONG_WORK_BUDGET_MS).toBeLessThanOrEqual(10);
  });
});

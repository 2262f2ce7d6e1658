import { describe, expect, it } from 'vitest';
import { LONG_WORK_BUDGET_MS, longWork } from '../../src/modules/shared/long-work.js';

/** A clock the test moves, and a count of the turns taken. */
function fake() {
  const state = { at: 1000, turns: 0 };
  const work = longWork({
    budgetMs: 8,
    now: () => state.at,
    giveWay: async () => {
      state.turns += 1;
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

  it('has one budget, a few milliseconds', () => {
    expect(LONG_WORK_BUDGET_MS).toBeGreaterThan(0);
    expect(LONG_WORK_BUDGET_MS).toBeLessThanOrEqual(10);
  });
});

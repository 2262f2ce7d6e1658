import { describe, expect, it } from 'vitest';
import { continueUnlessAnswered } from './hook-outcome.js';

/** The calls a hook's `done` received. */
function recorder() {
  const calls: unknown[][] = [];
  const done = (...args: unknown[]) => void calls.push(args);
  return { calls, done };
}

describe('continueUnlessAnswered', () => {
  it('goes on at once for an outcome known now, not at all for an answered request', () => {
    const going = recorder();
    continueUnlessAnswered('continue', going.done);
    expect(going.calls).toEqual([[]]);
    const answered = recorder();
    continueUnlessAnswered('answered', answered.done);
    expect(answered.calls).toEqual([]);
  });

  it('fails the request on a rejection, one without a reason too: it never lets it go on past the hook', async () => {
    const failed = recorder();
    continueUnlessAnswered(Promise.reject(new Error('Redis down')), failed.done);
    const unexplained = recorder();
    continueUnlessAnswered(Promise.reject(undefined), unexplained.done);
    const later = recorder();
    continueUnlessAnswered(Promise.resolve('continue'), later.done);
    await new Promise((resolve) => setImmediate(resolve));
    expect(failed.calls).toEqual([[new Error('Redis down')]]);
    expect(unexplained.calls).toHaveLength(1);
    expect(unexplained.calls[0]![0]).toBeInstanceOf(Error);
    expect(later.calls).toEqual([[]]);
  });
});

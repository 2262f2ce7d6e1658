import type { HookHandlerDoneFunction } from 'fastify';
import type { Answer } from '../../modules/shared/answer.js';

/** What a callback hook did: answered the request itself (an error sent), or let it go on. */
export type HookOutcome = 'continue' | 'answered';

/**
 * Ends a callback hook whose work may or may not have had to wait: `done()` at once for an
 * outcome known now, after the promise for one that is not; an answered request is not passed
 * on (Fastify's rule for a hook that sends), and a failure is the request's error.
 */
export function continueUnlessAnswered(outcome: Answer<HookOutcome>, done: HookHandlerDoneFunction): void {
  if (outcome instanceof Promise) {
    outcome.then((settled) => {
      if (settled === 'continue') done();
    }, failWith(done));
  } else if (outcome === 'continue') done();
}

/**
 * A rejection handler that always fails the request: `done(undefined)` would let it go on,
 * past authentication too, so a promise rejected without a reason (never ours, but a
 * driver's could be) becomes an error of its own, as Fastify makes of it for an async hook.
 */
export function failWith(done: HookHandlerDoneFunction): (reason: unknown) => void {
  return (reason) => done(reason instanceof Error ? reason : new Error(`a hook's promise was rejected with ${String(reason)}`));
}

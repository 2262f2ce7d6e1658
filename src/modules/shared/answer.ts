/**
 * A value, or the promise of one where it must be waited for: what answers from memory answers
 * at once, and a request's hooks then wait for nothing (no promise, no turn of the microtask
 * queue); what asks Redis or the database answers through a promise.
 */
export type Answer<T> = T | Promise<T>;

/** `then` for an {@link Answer}: at once for a value, through the promise otherwise. */
export function thenAnswer<T, U>(answer: Answer<T>, next: (value: T) => Answer<U>): Answer<U> {
  return answer instanceof Promise ? answer.then(next) : next(answer);
}

import { type EventLoopUtilization, performance } from 'node:perf_hooks';

/**
 * The one budget of long work: milliseconds of work between two turns of the event loop. Long
 * work (a bulk create, a preview, a file's rows) calls `step()` between its small pieces; once
 * this much time has passed since its last turn, the step takes one, so what waits (requests,
 * database answers, due timers) is never held much longer than this plus one piece.
 */
export const LONG_WORK_BUDGET_MS = 5;

/**
 * One turn of the event loop: what arrived meanwhile (requests, answers of the database, due
 * timers) is handled before the caller goes on, without a pause. For a job that holds something
 * others wait for (SQLite's one writer, inside a transaction), where a pause would make them wait
 * longer: its steps stay short, and other requests still get a turn between them.
 *
 * Two immediates, not one: an immediate set while the loop handles I/O (a request's body, a
 * database answer) runs in the same pass of the loop, before its timers and its next poll for
 * I/O; the second one comes after them.
 */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(() => setImmediate(resolve)));
}

/** `result` a turn of the event loop later: a long commit and the answer's serialising do not share one. */
export async function onNextTurn<T>(result: T): Promise<T> {
  await nextTurn();
  return result;
}

/** The longest rest long work takes, whatever it was busy: requests get in long before. */
export const MAX_REST_MS = 100;

/** The event loop's use from now on: what `restAfter` measures the busy time by. */
export function busySince(): EventLoopUtilization {
  return performance.eventLoopUtilization();
}

/**
 * A pause of `share` of the time the event loop was busy since `since` (at least 1 ms, at most
 * `MAX_REST_MS`), during which the event loop runs what waits (requests, timers). For a job
 * between two batches outside a write transaction: on SQLite a batch holds the process (its
 * calls are synchronous) and a request needs several turns of the loop, each of which would
 * otherwise wait for a batch; on PostgreSQL a batch mostly waits on the server, the process
 * stays free, and the pause is next to nothing.
 */
export function restAfter(since: EventLoopUtilization, share = 1): Promise<void> {
  const ms = restMs(performance.eventLoopUtilization(since).active, share);
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** How long `restAfter` pauses after `busyMs` of work: `share` of it, at least 1 ms, at most `MAX_REST_MS`. */
export function restMs(busyMs: number, share = 1): number {
  return Math.min(MAX_REST_MS, Math.max(1, Math.ceil(busyMs * share)));
}

/** A piece of long work: it says where it could give way, the budget says when it does. */
export interface LongWork {
  /** Between two pieces: takes a turn of the event loop once the budget has passed since the last one. */
  step(): Promise<void>;
  /** A turn now, whatever the time: before a stretch known to be long of its own (a commit, a history append). */
  turn(): Promise<void>;
  /**
   * A rest now, as long as the process was busy since the last turn or rest (`restAfter`): between
   * two batches of a job that holds no write transaction others wait for (there a pause would
   * only lengthen it: `turn()`).
   */
  rest(): Promise<void>;
  /** The items, one by one, with a `step()` before each but the first. */
  each<T>(items: Iterable<T>): AsyncIterable<T>;
}

/** What `longWork` measures time with and gives way by; the defaults are the process's (a test injects its own). */
export interface LongWorkOptions {
  budgetMs?: number;
  now?: () => number;
  giveWay?: () => Promise<void>;
  /** How `rest()` pauses, given the event loop's use since the last turn or rest. */
  restFor?: (since: EventLoopUtilization) => Promise<void>;
}

/** Starts a piece of long work: its budget runs from now. */
export function longWork(options: LongWorkOptions = {}): LongWork {
  const budgetMs = options.budgetMs ?? LONG_WORK_BUDGET_MS;
  const now = options.now ?? (() => performance.now());
  const giveWay = options.giveWay ?? nextTurn;
  const restFor = options.restFor ?? restAfter;
  let since = now();
  let busy = busySince();
  const turn = async (): Promise<void> => {
    await giveWay();
    since = now();
    busy = busySince();
  };
  const step = async (): Promise<void> => {
    if (now() - since >= budgetMs) await turn();
  };
  return {
    step,
    turn,
    async rest(): Promise<void> {
      await restFor(busy);
      since = now();
      busy = busySince();
    },
    // By hand, not an async generator, which costs twice as much per item (10 000 items: about
    // 4 ms of looping against 2; bulk creates check their items this way). An item waits for a
    // turn only when one is due.
    each<T>(items: Iterable<T>): AsyncIterable<T> {
      return {
        [Symbol.asyncIterator](): AsyncIterator<T> {
          const iterator = items[Symbol.iterator]();
          let first = true;
          return {
            next(): Promise<IteratorResult<T>> {
              const result = iterator.next();
              if (result.done === true || first || now() - since < budgetMs) {
                first = false;
                return Promise.resolve(result);
              }
              return turn().then(() => result);
            },
          };
        },
      };
    },
  };
}

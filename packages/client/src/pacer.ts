import type { ResponseHeaders } from './transport.js';

export interface PacingOptions {
  /** Milliseconds to wait before a request when the last answer left 0 or 1 places; default 1000. Grows as the pacer learns. */
  initialWaitMs?: number;
  /** The longest wait it learns; default 60 000 ms. */
  maxWaitMs?: number;
  /** 429s retried for one request before the 429 is surfaced after all; default 20. */
  maxRetries?: number;
  /** The longest wait after a 429, whatever its `Retry-After` says; default: what it says. */
  maxRetryAfterMs?: number;
  /**
   * Whether a request waits first when the last answer left 0 or 1 places; default true.
   * `false`: requests go at once, never waiting for one another; only 429s are waited out (each
   * after its own `Retry-After`) and retried.
   */
  waitAhead?: boolean;
  /**
   * Told each wait as it begins, with its milliseconds and its cause (`retry-after`: a 429 asked
   * for it; `pacing`: the bucket was nearly full), and again with 0 once it is over.
   */
  onWait?: (waitMs: number, cause: WaitCause) => void;
}

/** Why the pacer waits: a 429's `Retry-After`, or the bucket nearly full before a request. */
export type WaitCause = 'retry-after' | 'pacing';

/** What the pacer did so far. */
export interface PacingCounters {
  /** HTTP requests sent, retries included. */
  requests: number;
  /** Milliseconds spent waiting: before requests, and after 429s. */
  waitedMs: number;
  /** 429 answers retried (after their `Retry-After`). */
  retriedAfter429: number;
}

/** How the pacer waits and reads the time: real timers, or a simulated clock in tests. */
export interface PacerTimer {
  /** Rejects with the signal's reason once it is aborted. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /** Milliseconds. */
  now(): number;
}

const realTimer: PacerTimer = {
  sleep: (ms, signal) =>
    new Promise((resolve, reject) => {
      if (signal?.aborted === true) return reject(signal.reason);
      const abort = () => {
        clearTimeout(timer);
        reject(signal?.reason);
      };
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', abort);
        resolve();
      }, ms);
      signal?.addEventListener('abort', abort, { once: true });
    }),
  now: () => Date.now(),
};

/**
 * Keeps a credential's `x-rate-limit-remaining` above 0 (contract §3.4: a leaky bucket per
 * credential).
 *
 * - Before a request, when the last answer said 0 or 1 places remain (counting requests still in
 *   flight), it waits long enough for the bucket to leak at least one place. It cannot know the
 *   leak rate, so it learns the wait: 1 s to begin with; doubled when a wait turned out too short
 *   (the answer after it had less room than the one before); after a 429, at least the wait
 *   before it plus its `Retry-After` (the time one place takes to leak, about).
 * - A 429 (another client on the same credential, a guess too short) is retried after its
 *   `Retry-After`, transparently, and counted.
 *
 * Requests pass its gate one at a time, so concurrent calls share what the last answer said.
 * Disabled, it only counts requests, and 429s reach the caller. With `waitAhead: false` it only
 * waits out 429s.
 */
export class Pacer {
  private readonly counters: PacingCounters = { requests: 0, waitedMs: 0, retriedAfter429: 0 };
  private readonly maxWaitMs: number;
  private readonly maxRetries: number;
  private readonly maxRetryAfterMs: number;
  private readonly waitAhead: boolean;
  private readonly onWait: ((waitMs: number, cause: WaitCause) => void) | undefined;
  private waitMs: number;
  /** `x-rate-limit-remaining` of the latest answer; undefined until one carried it. */
  private remaining: number | undefined;
  private inFlight = 0;
  private gate: Promise<void> = Promise.resolve();
  private answerListeners: Array<() => void> = [];

  constructor(
    private readonly enabled: boolean,
    options: PacingOptions = {},
    private readonly timer: PacerTimer = realTimer,
  ) {
    this.waitMs = options.initialWaitMs ?? 1000;
    this.maxWaitMs = options.maxWaitMs ?? 60_000;
    this.maxRetries = options.maxRetries ?? 20;
    this.maxRetryAfterMs = options.maxRetryAfterMs ?? Infinity;
    this.waitAhead = options.waitAhead ?? true;
    this.onWait = options.onWait;
  }

  /** A copy of the counters. */
  stats(): PacingCounters {
    return { ...this.counters };
  }

  /**
   * Sends through `send`, paced; answers the first response that is not a 429 to retry. An
   * aborted `signal` ends a wait at once, rejecting with its reason.
   */
  async run<R extends { status: number; headers: ResponseHeaders }>(send: () => Promise<R>, signal?: AbortSignal): Promise<R> {
    let retryAfterMs: number | undefined;
    for (let retries = 0; ; retries++) {
      const sleptMs = await this.enter(retryAfterMs, signal);
      const remainingBefore = this.remaining;
      let response: R;
      this.counters.requests += 1;
      try {
        response = await send();
      } catch (error) {
        this.leave();
        throw error;
      }
      // What the answer says first, then the requests waiting for it are woken.
      this.observe(response.headers, sleptMs > 0 ? remainingBefore : undefined);
      this.leave();
      if (!this.enabled || response.status !== 429 || retries >= this.maxRetries) return response;
      retryAfterMs = Math.min(this.maxRetryAfterMs, 1000 * (retryAfterSeconds(response.headers) ?? this.waitMs / 1000));
      // A place takes about what was waited before the refusal plus what it says is missing. A
      // 429 with places left is no rate limit (a store's import queue is full): waited out
      // all the same, but it says nothing of the leak.
      if (!(Number(response.headers['x-rate-limit-remaining']) > 0)) this.waitMs = Math.min(this.maxWaitMs, Math.max(this.waitMs, sleptMs + retryAfterMs));
      this.counters.retriedAfter429 += 1;
    }
  }

  /** Waits at the gate until this request may go; answers the milliseconds it slept for room. */
  private async enter(retryAfterMs: number | undefined, signal: AbortSignal | undefined): Promise<number> {
    if (!this.enabled || !this.waitAhead) {
      // No gate: each request waits out only its own 429s.
      const sleptMs = retryAfterMs === undefined ? 0 : await this.sleep(retryAfterMs, 'retry-after', signal);
      this.inFlight += 1;
      return sleptMs;
    }
    const previous = this.gate;
    let release!: () => void;
    this.gate = new Promise((resolve) => (release = resolve));
    await previous;
    try {
      let sleptMs = 0;
      if (retryAfterMs !== undefined) sleptMs = await this.sleep(retryAfterMs, 'retry-after', signal);
      while (sleptMs === 0 && this.remaining !== undefined && this.remaining - this.inFlight <= 1) {
        if (this.inFlight > 0) {
          // Requests under way will tell how much room there is: wait for the next answer.
          await new Promise<void>((resolve) => this.answerListeners.push(resolve));
          continue;
        }
        sleptMs = await this.sleep(this.waitMs, 'pacing', signal);
      }
      this.inFlight += 1;
      return sleptMs;
    } finally {
      release();
    }
  }

  private leave(): void {
    this.inFlight -= 1;
    const listeners = this.answerListeners;
    this.answerListeners = [];
    for (const listener of listeners) listener();
  }

  /** Takes in an answer's headers; `remainingBefore` is set when the pacer slept before it. */
  private observe(headers: ResponseHeaders, remainingBefore: number | undefined): void {
    const remaining = Number(headers['x-rate-limit-remaining']);
    if (headers['x-rate-limit-remaining'] === undefined || !Number.isInteger(remaining)) return;
    // After a wait the request should have found at least one more place than the last answer
    // left (and used it): less room than before means the bucket leaked less than a place.
    if (remainingBefore !== undefined && remaining < remainingBefore) this.waitMs = Math.min(this.maxWaitMs, this.waitMs * 2);
    this.remaining = remaining;
  }

  /** Sleeps `ms` (at least 1) and counts it; answers the milliseconds slept. */
  private async sleep(ms: number, cause: WaitCause, signal: AbortSignal | undefined): Promise<number> {
    const waitMs = Math.max(1, ms);
    const started = this.timer.now();
    this.onWait?.(waitMs, cause);
    try {
      await this.timer.sleep(waitMs, signal);
    } finally {
      this.onWait?.(0, cause);
    }
    const slept = Math.max(1, this.timer.now() - started);
    this.counters.waitedMs += slept;
    return slept;
  }
}

function retryAfterSeconds(headers: ResponseHeaders): number | undefined {
  const value = Number(headers['retry-after']);
  return headers['retry-after'] !== undefined && Number.isFinite(value) && value >= 0 ? value : undefined;
}

/**
 * Where the buckets live right now: `redis` (shared by every instance), `local-fallback`
 * (Redis is configured but does not answer, so each instance counts on its own until it does)
 * or `memory` (no Redis configured: one instance, its own buckets).
 */
export type RateLimiterMode = 'redis' | 'local-fallback' | 'memory';

export interface RateLimiterModeChange {
  mode: RateLimiterMode;
  /** What made Redis unreachable, on a change to `local-fallback`. */
  cause?: unknown;
}

/** The limiters' store, for `/healthz` and the log. */
export interface RateLimiterStatus {
  mode(): RateLimiterMode;
  /**
   * Calls `listener` on every change of mode, and at once when the store is already down (so a
   * listener that subscribes after an outage began still hears of it). Returns the unsubscribe.
   */
  onChange(listener: (change: RateLimiterModeChange) => void): () => void;
}

/** The status of in-memory limiters: always `memory`, never a change. */
export const memoryStatus: RateLimiterStatus = {
  mode: () => 'memory',
  onChange: () => () => undefined,
};

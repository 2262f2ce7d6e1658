import type { Answer } from '../modules/shared/answer.js';

/** The answer of a leaky bucket to one request. */
export interface RateDecision {
  allowed: boolean;
  /** Bucket size, for `x-rate-limit-limit`. */
  limit: number;
  /** Whole free places left after this request, for `x-rate-limit-remaining`. */
  remaining: number;
  /** Whole seconds until one place is free (≥ 1); 0 when allowed. */
  retryAfterSeconds: number;
}

export interface LeakyBucketOptions {
  /** Places in the bucket. */
  bucketSize: number;
  /** Places freed per second. */
  leakPerSecond: number;
}

/**
 * Leaky buckets keyed by credential (or client address). A refused request does not fill the
 * bucket further.
 */
export interface RateLimiter {
  /** Takes one place if there is one. */
  take(key: string): Answer<RateDecision>;
  /** Whether the bucket is full, without taking a place. */
  peek(key: string): Answer<RateDecision>;
  /**
   * Frees one place a `take` reserved and did not need (a sign-in whose password was right);
   * the bucket never goes below empty. Only for a place this caller took.
   */
  giveBack(key: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * The arithmetic shared by every implementation, in integers: the level is kept in
 * millionths of a request and time in milliseconds, so nothing drifts.
 */
export const LEVEL_UNIT = 1_000_000;

export function leakPerMillisecond(options: LeakyBucketOptions): number {
  // Leak rates have at most 3 decimals, so this is a whole number.
  return Math.round(options.leakPerSecond * 1000);
}

/** The level after one place is given back: never below empty. */
export function levelAfterGiveBack(levelUnits: number): number {
  return Math.max(0, levelUnits - LEVEL_UNIT);
}

export function decide(levelUnits: number, options: LeakyBucketOptions, taking: boolean): { decision: RateDecision; level: number } {
  const capacity = options.bucketSize * LEVEL_UNIT;
  const fits = levelUnits + LEVEL_UNIT <= capacity;
  const level = fits && taking ? levelUnits + LEVEL_UNIT : levelUnits;
  const remaining = Math.max(0, Math.floor((capacity - level) / LEVEL_UNIT));
  const missing = levelUnits + LEVEL_UNIT - capacity;
  const retryAfterSeconds = fits ? 0 : Math.max(1, Math.ceil(missing / leakPerMillisecond(options) / 1000));
  return { decision: { allowed: fits, limit: options.bucketSize, remaining, retryAfterSeconds }, level };
}

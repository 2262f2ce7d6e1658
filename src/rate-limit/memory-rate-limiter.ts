import type { Clock } from '../modules/clock.js';
import { decide, leakPerMillisecond, type LeakyBucketOptions, type RateDecision, type RateLimiter } from './rate-limiter.js';

interface Bucket {
  level: number;
  updatedAt: number;
}

/** Buckets that are empty again are dropped once the map holds this many. */
const SWEEP_THRESHOLD = 10_000;

/** One process's buckets. With several instances, each would have its own: use Redis there. */
export class MemoryRateLimiter implements RateLimiter {
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    private readonly options: LeakyBucketOptions,
    private readonly clock: Clock,
  ) {}

  take(key: string): Promise<RateDecision> {
    return Promise.resolve(this.apply(key, true));
  }

  peek(key: string): Promise<RateDecision> {
    return Promise.resolve(this.apply(key, false));
  }

  close(): Promise<void> {
    this.buckets.clear();
    return Promise.resolve();
  }

  private apply(key: string, taking: boolean): RateDecision {
    const now = this.clock.now();
    const bucket = this.buckets.get(key);
    const leaked = bucket === undefined ? 0 : Math.max(0, now - bucket.updatedAt) * leakPerMillisecond(this.options);
    const current = bucket === undefined ? 0 : Math.max(0, bucket.level - leaked);
    const { decision, level } = decide(current, this.options, taking);
    if (level > 0) {
      if (bucket === undefined && this.buckets.size >= SWEEP_THRESHOLD) this.sweep(now);
      this.buckets.set(key, { level, updatedAt: now });
    } else {
      this.buckets.delete(key);
    }
    return decision;
  }

  private sweep(now: number): void {
    const perMs = leakPerMillisecond(this.options);
    for (const [key, bucket] of this.buckets) {
      if (bucket.level - (now - bucket.updatedAt) * perMs <= 0) this.buckets.delete(key);
    }
  }
}

import type { Clock } from '../modules/shared/clock.js';
import { decide, leakPerMillisecond, levelAfterGiveBack, type LeakyBucketOptions, type RateDecision, type RateLimiter } from './rate-limiter.js';

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

  /** At once: the buckets are in memory. */
  take(key: string): RateDecision {
    return this.apply(key, true);
  }

  peek(key: string): RateDecision {
    return this.apply(key, false);
  }

  giveBack(key: string): Promise<void> {
    const now = this.clock.now();
    const level = levelAfterGiveBack(this.levelAt(key, now));
    if (level > 0) this.buckets.set(key, { level, updatedAt: now });
    else this.buckets.delete(key);
    return Promise.resolve();
  }

  close(): Promise<void> {
    this.buckets.clear();
    return Promise.resolve();
  }

  private apply(key: string, taking: boolean): RateDecision {
    const now = this.clock.now();
    const { decision, level } = decide(this.levelAt(key, now), this.options, taking);
    if (level > 0) {
      if (!this.buckets.has(key) && this.buckets.size >= SWEEP_THRESHOLD) this.sweep(now);
      this.buckets.set(key, { level, updatedAt: now });
    } else {
      this.buckets.delete(key);
    }
    return decision;
  }

  /** The bucket's level now, after its leak (units). */
  private levelAt(key: string, now: number): number {
    const bucket = this.buckets.get(key);
    if (bucket === undefined) return 0;
    return Math.max(0, bucket.level - Math.max(0, now - bucket.updatedAt) * leakPerMillisecond(this.options));
  }

  private sweep(now: number): void {
    const perMs = leakPerMillisecond(this.options);
    for (const [key, bucket] of this.buckets) {
      if (bucket.level - (now - bucket.updatedAt) * perMs <= 0) this.buckets.delete(key);
    }
  }
}

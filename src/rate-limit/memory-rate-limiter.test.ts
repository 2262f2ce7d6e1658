import { describe, expect, it } from 'vitest';
import { MemoryRateLimiter } from './memory-rate-limiter.js';

describe('MemoryRateLimiter', () => {
  it('answers take and peek at once, with no promise: a request checked against it waits for nothing', () => {
    let now = 0;
    const limiter = new MemoryRateLimiter({ bucketSize: 2, leakPerSecond: 1 }, { now: () => now });
    expect(limiter.peek('key:1')).toEqual({ allowed: true, limit: 2, remaining: 2, retryAfterSeconds: 0 });
    expect(limiter.take('key:1')).toEqual({ allowed: true, limit: 2, remaining: 1, retryAfterSeconds: 0 });
    expect(limiter.take('key:1')).toEqual({ allowed: true, limit: 2, remaining: 0, retryAfterSeconds: 0 });
    expect(limiter.take('key:1')).toEqual({ allowed: false, limit: 2, remaining: 0, retryAfterSeconds: 1 });
    now += 1000;
    expect(limiter.take('key:1')).toEqual({ allowed: true, limit: 2, remaining: 0, retryAfterSeconds: 0 });
  });
});

import type { Config } from '../config/config.js';
import type { Clock } from '../modules/shared/clock.js';
import { FallbackRateLimiter } from '../rate-limit/fallback-rate-limiter.js';
import { MemoryRateLimiter } from '../rate-limit/memory-rate-limiter.js';
import type { RedisConnectionOptions } from '../rate-limit/redis-connection.js';
import type { LeakyBucketOptions, RateLimiter } from '../rate-limit/rate-limiter.js';
import { memoryStatus, type RateLimiterStatus } from '../rate-limit/rate-limiter-status.js';

export interface RateLimiters {
  /** Per-credential buckets. */
  rateLimiter: RateLimiter;
  /** Per-client-address buckets of failed authentications (staff sign-ins among them). */
  authFailures: RateLimiter;
  /** Per-account buckets of failed staff sign-ins (keyed by e-mail, known or not). */
  signInFailures: RateLimiter;
  status: RateLimiterStatus;
  close(): Promise<void>;
}

/**
 * In-memory buckets, or with `REDIS_URL` buckets in Redis shared by every instance, each
 * backed by an in-memory one for while Redis does not answer.
 */
export async function buildRateLimiters(config: Config, clock: Clock, redisOptions: RedisConnectionOptions = {}): Promise<RateLimiters> {
  const perCredential: LeakyBucketOptions = { bucketSize: config.rateLimitBucket, leakPerSecond: config.rateLimitLeakPerSecond };
  const perAddress: LeakyBucketOptions = { bucketSize: config.authFailureBucket, leakPerSecond: config.authFailureLeakPerSecond };
  const perAccount: LeakyBucketOptions = { bucketSize: config.signInFailureBucket, leakPerSecond: config.signInFailureLeakPerSecond };
  if (config.redisUrl === undefined) {
    const rateLimiter = new MemoryRateLimiter(perCredential, clock);
    const authFailures = new MemoryRateLimiter(perAddress, clock);
    const signInFailures = new MemoryRateLimiter(perAccount, clock);
    return {
      rateLimiter,
      authFailures,
      signInFailures,
      status: memoryStatus,
      close: async () => void (await Promise.allSettled([rateLimiter.close(), authFailures.close(), signInFailures.close()])),
    };
  }
  // Loaded only when used: the Redis client costs a process without Redis some 6 MB of memory.
  const [{ RedisConnection }, { RedisRateLimiter }] = await Promise.all([
    import('../rate-limit/redis-connection.js'),
    import('../rate-limit/redis-rate-limiter.js'),
  ]);
  const connection = await RedisConnection.open(config.redisUrl, redisOptions);
  const gate = <T>(command: () => Promise<T>) => connection.attempt(command);
  const shared = (options: LeakyBucketOptions, namespace: string) =>
    new FallbackRateLimiter(new RedisRateLimiter(connection.client, options, `${config.redisPrefix}${namespace}`), new MemoryRateLimiter(options, clock), gate);
  const rateLimiter = shared(perCredential, 'rate:');
  const authFailures = shared(perAddress, 'auth-failures:');
  const signInFailures = shared(perAccount, 'sign-in-failures:');
  return {
    rateLimiter,
    authFailures,
    signInFailures,
    status: connection,
    close: async () => {
      await Promise.allSettled([rateLimiter.close(), authFailures.close(), signInFailures.close()]);
      await connection.close();
    },
  };
}

import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FallbackRateLimiter } from '../../src/rate-limit/fallback-rate-limiter.js';
import { MemoryRateLimiter } from '../../src/rate-limit/memory-rate-limiter.js';
import { RedisConnection } from '../../src/rate-limit/redis-connection.js';
import { RedisRateLimiter } from '../../src/rate-limit/redis-rate-limiter.js';
import type { LeakyBucketOptions } from '../../src/rate-limit/rate-limiter.js';
import type { RateLimiterModeChange } from '../../src/rate-limit/rate-limiter-status.js';
import { createRedisPrefix, redisAvailable, REDIS_TEST_URL } from '../support/engines.js';
import { freePort } from '../support/free-port.js';
import { startPrivateRedis } from '../support/redis-server.js';

const hasRedis = await redisAvailable();
/** One place leaks every 1000 s: nothing leaks while a test runs. */
const NO_LEAK: LeakyBucketOptions = { bucketSize: 40, leakPerSecond: 0.001 };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(!hasRedis)('Redis leaky bucket (the memory bucket’s semantics, shared)', () => {
  const { prefix, clear } = createRedisPrefix();
  let client: Redis;
  let other: Redis;
  let sequence = 0;
  const limiter = (options: LeakyBucketOptions, redis: Redis = client) => new RedisRateLimiter(redis, options, `${prefix}rate:`);
  const freshKey = () => `key:${++sequence}`;

  beforeAll(() => {
    client = new Redis(REDIS_TEST_URL);
    other = new Redis(REDIS_TEST_URL);
  });
  afterAll(async () => {
    await clear();
    client.disconnect();
    other.disconnect();
  });

  it('answers exactly what the memory bucket answers, take by take and peek by peek', async () => {
    const options: LeakyBucketOptions = { bucketSize: 5, leakPerSecond: 0.001 };
    const redis = limiter(options);
    const memory = new MemoryRateLimiter(options, { now: () => 1_000_000 });
    const key = freshKey();
    const script: Array<'take' | 'peek' | 'giveBack'> = [
      'peek',
      'take',
      'take',
      'peek',
      'take',
      'take',
      'take',
      'take',
      'peek',
      'take',
      'take',
      'peek',
      'giveBack',
      'peek',
      'take',
      'take',
      'giveBack',
      'giveBack',
      'peek',
    ];
    // A give-back answers nothing (undefined).
    const fromRedis: unknown[] = [];
    const fromMemory: unknown[] = [];
    for (const step of script) {
      fromRedis.push(await redis[step](key));
      fromMemory.push(await memory[step](key));
    }
    expect(fromRedis).toEqual(fromMemory);
    expect(fromRedis[1]).toEqual({ allowed: true, limit: 5, remaining: 4, retryAfterSeconds: 0 });
    expect(fromRedis[10]).toEqual({ allowed: false, limit: 5, remaining: 0, retryAfterSeconds: 1000 });
    // A place given back is free again at once: one take fits, the next does not.
    expect(fromRedis.slice(13, 16)).toEqual([
      { allowed: true, limit: 5, remaining: 1, retryAfterSeconds: 0 },
      { allowed: true, limit: 5, remaining: 0, retryAfterSeconds: 0 },
      { allowed: false, limit: 5, remaining: 0, retryAfterSeconds: 1000 },
    ]);
    expect(fromRedis.at(-1)).toEqual({ allowed: true, limit: 5, remaining: 2, retryAfterSeconds: 0 });
  });

  it('gives a place back atomically: never below empty, and an empty bucket’s key is deleted', async () => {
    const redis = limiter(NO_LEAK);
    const key = freshKey();
    await redis.giveBack(key);
    expect(await client.exists(redis.keyOf(key))).toBe(0);
    expect((await redis.take(key)).remaining).toBe(39);
    await redis.giveBack(key);
    expect(await client.exists(redis.keyOf(key))).toBe(0);
    await redis.giveBack(key);
    expect((await redis.take(key)).remaining).toBe(39);
    // 30 concurrent takes on two connections, each given back: only the place taken before stays.
    const [a, b] = [limiter(NO_LEAK, client), limiter(NO_LEAK, other)];
    await Promise.all(Array.from({ length: 30 }, (_, i) => (i % 2 === 0 ? a : b).take(key).then(() => (i % 3 === 0 ? b : a).giveBack(key))));
    expect((await a.peek(key)).remaining).toBe(39);
    const ttl = await client.pttl(redis.keyOf(key));
    expect(ttl).toBeGreaterThan(900_000);
    expect(ttl).toBeLessThanOrEqual(1_000_000);
  });

  it('gives a fresh key 39 of 40, and a peek takes nothing', async () => {
    const redis = limiter({ bucketSize: 40, leakPerSecond: 2 });
    const key = freshKey();
    expect(await redis.peek(key)).toEqual({ allowed: true, limit: 40, remaining: 40, retryAfterSeconds: 0 });
    expect(await client.exists(redis.keyOf(key))).toBe(0);
    expect(await redis.take(key)).toEqual({ allowed: true, limit: 40, remaining: 39, retryAfterSeconds: 0 });
  });

  it('admits exactly the bucket size from many concurrent callers on two connections; refusals take no place', async () => {
    const key = freshKey();
    const [a, b] = [limiter(NO_LEAK, client), limiter(NO_LEAK, other)];
    const decisions = await Promise.all(Array.from({ length: 200 }, (_, i) => (i % 2 === 0 ? a : b).take(key)));
    expect(decisions.filter((decision) => decision.allowed)).toHaveLength(40);
    const refused = decisions.filter((decision) => !decision.allowed);
    expect(refused).toHaveLength(160);
    for (const decision of refused) expect(decision).toEqual({ allowed: false, limit: 40, remaining: 0, retryAfterSeconds: 1000 });
    // Had the refusals filled the bucket, the wait would have grown by 1000 s with each one.
    expect((await a.peek(key)).retryAfterSeconds).toBe(1000);
  });

  it('leaks in Redis time and keeps the key only until the bucket would be empty', async () => {
    const redis = limiter({ bucketSize: 2, leakPerSecond: 20 });
    const key = freshKey();
    expect((await redis.take(key)).allowed).toBe(true);
    expect((await redis.take(key)).allowed).toBe(true);
    const refused = await redis.take(key);
    expect(refused).toEqual({ allowed: false, limit: 2, remaining: 0, retryAfterSeconds: 1 });
    // Two places drain in 100 ms at 20 per second.
    const ttl = await client.pttl(redis.keyOf(key));
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(100);
    await sleep(60);
    expect(await redis.take(key)).toMatchObject({ allowed: true, remaining: 0 });
    await sleep(150);
    expect(await client.exists(redis.keyOf(key))).toBe(0);
    expect(await redis.take(key)).toMatchObject({ allowed: true, remaining: 1 });
  });

  it('keeps one bucket per key, under the prefix, with the key as a Redis Cluster hash tag', async () => {
    const redis = limiter(NO_LEAK);
    await redis.take('key:7');
    expect(redis.keyOf('key:7')).toBe(`${prefix}rate:{key:7}`);
    expect(await client.hgetall(redis.keyOf('key:7'))).toEqual({ level: '1000000', at: expect.stringMatching(/^\d{13}$/) });
    expect((await redis.take('key:8')).remaining).toBe(39);
  });
});

describe.skipIf(!hasRedis)('Redis unreachable: per-instance fallback', () => {
  it('answers from local buckets at once when Redis is down, and says so once', async () => {
    const connection = await RedisConnection.open(`redis://127.0.0.1:${await freePort()}`, { connectTimeoutMs: 300 });
    const changes: RateLimiterModeChange[] = [];
    connection.onChange((change) => changes.push(change));
    const limiter = new FallbackRateLimiter(
      new RedisRateLimiter(connection.client, NO_LEAK, 'unused:'),
      new MemoryRateLimiter(NO_LEAK, { now: () => 0 }),
      (command) => connection.attempt(command),
    );
    try {
      const started = Date.now();
      expect(await limiter.take('key:1')).toMatchObject({ allowed: true, remaining: 39 });
      expect(await limiter.take('key:1')).toMatchObject({ allowed: true, remaining: 38 });
      // A place given back while Redis is down goes back to the local bucket.
      await limiter.giveBack('key:1');
      expect(await limiter.peek('key:1')).toMatchObject({ allowed: true, remaining: 39 });
      expect(await limiter.take('key:1')).toMatchObject({ allowed: true, remaining: 38 });
      // A refused connection is known at once: nowhere near a command timeout.
      expect(Date.now() - started).toBeLessThan(500);
      expect(connection.mode()).toBe('local-fallback');
      expect(changes.map((change) => change.mode)).toEqual(['local-fallback']);
    } finally {
      await limiter.close();
      await connection.close();
    }
  });

  it('goes local when its Redis dies and shared again when it is back, with one change each way', async () => {
    const server = await startPrivateRedis();
    const connection = await RedisConnection.open(server.url, { maxReconnectDelayMs: 100 });
    const changes: string[] = [];
    connection.onChange((change) => changes.push(change.mode));
    const shared = new RedisRateLimiter(connection.client, NO_LEAK, 'test:');
    const limiter = new FallbackRateLimiter(shared, new MemoryRateLimiter(NO_LEAK, { now: () => 0 }), (command) => connection.attempt(command));
    try {
      expect(connection.mode()).toBe('redis');
      expect((await limiter.take('key:1')).remaining).toBe(39);
      await server.kill();
      for (let i = 0; i < 5; i++) expect((await limiter.take('key:1')).allowed).toBe(true);
      expect(connection.mode()).toBe('local-fallback');
      await server.start();
      const deadline = Date.now() + 5000;
      while (connection.mode() !== 'redis' && Date.now() < deadline) await sleep(50);
      expect(connection.mode()).toBe('redis');
      // The restarted Redis is empty: a fresh shared bucket.
      expect((await limiter.take('key:1')).remaining).toBe(39);
      expect(changes).toEqual(['local-fallback', 'redis']);
    } finally {
      await limiter.close();
      await connection.close();
      await server.kill();
    }
  });
  it('does not let a hung Redis hold requests: one waits the command timeout, the others go local at once', async () => {
    const server = await startPrivateRedis();
    const connection = await RedisConnection.open(server.url, { commandTimeoutMs: 300 });
    const limiter = new FallbackRateLimiter(
      new RedisRateLimiter(connection.client, NO_LEAK, 'test:'),
      new MemoryRateLimiter(NO_LEAK, { now: () => 0 }),
      (command) => connection.attempt(command),
    );
    try {
      expect((await limiter.take('key:1')).remaining).toBe(39);
      server.pause();
      let started = Date.now();
      expect((await limiter.take('key:1')).allowed).toBe(true);
      const firstWait = Date.now() - started;
      expect(firstWait).toBeGreaterThanOrEqual(250);
      expect(firstWait).toBeLessThan(1000);
      expect(connection.mode()).toBe('local-fallback');
      // Down but still connected: one request probes Redis (and waits), the rest do not wait.
      started = Date.now();
      const answers = await Promise.all(Array.from({ length: 20 }, () => limiter.take('key:1').then((answer) => ({ ...answer, ms: Date.now() - started }))));
      expect(answers.every((answer) => answer.allowed)).toBe(true);
      expect(answers.filter((answer) => answer.ms < 150).length).toBeGreaterThanOrEqual(19);
      expect(Math.max(...answers.map((answer) => answer.ms))).toBeLessThan(1000);
      server.resume();
      const deadline = Date.now() + 5000;
      while (connection.mode() !== 'redis' && Date.now() < deadline) {
        await limiter.take('key:2');
        await sleep(50);
      }
      expect(connection.mode()).toBe('redis');
    } finally {
      server.resume();
      await limiter.close();
      await connection.close();
      await server.kill();
    }
  });

  it('recovers when Redis has forgotten the script (SCRIPT FLUSH, on a Redis of its own)', async () => {
    const server = await startPrivateRedis();
    const redis = new Redis(server.url);
    try {
      const limiter = new RedisRateLimiter(redis, NO_LEAK, 'test:');
      await limiter.take('key:1');
      await redis.script('FLUSH');
      expect((await limiter.take('key:1')).remaining).toBe(38);
    } finally {
      redis.disconnect();
      await server.kill();
    }
  });
});

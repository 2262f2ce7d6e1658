import { describe, expect, it } from 'vitest';
import { redisAvailable } from '../support/engines.js';
import { startPrivateRedis } from '../support/redis-server.js';
import { startTestServer } from '../support/test-server.js';

/**
 * README: "no request waits more than 500 ms on a dead Redis". With the default settings (no
 * timeout configured), a Redis that accepts and never answers (SIGSTOP) costs a request at most
 * the 500 ms command timeout, and the requests after it none. SQLite: the engine plays no part.
 */
const hasRedis = await redisAvailable();

describe.skipIf(!hasRedis)('REDIS_URL pointing at a hung Redis, default timeouts', () => {
  it('answers each request after at most the 500 ms command timeout, from local buckets', async () => {
    const redis = await startPrivateRedis();
    const server = await startTestServer('sqlite', { REDIS_URL: redis.url, PRICEBOOK_RATE_LIMIT_BUCKET: '1000', PRICEBOOK_RATE_LIMIT_LEAK: '0.001' });
    try {
      const tenant = await server.createTenant();
      const timed = async () => {
        const started = performance.now();
        const response = await server.request('GET', '/v1/customers', { token: tenant.token });
        return { response, ms: performance.now() - started };
      };
      const shared = await timed();
      expect(shared.response.headers['x-rate-limit-remaining']).toBe('999');
      expect((await server.request('GET', '/healthz')).body).toMatchObject({ rateLimiter: 'redis' });

      redis.pause();
      // The first request finds out: it waits for the command timeout, once.
      const first = await timed();
      expect(first.response.status).toBe(200);
      expect(first.response.headers['x-rate-limit-limit']).toBe('1000');
      expect(first.ms).toBeGreaterThanOrEqual(450);
      expect(first.ms, `the first request after the hang waited ${first.ms.toFixed(0)} ms`).toBeLessThan(900);
      // The local bucket is fresh: Redis's 1 place is not known to it.
      expect(first.response.headers['x-rate-limit-remaining']).toBe('999');
      // For 2.5 s, one request after another: each tries Redis at most once (once a second one
      // of them does), so none waits two timeouts.
      const until = performance.now() + 2500;
      const waits: number[] = [];
      while (performance.now() < until && waits.length < 400) {
        const later = await timed();
        expect(later.response.status).toBe(200);
        waits.push(later.ms);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(Math.max(...waits), `waits after the first: ${waits.map((ms) => ms.toFixed(0)).join(', ')}`).toBeLessThan(900);
      // Redis is still tried now and then (a probe waits its timeout), not given up on.
      expect(waits.filter((ms) => ms >= 450).length).toBeGreaterThanOrEqual(1);
      expect((await server.request('GET', '/healthz')).body).toMatchObject({ status: 'ok', rateLimiter: 'local-fallback' });
    } finally {
      redis.resume();
      await server.close();
      await redis.kill();
    }
  });
});

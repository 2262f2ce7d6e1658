import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../../src/config/config.js';
import { expectError } from '../support/conventions.js';
import { createRedisPrefix, enginesUnderTest, redisAvailable, REDIS_TEST_URL } from '../support/engines.js';
import { suiteServer } from '../support/suite-server.js';

const hasRedis = await redisAvailable();

describe('PRICEBOOK_REDIS_PREFIX', () => {
  it('defaults to pricebook: and refuses spaces and braces (they would change Redis Cluster hash tags)', () => {
    expect(parseConfig({}).redisPrefix).toBe('pricebook:');
    expect(parseConfig({ PRICEBOOK_REDIS_PREFIX: 'shop-a:' }).redisPrefix).toBe('shop-a:');
    for (const bad of ['a b', 'x{1}:', 'x}']) {
      expect(() => parseConfig({ PRICEBOOK_REDIS_PREFIX: bad })).toThrow(ConfigError);
      expect(() => parseConfig({ PRICEBOOK_REDIS_PREFIX: bad })).toThrow(/PRICEBOOK_REDIS_PREFIX/);
    }
  });
});

describe.skipIf(!hasRedis).each(await enginesUnderTest())('contract §3.4 rate limit with REDIS_URL on %s', (engine) => {
  const keys = createRedisPrefix();
  // Registered first, so it runs last: after the server has closed.
  afterAll(() => keys.clear());
  // Bucket of 3; one place leaks every 1000 s.
  const suite = suiteServer(engine, {
    env: { REDIS_URL: REDIS_TEST_URL, PRICEBOOK_REDIS_PREFIX: keys.prefix, PRICEBOOK_RATE_LIMIT_BUCKET: '3', PRICEBOOK_RATE_LIMIT_LEAK: '0.001' },
    tenants: 0,
  });

  it('answers with the same headers as the memory bucket, and /healthz says redis', async () => {
    const { token } = await suite.server.createTenant();
    const remaining: unknown[] = [];
    for (let i = 0; i < 3; i++) {
      const response = await suite.server.request('GET', '/v1/customers', { token });
      expect(response.status).toBe(200);
      expect(response.headers['x-rate-limit-limit']).toBe('3');
      remaining.push(response.headers['x-rate-limit-remaining']);
    }
    expect(remaining).toEqual(['2', '1', '0']);
    const refused = await suite.server.request('GET', '/v1/customers', { token });
    expectError(refused, 429, 11);
    expect(refused.headers['x-rate-limit-remaining']).toBe('0');
    expect(refused.headers['retry-after']).toBe('1000');
    expect((await suite.server.request('GET', '/healthz')).body).toEqual({ status: 'ok', database: 'ok', rateLimiter: 'redis' });
  });
});

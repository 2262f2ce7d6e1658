import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../../src/config/config.js';
import { expectError } from '../support/conventions.js';
import { createRedisPrefix, enginesUnderTest, redisAvailable, REDIS_TEST_URL } from '../support/engines.js';
import { createSignedInStaff, deviceCookieIn, signIn, signInBurst, statusCounts, withBrowserAt } from '../support/staff.js';
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

describe.skipIf(!hasRedis).each(await enginesUnderTest())('staff sign-in throttle with REDIS_URL on %s', (engine) => {
  const keys = createRedisPrefix();
  // Registered first, so it runs last: after the servers have closed.
  afterAll(() => keys.clear());
  const BUCKET = 10;
  const withRedis = (env: Record<string, string>) =>
    suiteServer(engine, {
      tenants: 1,
      env: { REDIS_URL: REDIS_TEST_URL, PRICEBOOK_REDIS_PREFIX: keys.prefix, PRICEBOOK_SIGN_IN_FAILURE_BUCKET: String(BUCKET), ...env },
    });

  describe('a burst', () => {
    // Leaking one place a second (Retry-After 1 s); scrypt at 2^13 (8 MiB, some 25 ms a hash),
    // so every sign-in of a burst arrives within one scrypt's time.
    const suite = withRedis({ PRICEBOOK_SIGN_IN_FAILURE_LEAK: '1', PRICEBOOK_PASSWORD_COST: '13' });

    it('checks at most the bucket’s size of passwords in a burst of concurrent sign-ins; after Retry-After, only what leaked', async () => {
      const member = await createSignedInStaff(suite.server, suite.tenant.storeId, 'viewer');
      const started = performance.now();
      const first = await signInBurst(suite.server, member.email, member.password, 29);
      const counts = statusCounts(first);
      expect(first.length - (counts['429'] ?? 0), JSON.stringify(counts)).toBeLessThanOrEqual(BUCKET);
      const waits = first.filter((response) => response.status === 429).map((response) => Number(response.headers['retry-after']));
      expect(Math.max(...waits)).toBe(1);
      await new Promise((resolve) => setTimeout(resolve, 1000));
      // Places leak from when the first burst took them (after `started`) to when the second takes its own.
      const elapsed = (performance.now() - started) / 1000;
      const second = await signInBurst(suite.server, member.email, member.password, 19);
      const again = statusCounts(second);
      const checked = second.length - (again['429'] ?? 0);
      expect(checked, JSON.stringify(again)).toBeGreaterThanOrEqual(1);
      expect(checked, JSON.stringify(again)).toBeLessThanOrEqual(Math.min(BUCKET, BUCKET - (counts['401'] ?? 0) + Math.ceil(elapsed + 0.5)));
      expect((await suite.server.request('GET', '/healthz')).body).toMatchObject({ rateLimiter: 'redis' });
    });
  });

  describe('device cookies and staff reset', () => {
    // Nothing leaks during the test.
    const suite = withRedis({ PRICEBOOK_SIGN_IN_FAILURE_LEAK: '0.001' });

    it('keeps a device cookie’s bucket apart from the account’s, and staff reset empties the account’s', async () => {
      const member = await createSignedInStaff(suite.server, suite.tenant.storeId, 'viewer');
      await withBrowserAt(suite.server, '127.0.0.2', (browser) =>
        withBrowserAt(suite.server, '127.0.0.3', async (attacker) => {
          const device = deviceCookieIn(await browser.signIn(member.email, member.password))!;
          // Concurrent guesses from another address: exactly the bucket's size get a 401.
          const guesses = await Promise.all(Array.from({ length: 2 * BUCKET }, (_, attempt) => attacker.signIn(member.email, `a guess ${attempt}`)));
          expect(statusCounts(guesses)).toEqual({ 401: BUCKET, 429: BUCKET });
          expect((await browser.signIn(member.email, member.password)).status).toBe(429);
          expect((await browser.signIn(member.email, member.password, device)).status).toBe(201);
          const reset = await suite.server.services.staff.reset(suite.tenant.storeId, member.email);
          expect((await signIn(suite.server, member.email, reset.initialPassword)).status).toBe(201);
        }),
      );
    });
  });
});

import { describe, expect, it } from 'vitest';
import { basic, expectError } from '../support/conventions.js';
import { enginesUnderTest } from '../support/engines.js';
import { suiteServer } from '../support/suite-server.js';
import type { HttpResponse } from '../support/test-server.js';

function bucketHeaders(response: HttpResponse): { limit: unknown; remaining: unknown } {
  return { limit: response.headers['x-rate-limit-limit'], remaining: response.headers['x-rate-limit-remaining'] };
}

describe.each(await enginesUnderTest())('contract §3.4 rate limit on %s', (engine) => {
  // Bucket of 5; one place leaks away every 1000 s, so nothing leaks during the test.
  const suite = suiteServer(engine, { env: { PRICEBOOK_RATE_LIMIT_BUCKET: '5', PRICEBOOK_RATE_LIMIT_LEAK: '0.001' }, tenants: 0 });

  it('counts every authenticated request, whatever its answer, and refuses the 6th with 429 code 11', async () => {
    const tenant = await suite.server.createTenant();
    const token = tenant.token;
    const first = await suite.api.request('GET', '/v1/customers', { token });
    expect(first.status).toBe(200);
    expect(bucketHeaders(first)).toEqual({ limit: '5', remaining: '4' });

    const answers: Array<[number, HttpResponse]> = [
      [404, await suite.api.request('GET', '/v1/no-such-thing', { token })],
      [405, await suite.api.request('PATCH', '/v1/customers', { token })],
      [415, await suite.api.request('POST', '/v1/customers', { token, rawBody: 'email=a', headers: { 'content-type': 'text/plain' } })],
      [422, await suite.api.request('POST', '/v1/customers', { token, body: { email: 5 } })],
    ];
    let remaining = 3;
    for (const [status, response] of answers) {
      expect(response.status).toBe(status);
      expect(bucketHeaders(response), `${status}`).toEqual({ limit: '5', remaining: String(remaining) });
      remaining--;
    }

    const refused = await suite.api.request('GET', '/v1/customers', { token });
    expectError(refused, 429, 11);
    expect(bucketHeaders(refused)).toEqual({ limit: '5', remaining: '0' });
    const retryAfter = Number(refused.headers['retry-after']);
    expect(refused.headers['retry-after']).toMatch(/^\d+$/);
    expect(retryAfter).toBeGreaterThanOrEqual(1);

    // A refused request takes no place: had it filled the bucket further, the wait would grow
    // by a whole place (1000 s at this leak rate) with each refusal.
    for (let i = 0; i < 5; i++) {
      const again = await suite.api.request('POST', '/v1/customers', { token, body: { email: `refused${i}@example.com` } });
      expectError(again, 429, 11);
      expect(bucketHeaders(again)).toEqual({ limit: '5', remaining: '0' });
      expect(Number(again.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(Number(again.headers['retry-after'])).toBeLessThanOrEqual(retryAfter);
    }
  });

  it('keeps one bucket per credential, the same for its Bearer token and Basic pair', async () => {
    const tenant = await suite.server.createTenant();
    const second = await suite.server.services.credentials.issueKey(tenant.storeId);
    expect(bucketHeaders(await suite.api.request('GET', '/v1/customers', { token: tenant.token }))).toEqual({ limit: '5', remaining: '4' });
    expect(bucketHeaders(await suite.api.request('GET', '/v1/customers', { headers: { authorization: basic(tenant.key, tenant.secret) } }))).toEqual({
      limit: '5',
      remaining: '3',
    });
    // Another credential of the same store has a bucket of its own.
    expect(bucketHeaders(await suite.api.request('GET', '/v1/customers', { token: second.token }))).toEqual({ limit: '5', remaining: '4' });
  });

  it('puts the headers on 403, 400 and 413 answers too', async () => {
    const reader = await suite.server.createTenant(['catalog:read']);
    const forbidden = await suite.api.request('POST', '/v1/customers', { token: reader.token, body: { email: 'r@example.com' } });
    expectError(forbidden, 403, 4);
    expect(bucketHeaders(forbidden)).toEqual({ limit: '5', remaining: '4' });

    const tenant = await suite.server.createTenant();
    const badJson = await suite.api.request('POST', '/v1/customers', { token: tenant.token, rawBody: '{', headers: { 'content-type': 'application/json' } });
    expectError(badJson, 400, 8);
    expect(bucketHeaders(badJson)).toEqual({ limit: '5', remaining: '4' });
    const badQuery = await suite.api.request('GET', '/v1/customers?count=0', { token: tenant.token });
    expectError(badQuery, 400, 9);
    expect(bucketHeaders(badQuery)).toEqual({ limit: '5', remaining: '3' });
    const tooLarge = await suite.api.request('POST', '/v1/customers', {
      token: tenant.token,
      rawBody: Buffer.alloc(1024 * 1024 + 1, 0x20),
      headers: { 'content-type': 'application/json' },
    });
    expectError(tooLarge, 413, 12);
    expect(bucketHeaders(tooLarge)).toEqual({ limit: '5', remaining: '2' });
    const missing = await suite.api.request('GET', '/v1/customers/999999', { token: tenant.token });
    expectError(missing, 404, 5);
    expect(bucketHeaders(missing)).toEqual({ limit: '5', remaining: '1' });
  });

  it('puts no rate-limit headers on unauthenticated answers, which take no place in any bucket', async () => {
    const tenant = await suite.server.createTenant();
    const attempts: Array<Record<string, string>> = [{}, { authorization: `Bearer ${tenant.key}.sk_wrong` }];
    for (const headers of attempts) {
      const response = await suite.api.request('GET', '/v1/customers', { headers });
      expectError(response, 401, 3);
      expect(bucketHeaders(response)).toEqual({ limit: undefined, remaining: undefined });
    }
    expect(bucketHeaders(await suite.api.request('GET', '/v1/customers', { token: tenant.token }))).toEqual({ limit: '5', remaining: '4' });
  });

  it('puts no rate-limit headers on the public paths', async () => {
    const tenant = await suite.server.createTenant();
    const health = await suite.api.request('GET', '/healthz', { token: tenant.token });
    expect(health.status).toBe(200);
    expect(bucketHeaders(health)).toEqual({ limit: undefined, remaining: undefined });
  });
});

describe.each(await enginesUnderTest())('contract §3.4 rate-limit defaults on %s', (engine) => {
  // The contract's defaults: bucket 40, leak 2 per second.
  const suite = suiteServer(engine, { env: { PRICEBOOK_RATE_LIMIT_BUCKET: '', PRICEBOOK_RATE_LIMIT_LEAK: '' }, tenants: 1 });

  it('announces a bucket of 40', async () => {
    const response = await suite.server.request('GET', '/v1/customers', { token: suite.tenant.token });
    expect(bucketHeaders(response)).toEqual({ limit: '40', remaining: '39' });
  });
});

import { describe, expect, it } from 'vitest';
import { basic, customerCount, expectError } from '../support/conventions.js';
import { enginesUnderTest } from '../support/engines.js';
import { rawTlsExchange } from '../support/raw-http.js';
import { suiteServer } from '../support/suite-server.js';
import type { HttpResponse } from '../support/test-server.js';

function expectUnauthenticated(response: HttpResponse, what: string): void {
  expect({ what, status: response.status, code: (response.body as { code?: number }).code }).toEqual({ what, status: 401, code: 3 });
  expectError(response, 401, 3);
  expect(response.headers['www-authenticate'], what).toMatch(/^Bearer realm="pricebook"/);
  expect(response.headers['www-authenticate'], what).toMatch(/Basic realm="pricebook"/);
  // Unauthenticated answers say nothing about any credential's bucket.
  expect(response.headers['x-rate-limit-limit'], what).toBeUndefined();
  expect(response.headers['x-rate-limit-remaining'], what).toBeUndefined();
}

describe.each(await enginesUnderTest())('contract §3.3 authentication on %s', (engine) => {
  const suite = suiteServer(engine);

  it('accepts the Bearer token', async () => {
    const response = await suite.api.request('GET', '/v1/customers', { token: suite.tenant.token });
    expect(response.status).toBe(200);
    expect(response.body).toEqual([]);
  });

  it('accepts HTTP Basic with the key as user name and the secret as password, scheme in any case', async () => {
    const created = await suite.api.request('POST', '/v1/customers', {
      headers: { authorization: basic(suite.tenant.key, suite.tenant.secret) },
      body: { email: 'basic@example.com' },
    });
    expect(created.status).toBe(201);
    const token = basic(suite.tenant.key, suite.tenant.secret).slice('Basic '.length);
    for (const scheme of ['basic', 'BASIC']) {
      const listed = await suite.api.request('GET', '/v1/customers', { headers: { authorization: `${scheme} ${token}` } });
      expect(listed.status).toBe(200);
      expect(listed.body).toEqual([created.body]);
    }
    const bearer = await suite.api.request('GET', '/v1/customers', { headers: { authorization: `bearer ${suite.tenant.token}` } });
    expect(bearer.body).toEqual([created.body]);
  });

  it('answers every malformed, unknown or wrong credential with 401 code 3 and a challenge', async () => {
    const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');
    const cases: Array<[string, string | string[] | undefined]> = [
      ['no Authorization header', undefined],
      ['empty value', ''],
      ['Bearer alone', 'Bearer'],
      ['Bearer and a space', 'Bearer '],
      ['Basic alone', 'Basic'],
      ['unknown scheme', `Token ${suite.tenant.token}`],
      ['token without scheme', suite.tenant.token],
      ['Bearer with two spaces', `Bearer  ${suite.tenant.token}`],
      ['Bearer with a trailing word', `Bearer ${suite.tenant.token} extra`],
      ['Bearer without the secret', `Bearer ${suite.tenant.key}`],
      ['Bearer key and dot only', `Bearer ${suite.tenant.key}.`],
      ['Bearer of the Basic pair', `Bearer ${suite.tenant.key}:${suite.tenant.secret}`],
      ['unknown key', `Bearer pk_unknownunknownunknownun.${suite.tenant.secret}`],
      ['right key, wrong secret', `Bearer ${suite.tenant.key}.sk_${'x'.repeat(43)}`],
      ['right key, secret of another store', `Bearer ${suite.tenant.key}.${suite.other.secret}`],
      ['right key, secret one character short', `Bearer ${suite.tenant.token.slice(0, -1)}`],
      ['Basic: bad base64', 'Basic %%%not-base64%%%'],
      ['Basic: base64 without padding', `Basic ${b64(`${suite.tenant.key}:${suite.tenant.secret}`).replace(/=+$/, '')}x`],
      ['Basic: no colon', `Basic ${b64(`${suite.tenant.key}${suite.tenant.secret}`)}`],
      ['Basic: empty user', `Basic ${b64(`:${suite.tenant.secret}`)}`],
      ['Basic: empty password', `Basic ${b64(`${suite.tenant.key}:`)}`],
      ['Basic: wrong secret', basic(suite.tenant.key, `${suite.tenant.secret}x`)],
      ['Basic: the token as user name', basic(suite.tenant.token, '')],
      ['Basic: unknown key', basic('pk_nobody', suite.tenant.secret)],
      ['very long value', `Bearer ${'a'.repeat(4000)}.${'b'.repeat(4000)}`],
      ['two Authorization headers, both valid', [`Bearer ${suite.tenant.token}`, `Bearer ${suite.tenant.token}`]],
      ['two Authorization headers, Bearer and Basic', [`Bearer ${suite.tenant.token}`, basic(suite.tenant.key, suite.tenant.secret)]],
    ];
    const before = await customerCount(suite.server, suite.tenant.token);
    for (const [what, authorization] of cases) {
      const headers: Record<string, string | string[]> = authorization === undefined ? {} : { authorization };
      expectUnauthenticated(await suite.api.request('GET', '/v1/customers', { headers }), what);
      expectUnauthenticated(await suite.api.request('POST', '/v1/customers', { headers, body: { email: 'sneaky@example.com' } }), `POST with ${what}`);
    }
    expect(await customerCount(suite.server, suite.tenant.token)).toBe(before);
  });

  it('refuses two Authorization headers sent on the wire, even both valid', async () => {
    const request = [
      'GET /v1/customers HTTP/1.1',
      'Host: localhost',
      `Authorization: Bearer ${suite.tenant.token}`,
      `Authorization: Bearer ${suite.tenant.token}`,
      'Connection: close',
      '',
      '',
    ].join('\r\n');
    const response = await rawTlsExchange(suite.server.port, suite.server.ca, request);
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ code: 3, message: expect.any(String) });
    expect(response.headers['www-authenticate']).toMatch(/Bearer/);
  });

  it('answers unknown paths under /v1/ with 401 to an unauthenticated caller: routes are not revealed', async () => {
    for (const [method, urlPath] of [
      ['GET', '/v1/nope'],
      ['GET', '/v1/customers/abc'],
      ['PATCH', '/v1/customers'],
      ['GET', '/v1/secret-admin/1'],
      ['DELETE', '/v1/'],
      ['GET', '/v1/%zz'],
      ['GET', `/v1/customers/${'9'.repeat(300)}`],
    ] as const) {
      expectUnauthenticated(await suite.api.request(method, urlPath), `${method} ${urlPath}`);
      expectUnauthenticated(
        await suite.api.request(method, urlPath, { headers: { authorization: 'Bearer pk_x.sk_y' } }),
        `${method} ${urlPath} with a bad token`,
      );
    }
  });

  it('stops accepting a revoked credential at once, Bearer and Basic alike', async () => {
    const doomed = await suite.server.createTenant();
    expect((await suite.api.request('GET', '/v1/customers', { token: doomed.token })).status).toBe(200);
    await suite.server.services.credentials.revokeKey(doomed.keyId);
    expectUnauthenticated(await suite.api.request('GET', '/v1/customers', { token: doomed.token }), 'revoked Bearer');
    expectUnauthenticated(await suite.api.request('GET', '/v1/customers', { headers: { authorization: basic(doomed.key, doomed.secret) } }), 'revoked Basic');
    // Other credentials are untouched.
    expect((await suite.api.request('GET', '/v1/customers', { token: suite.tenant.token })).status).toBe(200);
  });
});

describe.each(await enginesUnderTest())('contract §3.3 failed-authentication throttling on %s', (engine) => {
  // Nothing is forgiven during the test: one failure leaks away in 1000 s.
  const suite = suiteServer(engine, { env: { PRICEBOOK_AUTH_FAILURE_BUCKET: '5', PRICEBOOK_AUTH_FAILURE_LEAK: '0.001' }, tenants: 1 });

  it('refuses an address with 5 failures with 429 code 11, even with a valid token, without counting successes', async () => {
    // Successful requests do not count as failures.
    for (let i = 0; i < 8; i++) expect((await suite.api.request('GET', '/v1/customers', { token: suite.tenant.token })).status).toBe(200);
    for (let i = 0; i < 5; i++)
      expectUnauthenticated(await suite.api.request('GET', '/v1/customers', { token: `${suite.tenant.key}.sk_wrong${i}` }), `failure ${i + 1}`);
    const attempts: Array<Record<string, string>> = [
      { authorization: `Bearer ${suite.tenant.token}` },
      { authorization: basic(suite.tenant.key, suite.tenant.secret) },
      {},
      { authorization: 'Bearer pk_x.sk_y' },
    ];
    for (const headers of attempts) {
      const refused = await suite.api.request('GET', '/v1/customers', { headers });
      expectError(refused, 429, 11);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(refused.headers['retry-after']).toMatch(/^\d+$/);
    }
    const post = await suite.api.request('POST', '/v1/customers', { token: suite.tenant.token, body: { email: 'throttled@example.com' } });
    expectError(post, 429, 11);
  });

  it('still serves the public paths to a throttled address', async () => {
    expect((await suite.api.request('GET', '/healthz')).status).toBe(200);
  });
});

describe.each(await enginesUnderTest())('failed-authentication throttle behind a trusted proxy on %s', (engine) => {
  // The proxy is 127.0.0.1; the clients are the addresses it forwards. Nothing leaks during the test.
  const suite = suiteServer(engine, {
    env: { PRICEBOOK_TRUST_PROXY: '127.0.0.1', PRICEBOOK_AUTH_FAILURE_BUCKET: '3', PRICEBOOK_AUTH_FAILURE_LEAK: '0.001' },
    plainHttp: true,
    tenants: 1,
  });
  const viaProxy = (client: string, token: string) =>
    suite.api.plainRequest('GET', '/v1/customers', { token, headers: { 'x-forwarded-proto': 'https', 'x-forwarded-for': client } });

  it('counts failures per forwarded client address, not per proxy', async () => {
    for (let i = 0; i < 3; i++) expectUnauthenticated(await viaProxy('198.51.100.7', `pk_nope${i}.sk_nope`), `failure ${i + 1}`);
    expectError(await viaProxy('198.51.100.7', 'pk_nope.sk_nope'), 429, 11);
    expectError(await viaProxy('198.51.100.7', suite.tenant.token), 429, 11);
    // Another client behind the same proxy is not held back by the first one's failures.
    expect((await viaProxy('198.51.100.8', suite.tenant.token)).status).toBe(200);
    expectUnauthenticated(await viaProxy('198.51.100.8', 'pk_nope.sk_nope'), 'another client');
  });
});

describe.each(await enginesUnderTest())('failed-authentication throttle without a trusted proxy on %s', (engine) => {
  const suite = suiteServer(engine, { env: { PRICEBOOK_AUTH_FAILURE_BUCKET: '3', PRICEBOOK_AUTH_FAILURE_LEAK: '0.001' }, tenants: 1 });

  it('ignores X-Forwarded-For: a client cannot escape the throttle by naming other addresses', async () => {
    const as = (client: string, token: string) => suite.api.request('GET', '/v1/customers', { token, headers: { 'x-forwarded-for': client } });
    for (let i = 0; i < 3; i++) expectUnauthenticated(await as(`198.51.100.${i + 1}`, `pk_nope${i}.sk_nope`), `failure ${i + 1}`);
    expectError(await as('198.51.100.50', 'pk_nope.sk_nope'), 429, 11);
    expectError(await as('198.51.100.51', suite.tenant.token), 429, 11);
  });
});

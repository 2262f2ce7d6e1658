import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { basic, customerCount, expectError } from '../support/conventions.js';
import { enginesUnderTest } from '../support/engines.js';
import { rawPlainExchange } from '../support/raw-http.js';
import { suiteServer } from '../support/suite-server.js';

const require = createRequire(import.meta.url);

const HTTPS_REQUIRED = /HTTPS/;
const PATHS = [
  '/v1/customers',
  '/v1/customers/1',
  '/v1/customers/count',
  '/v1/nope',
  '/v1/%zz',
  '/healthz',
  '/openapi.json',
  '/docs',
  '/docs/static/index.html',
  '/',
  '/v2/customers',
  '/customers',
];
const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD'];

describe.each(await enginesUnderTest())('contract §3.1 protocol on %s', (engine) => {
  const suite = suiteServer(engine, { plainHttp: true, tenants: 1 });

  it('answers every plain-HTTP request with 400 code 2, whatever the path, method and credentials', async () => {
    const credentials: Array<[string, Record<string, string>]> = [
      ['none', {}],
      ['valid Bearer', { authorization: `Bearer ${suite.tenant.token}` }],
      ['valid Basic', { authorization: basic(suite.tenant.key, suite.tenant.secret) }],
      ['invalid', { authorization: 'Bearer pk_nope.sk_nope' }],
    ];
    let checked = 0;
    for (const urlPath of PATHS) {
      for (const method of METHODS) {
        for (const [label, headers] of credentials) {
          const withBody = method === 'POST' || method === 'PUT';
          const response = await suite.server.plainRequest(method, urlPath, { headers, ...(withBody && { body: { email: `plain-${checked}@example.com` } }) });
          const what = `${method} ${urlPath} with ${label} credentials`;
          expect(response.status, what).toBe(400);
          if (method === 'HEAD') continue;
          expect(response.headers['content-type'], what).toMatch(/^application\/json/);
          expect(response.body, what).toEqual({ code: 2, message: expect.stringMatching(HTTPS_REQUIRED) });
          checked++;
        }
      }
    }
    expect(checked).toBe(PATHS.length * (METHODS.length - 1) * credentials.length);
    // Not one of those POSTs created anything.
    expect(await customerCount(suite.server, suite.tenant.token)).toBe(0);
  });

  it('does not believe X-Forwarded-Proto from an address that is not a trusted proxy', async () => {
    const response = await suite.server.plainRequest('GET', '/v1/customers', { token: suite.tenant.token, headers: { 'x-forwarded-proto': 'https' } });
    expectError(response, 400, 2, HTTPS_REQUIRED);
  });

  it('answers a request Node cannot parse, on the plain listener, in the same error shape', async () => {
    const port = Number(new URL(suite.server.plainBaseUrl!).port);
    for (const request of [
      'FOO /v1/customers HTTP/1.1\r\nHost: localhost\r\n\r\n',
      'GET /v1/customers HTTP/1.1\r\nHost: localhost\r\nBad Header\r\n\r\n',
      '\u0016\u0003\u0001\u0002\u0000\u0001\u0000\u0001\r\n\r\n',
    ]) {
      const response = await rawPlainExchange(port, request);
      expect(response.timedOut).toBe(false);
      expect(response.status, JSON.stringify(request)).toBe(400);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(response.body).toEqual({ code: 2, message: expect.stringMatching(HTTPS_REQUIRED) });
    }
  });

  it('serves the same requests over HTTPS', async () => {
    expect((await suite.api.request('GET', '/v1/customers', { token: suite.tenant.token })).status).toBe(200);
    expect((await suite.api.request('GET', '/healthz')).body).toEqual({ status: 'ok', database: 'ok', rateLimiter: 'memory' });
  });
});

describe.each(await enginesUnderTest())('contract §3.1 trusted proxy on %s', (engine) => {
  const suite = suiteServer(engine, { env: { PRICEBOOK_TRUST_PROXY: '127.0.0.1' }, plainHttp: true, tenants: 1 });

  it('serves a plain request from a trusted proxy that says https', async () => {
    const created = await suite.api.plainRequest('POST', '/v1/customers', {
      token: suite.tenant.token,
      headers: { 'x-forwarded-proto': 'https' },
      body: { email: 'proxied@example.com' },
    });
    expect(created.status).toBe(201);
    const listed = await suite.api.plainRequest('GET', '/v1/customers', { token: suite.tenant.token, headers: { 'x-forwarded-proto': 'https' } });
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual([created.body]);
    expect(listed.headers['x-rate-limit-limit']).toBeDefined();
  });

  it('refuses a plain request from the trusted proxy without X-Forwarded-Proto: https', async () => {
    const attempts: Array<Record<string, string>> = [
      {},
      { 'x-forwarded-proto': 'http' },
      { 'x-forwarded-proto': 'https, http' },
      { 'x-forwarded-proto': 'ftp' },
    ];
    for (const headers of attempts) {
      const response = await suite.api.plainRequest('GET', '/v1/customers', { token: suite.tenant.token, headers });
      expectError(response, 400, 2, HTTPS_REQUIRED);
    }
  });
});

describe.each(await enginesUnderTest())('contract §3.1 proxy trusted elsewhere on %s', (engine) => {
  const suite = suiteServer(engine, { env: { PRICEBOOK_TRUST_PROXY: '10.0.0.0/8,::2' }, plainHttp: true, tenants: 1 });

  it('refuses X-Forwarded-Proto: https from 127.0.0.1 when only other addresses are trusted', async () => {
    const response = await suite.server.plainRequest('GET', '/v1/customers', {
      token: suite.tenant.token,
      headers: { 'x-forwarded-proto': 'https', 'x-forwarded-for': '10.1.2.3' },
    });
    expectError(response, 400, 2, HTTPS_REQUIRED);
  });
});

describe.each(await enginesUnderTest())('contract §3.2 version on %s', (engine) => {
  const suite = suiteServer(engine, { tenants: 1 });

  it.each(['/v2/customers', '/customers', '/', '/v1', '/V1/customers', '/v1customers', '/%zz', '/v0/customers/1?count=5'])(
    'answers %s with 404 code 5 naming v1, with or without credentials',
    async (urlPath) => {
      for (const method of ['GET', 'POST', 'DELETE']) {
        for (const token of [undefined, suite.tenant.token]) {
          const response = await suite.api.request(method, urlPath, { token, ...(method === 'POST' && { body: { email: 'v@example.com' } }) });
          expectError(response, 404, 5, /\bv1\b/);
          // Before authentication: no rate-limit headers, no challenge.
          expect(response.headers['www-authenticate']).toBeUndefined();
        }
      }
      expect(await customerCount(suite.server, suite.tenant.token)).toBe(0);
    },
  );

  it('serves /healthz over HTTPS without credentials', async () => {
    const response = await suite.api.request('GET', '/healthz');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'ok', database: 'ok', rateLimiter: 'memory' });
  });

  it('serves /openapi.json: an OpenAPI 3.1 document of our paths whose references all resolve', async () => {
    const response = await suite.api.request('GET', '/openapi.json');
    expect(response.status).toBe(200);
    const document = response.body as {
      openapi: string;
      info: { title: string; version: string };
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
    };
    expect(document.openapi).toMatch(/^3\.1\.\d+$/);
    expect(document.info.title).toEqual(expect.any(String));
    expect(document.info.version).toEqual(expect.any(String));
    expect(Object.keys(document.paths)).toEqual(expect.arrayContaining(['/v1/customers', '/v1/customers/count', '/v1/customers/{id}', '/healthz']));
    expect(Object.keys(document.paths['/v1/customers']!).sort()).toEqual(['get', 'post']);
    expect(Object.keys(document.paths['/v1/customers/{id}']!).sort()).toEqual(['delete', 'get', 'put']);
    for (const [pathName, operations] of Object.entries(document.paths)) {
      // Every API path is versioned; only the public ones are not.
      if (!pathName.startsWith('/v1/')) expect(['/healthz']).toContain(pathName);
      for (const [method, operation] of Object.entries(operations)) {
        if (['get', 'post', 'put', 'delete', 'patch'].includes(method))
          expect(Object.keys(operation.responses).length, `${method} ${pathName}`).toBeGreaterThan(0);
      }
    }
    for (const reference of collectRefs(document)) {
      expect(reference, 'only local references').toMatch(/^#\//);
      expect(resolvePointer(document, reference), `${reference} resolves`).toBeDefined();
    }
  });

  it('serves /docs: the swagger-ui of the installed package, nothing from a CDN', async () => {
    const page = await suite.server.request('GET', '/docs');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.text).toMatch(/swagger-ui/i);
    expect(page.text).not.toMatch(/(src|href)=["']https?:\/\//);
    const bundleSource = /src="([^"]*swagger-ui-bundle\.js)"/.exec(page.text)?.[1];
    expect(bundleSource).toBeDefined();
    const bundle = await suite.server.request('GET', new URL(bundleSource!, `${suite.server.baseUrl}/docs`).pathname);
    expect(bundle.status).toBe(200);
    const installed = path.join(path.dirname(require.resolve('@fastify/swagger-ui/package.json')), 'static', 'swagger-ui-bundle.js');
    expect(bundle.text).toBe(fs.readFileSync(installed, 'utf8'));
  });

  it('requires no credentials for the public paths, and ignores bad ones there', async () => {
    for (const urlPath of ['/healthz', '/openapi.json', '/docs']) {
      const response = await suite.server.request('GET', urlPath, { headers: { authorization: 'Bearer nonsense' } });
      expect(response.status, urlPath).toBe(200);
    }
  });
});

function collectRefs(value: unknown, found: string[] = []): string[] {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const current = stack.pop();
    if (typeof current !== 'object' || current === null) continue;
    for (const [key, child] of Object.entries(current)) {
      if (key === '$ref' && typeof child === 'string') found.push(child);
      else stack.push(child);
    }
  }
  return found;
}

function resolvePointer(document: unknown, reference: string): unknown {
  let current: unknown = document;
  for (const segment of reference.slice(2).split('/')) {
    const key = segment.replace(/~1/g, '/').replace(/~0/g, '~');
    if (typeof current !== 'object' || current === null || !Object.hasOwn(current, key)) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

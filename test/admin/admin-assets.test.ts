import zlib from 'node:zlib';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { acceptsGzip, ADMIN_CONTENT_SECURITY_POLICY, registerAdminPage } from '../../src/http/plugins/admin-assets.js';
import { registerErrorHandler } from '../../src/http/plugins/error-handler.js';
import { PROTOCOL_ENGINES } from '../support/engines.js';
import { rawTlsExchange } from '../support/raw-http.js';
import { suiteServer } from '../support/suite-server.js';

/**
 * `/admin`: the page's static files from the build (`npm run build` puts them in dist/admin),
 * over the API's HTTPS listener, without credentials, with a strict CSP, and nothing else.
 */
describe.each(PROTOCOL_ENGINES)('the admin page’s files on %s', (engine) => {
  const suite = suiteServer(engine, { plainHttp: true, tenants: 1 });

  it('serves the page at /admin and /admin/, with a CSP that allows no inline script and nothing from elsewhere', async () => {
    for (const urlPath of ['/admin', '/admin/']) {
      const page = await suite.server.request('GET', urlPath);
      expect(page.status, urlPath).toBe(200);
      expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(page.headers['content-security-policy']).toBe(ADMIN_CONTENT_SECURITY_POLICY);
      expect(page.headers['x-content-type-options']).toBe('nosniff');
      expect(page.headers['cache-control']).toBe('no-cache');
      expect(page.headers['x-rate-limit-limit']).toBeUndefined();
      expect(page.text).toContain('<script type="module" src="/admin/main.js"></script>');
      // Every script has a src (CSP: script-src 'self'), every address is this server's.
      expect(page.text.match(/<script(?![^>]*\bsrc=)[^>]*>/g)).toBeNull();
      expect(page.text).not.toMatch(/(src|href)=["'](https?:)?\/\//);
      expect(page.text).not.toMatch(/\bstyle=/);
    }
    expect(ADMIN_CONTENT_SECURITY_POLICY).toMatch(/default-src 'none'/);
    expect(ADMIN_CONTENT_SECURITY_POLICY).toMatch(/script-src 'self'(;|$)/);
  });

  it('serves every module the page loads, with its type, and no bare import a browser cannot resolve', async () => {
    const pending = ['/admin/main.js'];
    const seen = new Set<string>();
    while (pending.length > 0 && seen.size < 100) {
      const urlPath = pending.pop()!;
      if (seen.has(urlPath)) continue;
      seen.add(urlPath);
      const file = await suite.server.request('GET', urlPath);
      expect(file.status, urlPath).toBe(200);
      expect(file.headers['content-type'], urlPath).toBe('text/javascript; charset=utf-8');
      expect(file.headers['x-content-type-options']).toBe('nosniff');
      for (const [, specifier] of file.text.matchAll(/\bfrom\s+'([^']+)'/g)) {
        expect(specifier, `${urlPath} imports ${specifier}`).toMatch(/^\.\.?\/.*\.js$/);
        pending.push(new URL(specifier!, `https://localhost${urlPath}`).pathname);
      }
    }
    expect(seen.size).toBeGreaterThan(10);
    // The CSV cell rules the server and the CLI use too (src/text/), compiled for the page.
    expect(seen).toContain('/admin/text/csv-cells.js');
    // The contract's error codes and webhook topics, the ones the server has.
    expect(seen).toContain('/admin/contract/error-codes.js');
    expect(seen).toContain('/admin/contract/event-topics.js');
    // The typed client (@pricebook/client), through its browser entry and the fetch transport.
    expect(seen).toContain('/admin/client/browser.js');
    expect(seen).toContain('/admin/client/fetch-transport.js');
    expect(seen).not.toContain('/admin/client/https-transport.js');
    const css = await suite.server.request('GET', '/admin/admin.css');
    expect([css.status, css.headers['content-type']]).toEqual([200, 'text/css; charset=utf-8']);
    const icon = await suite.server.request('GET', '/admin/favicon.svg');
    expect([icon.status, icon.headers['content-type']]).toEqual([200, 'image/svg+xml']);
  });

  it('answers a file it does not have with 404 in the API’s error shape, also for paths that try to leave the folder', async () => {
    // Sent by hand: an HTTP client would resolve the dot segments before sending.
    const literally = async (urlPath: string) => {
      const response = await rawTlsExchange(suite.server.port, suite.server.ca, `GET ${urlPath} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`);
      return { status: response.status, headers: response.headers, body: response.body };
    };
    for (const urlPath of [
      '/admin/nope.js',
      '/admin/views',
      '/admin/../package.json',
      '/admin/%2e%2e/package.json',
      '/admin/..%2f..%2fpackage.json',
      '/admin/main.ts',
      '/admin/../../dist/main/cli.js',
    ]) {
      const response = await literally(urlPath);
      expect(response.status, urlPath).toBe(404);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(response.body, urlPath).toEqual({ code: 5, message: expect.stringMatching(/^No admin page file named/) });
    }
  });

  it('needs no credentials and ignores bad ones; other methods are 405; plain HTTP is refused like everywhere', async () => {
    const withBadCredentials = await suite.server.request('GET', '/admin/main.js', { headers: { authorization: 'Bearer nonsense' } });
    expect(withBadCredentials.status).toBe(200);
    const posted = await suite.server.request('POST', '/admin', { body: {} });
    expect([posted.status, posted.headers.allow, (posted.body as { code: number }).code]).toEqual([405, 'GET', 6]);
    const plain = await suite.server.plainRequest('GET', '/admin');
    expect([plain.status, (plain.body as { code: number }).code]).toEqual([400, 2]);
    // Not part of the API's reference.
    const openapi = await suite.server.request('GET', '/openapi.json');
    expect(Object.keys((openapi.body as { paths: Record<string, unknown> }).paths).filter((key) => key.startsWith('/admin'))).toEqual([]);
  });
});

describe('the admin page without a build', () => {
  it('answers 404 saying so, rather than failing to start', async () => {
    const app = Fastify();
    registerErrorHandler(app);
    await registerAdminPage(app, '/nonexistent/pricebook-admin');
    for (const url of ['/admin', '/admin/main.js']) {
      const response = await app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ code: 5, message: 'The admin page is not built: run npm run build' });
    }
    await app.close();
  });
});

describe('the admin page’s files, compressed', () => {
  it('sends a gzipped body (the same bytes once unzipped) to a client that takes gzip, with Vary; the plain body otherwise', async () => {
    const app = Fastify();
    registerErrorHandler(app);
    await registerAdminPage(app);
    try {
      for (const url of ['/admin', '/admin/main.js', '/admin/admin.css']) {
        const plain = await app.inject({ method: 'GET', url });
        expect(plain.statusCode, url).toBe(200);
        expect(plain.headers['content-encoding'], url).toBeUndefined();
        expect(plain.headers.vary, url).toBe('accept-encoding');
        const zipped = await app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip, deflate, br' } });
        expect(zipped.headers['content-encoding'], url).toBe('gzip');
        expect(zipped.headers.vary, url).toBe('accept-encoding');
        expect(zipped.headers['content-type'], url).toBe(plain.headers['content-type']);
        expect(zipped.headers['content-security-policy'], url).toBe(ADMIN_CONTENT_SECURITY_POLICY);
        expect(zlib.gunzipSync(zipped.rawPayload).equals(plain.rawPayload), url).toBe(true);
        expect(zipped.rawPayload.length, url).toBeLessThan(plain.rawPayload.length);
        // Refused by weight: the plain body.
        const refused = await app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip;q=0, *' } });
        expect(refused.headers['content-encoding'], url).toBeUndefined();
        expect(refused.rawPayload.equals(plain.rawPayload), url).toBe(true);
      }
    } finally {
      await app.close();
    }
  });

  it.each([
    ['gzip', true],
    ['GZIP;q=0.5', true],
    ['deflate, gzip;q=1.0, *;q=0.5', true],
    ['*', true],
    ['x-gzip', true],
    ['br, deflate', false],
    ['gzip;q=0', false],
    ['gzip;q=0, *', false],
    ['identity', false],
    ['', false],
    [undefined, false],
  ])('Accept-Encoding %j takes gzip: %s', (header, takes) => {
    expect(acceptsGzip(header)).toBe(takes);
  });
});

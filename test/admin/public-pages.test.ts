import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_CONTENT_SECURITY_POLICY } from '../../src/http/plugins/admin-assets.js';
import { DOCS_CONTENT_SECURITY_POLICY } from '../../src/http/plugins/openapi.js';
import { chromiumAvailable, launchBrowser, type TestBrowser } from '../support/chromium.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { watch } from './admin-browser.js';

const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

/**
 * The pages a browser opens without a token besides the admin page: `/` (which points to the
 * admin page and the reference) and `/docs` (swagger-ui), each under a CSP without
 * 'unsafe-inline' and without swagger-ui's branding.
 */
describe('the pages at / and /docs', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('sqlite');
  });
  afterAll(async () => {
    await server.close();
  });

  it('GET / from a browser is a small page linking /admin and /docs, with the admin page’s security headers', async () => {
    const page = await server.request('GET', '/', { headers: { accept: BROWSER_ACCEPT, authorization: 'Bearer nonsense' } });
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['content-security-policy']).toBe(ADMIN_CONTENT_SECURITY_POLICY);
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect(page.headers['x-frame-options']).toBe('DENY');
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    expect(page.headers['x-rate-limit-limit']).toBeUndefined();
    expect(page.text).toContain('href="/admin"');
    expect(page.text).toContain('href="/docs"');
    expect(page.text).not.toMatch(/<script|<style|\bstyle=/);
    // A link from elsewhere may carry a query string: the page is the same.
    const linked = await server.request('GET', '/?utm_source=newsletter&utm_source=x', { headers: { accept: BROWSER_ACCEPT } });
    expect(linked.status).toBe(200);
    expect(linked.text).toBe(page.text);
  });

  it('any other request to / keeps the JSON 404 (code 5) of a path outside /v1/, with or without a browser’s Accept', async () => {
    const requests: Array<[string, string | undefined]> = [
      ['GET', undefined],
      ['GET', 'application/json'],
      ['GET', '*/*'],
      ['POST', BROWSER_ACCEPT],
      ['DELETE', BROWSER_ACCEPT],
    ];
    for (const [method, accept] of requests) {
      const response = await server.request(method, '/', { headers: accept === undefined ? {} : { accept }, ...(method === 'POST' && { body: {} }) });
      expect(response.status, `${method} ${String(accept)}`).toBe(404);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(response.body).toEqual({ code: 5, message: expect.stringMatching(/paths start with \/v1\//) });
    }
  });

  it('serves /docs and its files under a CSP with no inline styles or scripts, titled and iconed as Pricebook', async () => {
    const page = await server.request('GET', '/docs');
    expect(page.status).toBe(200);
    expect(page.headers['content-security-policy']).toBe(DOCS_CONTENT_SECURITY_POLICY);
    expect(DOCS_CONTENT_SECURITY_POLICY).not.toMatch(/unsafe-inline|unsafe-eval|https:/);
    expect(page.text).toContain('<title>Pricebook API reference</title>');
    expect(page.text).toContain('href="/docs/static/theme/favicon.svg"');
    expect(page.text).not.toMatch(/favicon-(16|32)x(16|32)\.png/);
    expect(page.text).not.toMatch(/<style|\bstyle=/);
    const initializer = await server.request('GET', '/docs/static/swagger-initializer.js');
    expect(initializer.status).toBe(200);
    expect(initializer.headers['content-security-policy']).toBe(DOCS_CONTENT_SECURITY_POLICY);
    expect(initializer.text).toContain('"layout":"BaseLayout"');
    const icon = await server.request('GET', '/docs/static/theme/favicon.svg');
    expect([icon.status, icon.headers['content-type']]).toEqual([200, 'image/svg+xml']);
  });

  describe.skipIf(!chromiumAvailable())('in Chromium', () => {
    let browser: TestBrowser;
    beforeAll(async () => {
      browser = await launchBrowser(server.baseUrl);
    });
    afterAll(async () => {
      await browser.close();
    });

    it('/docs renders the operations with no CSP refusal or script error, and without swagger-ui’s top bar and logo', async () => {
      const tab = watch(await browser.context.newPage());
      const violations: string[] = [];
      await tab.page.exposeFunction('reportViolation', (text: string) => violations.push(text));
      // Run in the page (a string: the tests' TypeScript has no DOM types).
      await tab.page.addInitScript({
        content:
          "document.addEventListener('securitypolicyviolation', (event) => window.reportViolation(event.violatedDirective + ' ' + event.sourceFile + ':' + event.lineNumber));",
      });
      await tab.page.goto(`${server.baseUrl}/docs`);
      await tab.page.locator('.opblock').first().waitFor();
      expect(await tab.page.locator('.opblock').count()).toBeGreaterThan(20);
      expect(await tab.page.title()).toBe('Pricebook API reference');
      await expect(tab.page.locator('.topbar').count()).resolves.toBe(0);
      await expect(tab.page.locator('svg[id*="logo"], [class*="logo"]').count()).resolves.toBe(0);
      // Opening an operation renders its schemas and examples (more components, more chances of an inline style).
      await tab.page.locator('.opblock-summary').first().click();
      await tab.page.locator('.opblock-body').first().waitFor();
      await tab.page.waitForTimeout(300);
      expect(violations).toEqual([]);
      tab.expectClean([]);
      expect(browser.refused).toEqual([]);
      await tab.page.close();
    });

    it('/ shows the page, whose links lead to the admin page and the reference', async () => {
      const tab = watch(await browser.context.newPage());
      await tab.page.goto(`${server.baseUrl}/`);
      await tab.page.getByRole('heading', { level: 1, name: 'Pricebook' }).waitFor();
      await tab.page.getByRole('link', { name: 'The admin page' }).click();
      await tab.page.waitForURL(`${server.baseUrl}/admin`);
      await tab.page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
      await tab.page.goBack();
      await tab.page.getByRole('link', { name: 'The API reference' }).click();
      await tab.page.locator('.opblock').first().waitFor();
      tab.expectClean([]);
      await tab.page.close();
    });
  });
});

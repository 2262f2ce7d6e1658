import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

/**
 * Debian's Chromium (`apt-get install -y chromium`), driven by playwright-core: no browser is
 * downloaded. Without it the browser suites are skipped with a notice, except under CI=true,
 * where a missing Chromium is a failure (`.ci/run` installs it).
 */
export const CHROMIUM_PATH = process.env.PRICEBOOK_TEST_CHROMIUM ?? '/usr/bin/chromium';

export function chromiumAvailable(): boolean {
  if (fs.existsSync(CHROMIUM_PATH)) return true;
  if (process.env.CI === 'true') throw new Error(`CI=true but Chromium is not installed at ${CHROMIUM_PATH} (apt-get install -y chromium)`);
  process.stderr.write(`\n*** Chromium not found at ${CHROMIUM_PATH}: the admin page's browser suites are SKIPPED (apt-get install -y chromium) ***\n\n`);
  return false;
}

/** Flags that keep Chromium headless, quiet and off the network: it only talks to the test server. */
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface TestBrowser {
  /** Each `newPage()` is a tab of its own, with its own sessionStorage. */
  context: BrowserContext;
  /** Requests the browser tried to send anywhere but the test server (refused): none expected. */
  refused: string[];
  close(): Promise<void>;
}

/**
 * Chromium with a fresh profile directory, trusting nothing but the test server: every request
 * to another origin is aborted and recorded. The server's certificate is the tests' self-signed
 * one, for `localhost`, so certificate errors are ignored (for this server only: nothing else
 * is reached).
 */
export async function launchBrowser(baseUrl: string): Promise<TestBrowser> {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'pricebook-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_ARGS,
    ignoreHTTPSErrors: true,
    acceptDownloads: true,
    timezoneId: 'UTC',
    locale: 'en-GB',
    viewport: { width: 1280, height: 900 },
    serviceWorkers: 'block',
  });
  const origin = new URL(baseUrl).origin;
  const refused: string[] = [];
  await context.route(
    (url) => url.origin !== origin && url.protocol !== 'blob:' && url.protocol !== 'data:',
    (route) => {
      refused.push(route.request().url());
      return route.abort('blockedbyclient');
    },
  );
  // A persistent context opens with one blank tab; close it so each test's tab is its own.
  for (const page of context.pages()) await page.close();
  return {
    context,
    refused,
    async close() {
      await context.close();
      fs.rmSync(profile, { recursive: true, force: true });
    },
  };
}

import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import type { StaffRole } from '../../src/modules/staff/roles.js';
import type { TestBrowser } from '../support/chromium.js';
import { asStaff, signIn as signInThroughApi, sessionTokenIn, uniqueEmail } from '../support/staff.js';
import type { TestServer } from '../support/test-server.js';

/**
 * What the admin page's browser tests share: staff members to sign in as, signing in as a
 * person does, watching a tab for failures (script errors, CSP refusals, a secret in a URL),
 * axe-core, and keyboard steps.
 */
const require = createRequire(import.meta.url);
const AXE_SOURCE = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

export interface WatchedPage {
  page: Page;
  /** Every URL the tab requested. */
  urls: string[];
  /** Statuses of the API answers the tab got, in order. */
  statuses: number[];
  /** Uncaught exceptions and console errors (a CSP refusal is one). */
  problems: string[];
  /** No script error, no CSP refusal, and `secrets` in no URL. */
  expectClean(secrets: readonly string[]): void;
}

export function watch(page: Page): WatchedPage {
  const watched: WatchedPage = {
    page,
    urls: [],
    statuses: [],
    problems: [],
    expectClean(secrets) {
      expect(watched.problems).toEqual([]);
      for (const secret of secrets) expect(watched.urls.filter((url) => url.includes(secret))).toEqual([]);
    },
  };
  page.on('request', (request) => watched.urls.push(request.url()));
  page.on('response', (response) => {
    if (new URL(response.url()).pathname.startsWith('/v1/')) watched.statuses.push(response.status());
  });
  page.on('pageerror', (error) => watched.problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    // Chromium logs every 4xx answer (a 422 shown at its field, a 429 waited out) as a failed load: not a problem.
    if (message.type() === 'error' && !/^Failed to load resource: the server responded with a status of 4\d\d/.test(message.text()))
      watched.problems.push(`console: ${message.text()}`);
  });
  return watched;
}

export function heading(page: Page, name: string | RegExp): Locator {
  return page.getByRole('heading', { level: 1, name });
}

export function form(page: Page, name: string): Locator {
  return page.getByRole('form', { name, exact: true });
}

/** A staff member's sign-in, and what the page shows of them. */
export interface StaffLogin {
  id: number;
  email: string;
  password: string;
  name: string;
}

/**
 * A staff member of `role` in the store, made as `pricebook staff create` makes one (through the
 * service), whose one-time password was already changed through the API: the page's sign-in
 * then leads straight to the customers.
 */
export async function staffMember(server: TestServer, storeId: number, role: StaffRole, name = `Staff ${role}`): Promise<StaffLogin> {
  const email = uniqueEmail(role);
  const issued = await server.services.staff.create(storeId, { email, name, role });
  const first = await signInThroughApi(server, email, issued.initialPassword);
  expect(first.status, first.text).toBe(201);
  const token = sessionTokenIn(first)!;
  const password = `${role} passphrase ${Math.random().toString(36).slice(2, 10)}`;
  const changed = await server.request(
    'POST',
    '/v1/session/password',
    asStaff(server, token, { body: { currentPassword: issued.initialPassword, newPassword: password } }),
  );
  expect(changed.status, changed.text).toBe(204);
  expect((await server.request('DELETE', '/v1/session', asStaff(server, token))).status).toBe(204);
  return { id: issued.id, email, password, name };
}

/** Fills the sign-in form as a person does and waits for the page it leads to (`landing`, by its heading). */
export async function signIn(page: Page, staff: Pick<StaffLogin, 'email' | 'password'>, landing: string | RegExp = 'Customers'): Promise<void> {
  await heading(page, 'Sign in').waitFor();
  await page.getByLabel('E-mail').fill(staff.email);
  await page.getByLabel('Password').fill(staff.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await heading(page, landing).waitFor();
}

/**
 * A new tab on `hash` of the admin page, signed in as `staff` (the browser's cookies cleared
 * first, so no other member's session rides along), once `landing` shows; watched, and kept in
 * `tabs` for the suite to check clean at its end.
 */
export async function openSignedIn(
  browser: TestBrowser,
  server: TestServer,
  tabs: WatchedPage[],
  staff: Pick<StaffLogin, 'email' | 'password'>,
  hash: string,
  landing: string | RegExp,
): Promise<Page> {
  await browser.context.clearCookies();
  const tab = watch(await browser.context.newPage());
  tabs.push(tab);
  await tab.page.goto(`${server.baseUrl}/admin${hash}`);
  await signIn(tab.page, staff, landing);
  return tab.page;
}

/** Whether the tab keeps anything in sessionStorage or localStorage (the page keeps no credential there). */
export async function storedKeys(page: Page): Promise<string[]> {
  return page.evaluate('[...Object.keys(sessionStorage), ...Object.keys(localStorage)]') as Promise<string[]>;
}

/** The message shown next to a field (its `aria-describedby` error), or '' when none is. */
export async function fieldError(field: Locator): Promise<string> {
  if ((await field.getAttribute('aria-invalid')) !== 'true') return '';
  const ids = ((await field.getAttribute('aria-describedby')) ?? '').split(' ');
  const texts = await Promise.all(ids.filter((id) => id.endsWith('-error')).map((id) => field.page().locator(`[id="${id}"]`).textContent()));
  return texts.join(' ');
}

/** axe-core's serious and critical violations on what the tab shows now. */
export async function seriousViolations(page: Page): Promise<string[]> {
  // Evaluated through the DevTools protocol, which the page's CSP does not govern.
  await page.evaluate(AXE_SOURCE);
  const result = (await page.evaluate('axe.run(document, { resultTypes: ["violations"] })')) as {
    violations: { id: string; impact: string | null; help: string; nodes: { target: unknown[] }[] }[];
  };
  return result.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id} (${violation.impact}): ${violation.help} at ${violation.nodes.map((node) => JSON.stringify(node.target)).join(', ')}`);
}

/** Whether the page scrolls sideways (wider than its viewport). */
export async function scrollsSideways(page: Page): Promise<boolean> {
  return page.evaluate('document.documentElement.scrollWidth > document.documentElement.clientWidth') as Promise<boolean>;
}

/** The accessible name of the focused element, as a person with a screen reader would hear it. */
export async function focusedName(page: Page): Promise<string> {
  return page.evaluate(`(() => {
    const element = document.activeElement;
    if (element === null) return '';
    const label = element.labels && element.labels[0] ? element.labels[0].textContent : null;
    return (element.getAttribute('aria-label') || label || element.textContent || '').trim();
  })()`) as Promise<string>;
}

/** Presses Tab (at most `limit` times) until the focused element's name is `name`. */
export async function tabTo(page: Page, name: string | RegExp, limit = 60): Promise<void> {
  const seen: string[] = [];
  for (let presses = 0; presses < limit; presses++) {
    await page.keyboard.press('Tab');
    const focused = await focusedName(page);
    seen.push(focused);
    if (typeof name === 'string' ? focused === name : name.test(focused)) return;
  }
  throw new Error(`Tab never reached "${String(name)}" in ${limit} presses; focus went through: ${seen.join(' | ')}`);
}

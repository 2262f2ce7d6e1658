import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCatalog, type CatalogFixture } from '../support/catalog-fixture.js';
import { chromiumAvailable, launchBrowser, type TestBrowser } from '../support/chromium.js';
import { OffsetClock } from '../support/offset-clock.js';
import { asStaff, withBrowserAt } from '../support/staff.js';
import { startTestServer, type Tenant, type TestServer } from '../support/test-server.js';
import { form, heading, seriousViolations, signIn, type StaffLogin, staffMember, storedKeys, watch, type WatchedPage } from './admin-browser.js';

const MINUTE = 60_000;

/**
 * The admin page as staff use it since staff accounts and the price history, in a real Chromium
 * against the real server on SQLite: a first sign-in that must change its one-time password,
 * changes the History names the member for (source "admin"), a deleted price's entry, the
 * effective price as of a past moment, what a viewer is offered, a session that ends under the
 * page, and the sign-in's throttle. The server's clock is the real time plus an offset the test
 * moves, so "a past moment" is minutes ago without waiting for them.
 */
describe.skipIf(!chromiumAvailable())('admin page with staff accounts and the price history, in Chromium', () => {
  const clock = new OffsetClock();
  let server: TestServer;
  let tenant: Tenant;
  let catalog: CatalogFixture;
  let browser: TestBrowser;
  let viewer: StaffLogin;
  const secrets: string[] = [];
  const tabs: WatchedPage[] = [];

  const open = async (hash = '') => {
    await browser.context.clearCookies();
    const tab = watch(await browser.context.newPage());
    tab.page.on('dialog', (dialog) => void dialog.accept());
    await tab.page.goto(`${server.baseUrl}/admin${hash}`);
    tabs.push(tab);
    return tab;
  };

  /** The History table's rows (header first), each as its cells' texts. */
  const historyRows = async (page: WatchedPage['page'], caption: string) => {
    const rows = page.getByRole('region', { name: caption }).getByRole('row');
    const texts: string[][] = [];
    for (let index = 0; index < (await rows.count()); index++) texts.push(await rows.nth(index).getByRole('cell').allTextContents());
    return texts;
  };

  beforeAll(async () => {
    server = await startTestServer('sqlite', {}, { services: { clock } });
    tenant = await server.createTenant();
    catalog = await createCatalog(server, tenant);
    viewer = await staffMember(server, tenant.storeId, 'viewer', 'Vera Viewer');
    secrets.push(tenant.token, tenant.secret, viewer.password);
    browser = await launchBrowser(server.baseUrl);
  });

  afterAll(async () => {
    for (const tab of tabs) tab.expectClean(secrets);
    expect(browser?.refused ?? []).toEqual([]);
    await browser?.close();
    await server?.close();
  });

  it('a new member signs in, changes the one-time password, adds and deletes a price, and the History names them; As of shows the deleted price', async () => {
    const email = 'grace.editor@example.com';
    const issued = await server.services.staff.create(tenant.storeId, { email, name: 'Grace Editor', role: 'editor' });
    const password = 'a passphrase only Grace knows';
    secrets.push(issued.initialPassword, password);
    const customer = catalog.tradeCustomer;
    const tab = await open(`#/customers/${customer}`);
    const { page } = tab;

    // The one-time password signs in, and the page asks for a new one before anything else.
    await heading(page, 'Sign in').waitFor();
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password').fill(issued.initialPassword);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await heading(page, 'Choose your password').waitFor();
    expect(await page.getByRole('link', { name: 'Customers' }).isHidden()).toBe(true);
    // axe-core at both widths the other views are checked at (test/admin/admin-page.test.ts).
    expect(await seriousViolations(page)).toEqual([]);
    await page.setViewportSize({ width: 375, height: 812 });
    expect(await seriousViolations(page)).toEqual([]);
    await page.setViewportSize({ width: 1280, height: 900 });
    const change = form(page, 'Change your password');
    await change.getByLabel('Current password').fill(issued.initialPassword);
    await change.getByLabel('New password', { exact: true }).fill(password);
    await change.getByLabel('New password again').fill(`${password}!`);
    await change.getByRole('button', { name: 'Change password' }).click();
    await expect
      .poll(() => change.locator('.field-error:not([hidden])').textContent(), { timeout: 5_000 })
      .toBe('New password again: differs from the new password');
    await change.getByLabel('New password again').fill(password);
    await change.getByRole('button', { name: 'Change password' }).click();
    // Then the page asked for in the first place.
    await heading(page, `trade-${catalog.skus.mug.slice(3)}@example.com`).waitFor();
    await page.getByRole('navigation', { name: 'Main' }).getByText('Grace Editor (editor)').waitFor();
    expect(await storedKeys(page)).toEqual([]);
    // The one-time password no longer signs in; the new one does.
    expect((await server.request('POST', '/v1/session', { body: { email, password: issued.initialPassword } })).status).toBe(401);

    await page.getByRole('button', { name: 'Add a price' }).click();
    const add = form(page, 'Add or edit a price');
    await add.getByLabel('SKU', { exact: true }).fill(catalog.skus.mug);
    await add.getByLabel('Price', { exact: true }).fill('9.75');
    await add.getByRole('button', { name: 'Add price' }).click();
    const caption = 'Price history of this customer';
    // Newest first: the price just added (the customer's own creation, by the API key, further down).
    await expect
      .poll(async () => (await historyRows(page, caption)).slice(0, 2))
      .toEqual([
        [],
        [
          expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d$/),
          'Grace Editor (staff)',
          expect.stringMatching(new RegExp(`^Trade price #\\d+ \\(${catalog.skus.mug}\\) created$`)),
          'price 9.75, from quantity 1',
          'admin',
        ],
      ]);
    const created = (await server.request('GET', `/v1/trade-customer-product-prices?customerId=${customer}`, { token: tenant.token })).body as {
      id: number;
      createdAt: string;
    }[];
    expect(created).toHaveLength(1);
    // The entry the API keeps says the same: the member, the admin page, the request.
    const entries = (await server.request('GET', `/v1/price-history?customerId=${customer}`, { token: tenant.token })).body as Record<string, unknown>[];
    expect(entries[0]).toMatchObject({
      resource: 'trade_price',
      resourceId: created[0]!.id,
      change: 'created',
      actor: { type: 'staff', id: issued.id, name: 'Grace Editor' },
      source: 'admin',
      sourceId: null,
    });

    // A moment while the price stood: the next whole minute after its creation (the time zone is UTC).
    const asOf = new Date(Math.ceil((Date.parse(created[0]!.createdAt) + 1) / MINUTE) * MINUTE);
    clock.advance(3 * MINUTE);
    await page.getByRole('button', { name: `Delete price #${created[0]!.id} of ${catalog.skus.mug}` }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete price' }).click();
    await page.getByText('No trade prices yet.').waitFor();
    await expect
      .poll(async () => (await historyRows(page, caption)).slice(1, 3))
      .toEqual([
        [
          expect.any(String),
          'Grace Editor (staff)',
          `Trade price #${created[0]!.id} (${catalog.skus.mug}) deleted`,
          'deleted (was price 9.75, from quantity 1)',
          'admin',
        ],
        [expect.any(String), 'Grace Editor (staff)', `Trade price #${created[0]!.id} (${catalog.skus.mug}) created`, 'price 9.75, from quantity 1', 'admin'],
      ]);

    // Now: the catalog price. As of the moment the price stood: 9.75, and the panel says as of when.
    const explain = form(page, 'Effective price');
    await explain.getByLabel('SKU').fill(catalog.skus.mug);
    await explain.getByRole('button', { name: 'Explain the price' }).click();
    await expect.poll(() => page.locator('.price-line').textContent()).toMatch(new RegExp(`^£4\\.20 per unit for 1 × ${catalog.skus.mug} at `));
    const moment = asOf.toISOString().slice(0, 16);
    await explain.getByLabel('As of').fill(moment);
    await explain.getByRole('button', { name: 'Explain the price' }).click();
    await expect.poll(() => page.locator('.price-line').textContent()).toBe(`£9.75 per unit for 1 × ${catalog.skus.mug} as of ${moment.replace('T', ' ')}`);
    expect(await page.locator('.as-of').textContent()).toMatch(new RegExp(`^As of ${moment.replace('T', ' ')}: the price book as it was at that moment`));
    expect(await page.getByRole('region', { name: 'Candidates, in the order the rule looks at them' }).getByRole('row').nth(1).textContent()).toMatch(
      new RegExp(`^Trade price #${created[0]!.id}£9\\.751.*Applies$`),
    );
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('a price list’s History shows its entries and its changes, with values as text', async () => {
    const owner = await staffMember(server, tenant.storeId, 'owner', 'Olive <b>Owner</b>');
    secrets.push(owner.password);
    const list = await server.request('POST', '/v1/price-lists', { token: tenant.token, body: { name: 'Resellers', kind: 'percentage', percentage: 10 } });
    expect(list.status).toBe(201);
    const listId = (list.body as { id: number }).id;
    const { page } = await open(`#/price-lists/${listId}`);
    await signIn(page, owner, 'Price list “Resellers”');
    const settings = form(page, 'Price list settings');
    await settings.getByLabel('Name').fill('Dealers');
    await settings.getByLabel('Percentage off').fill('12.5');
    await settings.getByLabel('Round to').fill('0.05');
    await settings.getByLabel('Rounding', { exact: true }).selectOption('up');
    await settings.getByRole('button', { name: 'Save' }).click();
    const caption = 'Price history of this list';
    await expect
      .poll(() => historyRows(page, caption))
      .toEqual([
        [],
        [
          expect.any(String),
          'Olive <b>Owner</b> (staff)',
          `Price list #${listId} updated`,
          'name “Resellers” → “Dealers”; percentage off 10 → 12.5; rounding none → 0.05 up',
          'admin',
        ],
        [
          expect.any(String),
          expect.stringMatching(/ \(API key\)$/),
          `Price list #${listId} created`,
          'name “Resellers”, percentage off 10, policy “first”',
          'API',
        ],
      ]);
    // The name went in as text: no element was made of it.
    expect(await page.locator('main b').count()).toBe(0);
  });

  it('a viewer sees prices and History but is offered no change, and a change they try anyway gets a clear 403', async () => {
    const { page } = await open(`#/customers/${catalog.tradeCustomer}`);
    await signIn(page, viewer, `trade-${catalog.skus.mug.slice(3)}@example.com`);
    await page.getByRole('heading', { level: 2, name: 'History' }).waitFor();
    expect(await page.getByRole('form', { name: 'Add or edit a price' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /^(Edit|Delete) price/ }).count()).toBe(0);
    await page.getByText('As a viewer you see the prices; adding, editing and deleting them needs an editor’s role.').waitFor();
    // The imports page offers an upload; the API refuses it for a viewer, and the page says why.
    await page.getByRole('link', { name: 'Import and export' }).click();
    const upload = form(page, 'Import a CSV file');
    await upload.getByLabel('CSV file').setInputFiles({
      name: 'prices.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(`customer_id,sku,price\n${catalog.tradeCustomer},${catalog.skus.mug},4.5\n`),
    });
    await upload.getByRole('button', { name: 'Check the file (dry run)' }).click();
    await expect
      .poll(() => page.locator('.form-errors, .alert').allTextContents())
      .toContainEqual(expect.stringMatching(/^Your role does not allow this \(.*trade_prices:write.*\)\. Ask the store's owner if you need it\.$/));
  });

  it('a session that ends under the page (signed out elsewhere) returns to the sign-in form saying so', async () => {
    const { page } = await open();
    await signIn(page, viewer);
    // The landing view's own requests answered first: one still under way when the session ends would end the page's view before the click.
    await page.waitForLoadState('networkidle');
    const [cookie] = await browser.context.cookies(server.baseUrl);
    // Signed out from elsewhere: the same session ended with the API.
    expect((await server.request('DELETE', '/v1/session', asStaff(server, cookie!.value))).status).toBe(204);
    await page.getByRole('link', { name: 'Price lists' }).click();
    await heading(page, 'Sign in').waitFor();
    await page.getByText(/^Your session ended/).waitFor();
    // Signing in again goes back to the page asked for.
    await page.getByLabel('E-mail').fill(viewer.email);
    await page.getByLabel('Password').fill(viewer.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await heading(page, 'Price lists').waitFor();
  });

  it('a browser that signed in before signs in while others’ failed guesses lock the account out; another browser waits', async () => {
    const member = await staffMember(server, tenant.storeId, 'viewer', 'Remembered Member');
    const { page } = await open();
    await signIn(page, member);
    // The device cookie: for the sign-in's path only, out of the page's reach.
    const device = (await browser.context.cookies(`${server.baseUrl}/v1/session`)).find((cookie) => cookie.name === 'pricebook_device');
    expect(device).toMatchObject({ path: '/v1/session', httpOnly: true, secure: true, sameSite: 'Strict' });
    expect(await page.evaluate('document.cookie')).toBe('');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await heading(page, 'Sign in').waitFor();
    // Someone else, at another address, fills the account's bucket (the default: ten).
    await withBrowserAt(server, '127.0.0.3', async (attacker) => {
      for (let attempt = 0; attempt < 11; attempt++) await attacker.signIn(member.email, `a guess ${attempt}`);
      expect((await attacker.signIn(member.email, member.password)).status).toBe(429);
    });
    await signIn(page, member);
    // A browser without the cookie (its cookies cleared) is held by the account's bucket.
    const other = (await open()).page;
    await heading(other, 'Sign in').waitFor();
    await other.getByLabel('E-mail').fill(member.email);
    await other.getByLabel('Password').fill(member.password);
    await other.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => form(other, 'Sign in').locator('.form-errors').textContent(), { timeout: 15_000 }).toMatch(/^Too many failed sign-ins/);
  });

  it('says how long to wait when failed sign-ins are throttled', async () => {
    const target = await staffMember(server, tenant.storeId, 'viewer', 'Throttled Member');
    const { page } = await open();
    await heading(page, 'Sign in').waitFor();
    const signInForm = form(page, 'Sign in');
    const errors = signInForm.locator('.form-errors');
    for (let attempt = 0; attempt < 30; attempt++) {
      await page.getByLabel('E-mail').fill(target.email);
      await page.getByLabel('Password').fill(`wrong guess ${attempt}`);
      await page.getByRole('button', { name: 'Sign in' }).click();
      // A sign-in takes a memory-hard hash: more than the poll's default second on a busy machine.
      await expect.poll(() => errors.textContent(), { timeout: 15_000 }).not.toBe('');
      const text = (await errors.textContent()) ?? '';
      if (text.startsWith('Too many')) break;
      expect(text).toBe('Wrong e-mail or password');
      await errors.evaluate((element) => element.replaceChildren());
    }
    expect(await errors.textContent()).toMatch(/^Too many failed sign-ins: try again in \d+ (s|min|min \d+ s)\.$/);
    // Even the right password waits now.
    await page.getByLabel('Password').fill(target.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => errors.textContent(), { timeout: 15_000 }).toMatch(/^Too many failed sign-ins/);
    expect(await heading(page, 'Sign in').isVisible()).toBe(true);
  });
});

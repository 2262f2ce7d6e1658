import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUCCESS_SHOWN_MS } from '../../src/admin/outcome-timing.js';
import { createCatalog, type CatalogFixture } from '../support/catalog-fixture.js';
import { chromiumAvailable, launchBrowser, type TestBrowser } from '../support/chromium.js';
import { startTestServer, type Tenant, type TestServer } from '../support/test-server.js';
import { fieldError, form, heading, openSignedIn, type StaffLogin, staffMember, type WatchedPage } from './admin-browser.js';

/** A price file saved by a spreadsheet in Latin-1: "É" is the one byte 0xC9, which UTF-8 never has alone. */
const LATIN1 = (customerId: number) => Buffer.from(`customer_id,sku,price\n${customerId},CAF\u00c9,1\n`, 'latin1');
const LATIN1_REASON =
  'CSV file: prices.csv is not UTF-8 text: byte 0xC9 on line 2 is not UTF-8; it looks like Windows-1252 or Latin-1 (ISO-8859-1). Save it as "CSV UTF-8", or convert it (iconv -f LATIN1 -t UTF-8)';

/**
 * The outcomes of the admin page's actions (docs/admin.md, "Outcomes, prices and times"), in a
 * real Chromium against the real server on SQLite, at 1280 and 375 px: a success closes by
 * itself, a failure stays until dismissed, and either goes when the member moves to another
 * view; a check that ended refused leaves no "Checking the file…" behind; a file that is not
 * UTF-8 is named as the CLI names it (what it looks like, how to save it), before it is sent.
 */
describe.skipIf(!chromiumAvailable())('the admin page’s outcomes, in Chromium', () => {
  let server: TestServer;
  let tenant: Tenant;
  let catalog: CatalogFixture;
  let browser: TestBrowser;
  let owner: StaffLogin;
  const tabs: WatchedPage[] = [];

  beforeAll(async () => {
    server = await startTestServer('sqlite');
    tenant = await server.createTenant();
    catalog = await createCatalog(server, tenant);
    owner = await staffMember(server, tenant.storeId, 'owner', 'Olive Owner');
    browser = await launchBrowser(server.baseUrl);
  });

  afterAll(async () => {
    for (const tab of tabs) tab.expectClean([tenant.token, tenant.secret, owner.password]);
    expect(browser?.refused ?? []).toEqual([]);
    await browser?.close();
    await server?.close();
  });

  const WIDTHS = [
    { name: 'desktop', width: 1280, height: 800 },
    { name: 'phone', width: 375, height: 812 },
  ];

  it.each(WIDTHS)(
    'a success closes by itself, a failure stays until dismissed, and neither follows to another view ($name)',
    async ({ name, width, height }) => {
      const page = await openSignedIn(browser, server, tabs, owner, '#/price-lists', 'Price lists');
      await page.setViewportSize({ width, height });
      const toast = page.locator('#toast');
      // A new list opens its page, and the outcome goes along: where the action led.
      const create = async (listName: string) => {
        await page.evaluate('location.hash = "#/price-lists"');
        await heading(page, 'Price lists').waitFor();
        const start = form(page, 'Create a price list');
        await start.getByLabel('Name').fill(listName);
        await start.getByRole('button', { name: 'Create price list' }).click();
        await expect.poll(() => toast.isVisible()).toBe(true);
        expect(await toast.textContent()).toContain(`Price list ${listName} created`);
        await heading(page, `Price list “${listName}”`).waitFor();
        expect(await toast.isVisible()).toBe(true);
      };
      await create(`Closes ${name}`);
      const shown = Date.now();
      await expect.poll(() => toast.isVisible(), { timeout: SUCCESS_SHOWN_MS + 5000, interval: 250 }).toBe(false);
      expect(Date.now() - shown).toBeGreaterThanOrEqual(SUCCESS_SHOWN_MS - 1000);

      // Made in one view, it does not follow to the next.
      await create(`Stays ${name}`);
      await page.evaluate('location.hash = "#/customers"');
      await heading(page, 'Customers').waitFor();
      expect(await toast.isVisible()).toBe(false);

      // A failure: an import checked, then refused for real (its customer deleted in between); it stays until dismissed.
      const customer = (await server.request('POST', '/v1/customers', { token: tenant.token, body: { email: `gone-${name}@example.com`, trade: true } }))
        .body as { id: number };
      await page.evaluate('location.hash = "#/imports"');
      await heading(page, 'Import and export').waitFor();
      const upload = form(page, 'Import a CSV file');
      await upload.getByLabel('CSV file').setInputFiles({
        name: 'prices.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from(`customer_id,sku,price\n${customer.id},${catalog.skus.mug},3.5\n`),
      });
      await upload.getByRole('button', { name: 'Check the file (dry run)' }).click();
      await expect.poll(() => toast.textContent()).toContain('Dry run succeeded');
      expect((await server.request('DELETE', `/v1/customers/${customer.id}`, { token: tenant.token })).status).toBe(204);
      await upload.getByRole('button', { name: 'Apply import' }).click();
      await expect.poll(() => page.locator('#toast-text').textContent(), { timeout: 20_000 }).toBe('Import failed: nothing changed');
      await page.waitForTimeout(SUCCESS_SHOWN_MS + 1000);
      expect(await toast.isVisible()).toBe(true);
      await toast.getByRole('button', { name: 'Dismiss' }).click();
      expect(await toast.isVisible()).toBe(false);
      await page.close();
    },
  );

  it.each(WIDTHS)('names a Latin-1 file as the CLI does, and leaves no check in progress once one ended ($name)', async ({ width, height }) => {
    const page = await openSignedIn(browser, server, tabs, owner, '#/imports', 'Import and export');
    await page.setViewportSize({ width, height });
    const upload = form(page, 'Import a CSV file');
    const file = upload.getByLabel('CSV file');
    await file.setInputFiles({ name: 'prices.csv', mimeType: 'text/csv', buffer: LATIN1(catalog.tradeCustomer) });
    await upload.getByRole('button', { name: 'Check the file (dry run)' }).click();
    await expect.poll(() => fieldError(file)).toBe(LATIN1_REASON);
    // A file the server refuses at once (an empty one): the form says why, and nothing stays "Checking the file…".
    await file.setInputFiles({ name: 'empty.csv', mimeType: 'text/csv', buffer: Buffer.from('') });
    await upload.getByRole('button', { name: 'Check the file (dry run)' }).click();
    await expect.poll(async () => (await upload.getByRole('alert').allTextContents()).join(' ') + (await fieldError(file))).not.toBe('');
    expect(await page.getByText('Checking the file…').count()).toBe(0);

    // The same in a change set's upload.
    const set = (await server.request('POST', '/v1/change-sets', { token: tenant.token, body: { name: `Upload ${width}` } })).body as { id: number };
    await page.evaluate(`location.hash = "#/change-sets/${set.id}"`);
    await heading(page, `Change set: Upload ${width}`).waitFor();
    const into = form(page, 'Upload prices into the change set');
    const setFile = into.getByLabel('CSV file');
    await setFile.setInputFiles({ name: 'prices.csv', mimeType: 'text/csv', buffer: LATIN1(catalog.tradeCustomer) });
    await into.getByRole('button', { name: 'Upload into the set' }).click();
    await expect.poll(() => fieldError(setFile)).toBe(LATIN1_REASON);
    await setFile.setInputFiles({ name: 'empty.csv', mimeType: 'text/csv', buffer: Buffer.from('') });
    await into.getByRole('button', { name: 'Upload into the set' }).click();
    await expect.poll(async () => (await into.getByRole('alert').allTextContents()).join(' ') + (await fieldError(setFile))).not.toBe('');
    expect(await page.getByText('Checking the file…').count()).toBe(0);
    await page.close();
  });
});

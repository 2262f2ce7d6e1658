import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SCOPES } from '../../src/modules/stores/scopes.js';
import { createCatalog, type CatalogFixture } from '../support/catalog-fixture.js';
import { chromiumAvailable, launchBrowser, type TestBrowser } from '../support/chromium.js';
import { startTestServer, type Tenant, type TestServer } from '../support/test-server.js';
import { form, heading, openSignedIn, seriousViolations, type StaffLogin, staffMember, type WatchedPage } from './admin-browser.js';

const NOTICE = /^This store requires approval of price changes: /;

/**
 * The admin page of a store that requires approval, in a real Chromium against the real server
 * on SQLite: it offers price changes only as change sets (docs/admin.md). A customer's page, a
 * price list's, a group's and the import page show no direct add, edit or delete of prices,
 * entries, assignments or pricing settings, but a notice that leads to the change sets; what
 * changes no price (a name) is still offered and saved. Signed in again once the store no longer
 * requires approval, the same member is offered the forms; a change tried while the setting
 * changed under the page is refused, and the page says why.
 */
describe.skipIf(!chromiumAvailable())('the admin page where the store requires approval, in Chromium', () => {
  let server: TestServer;
  let tenant: Tenant;
  let catalog: CatalogFixture;
  let browser: TestBrowser;
  let editor: StaffLogin;
  let owner: StaffLogin;
  let fixedList: number;
  let percentageList: number;
  let group: number;
  const tabs: WatchedPage[] = [];

  const open = async (staff: StaffLogin, hash: string, landing: string | RegExp) => {
    const page = await openSignedIn(browser, server, tabs, staff, hash, landing);
    // The view has its data in.
    await page.locator('main:not([aria-busy])').waitFor();
    return page;
  };
  const api = async (method: string, path: string, body?: unknown) => {
    const answer = await server.request(method, path, { token: tenant.token, ...(body !== undefined && { body }) });
    expect(answer.status, answer.text).toBeLessThan(300);
    return answer.body as { id: number } & Record<string, unknown>;
  };

  beforeAll(async () => {
    server = await startTestServer('sqlite');
    // The store's integration: it writes prices directly, approval or not.
    tenant = await server.createTenant([...DEFAULT_SCOPES, 'trade_prices:direct']);
    catalog = await createCatalog(server, tenant);
    await api('POST', '/v1/trade-customer-product-prices/bulk', [
      { customerId: catalog.tradeCustomer, productId: catalog.mug, sku: catalog.skus.mug, price: 3.9 },
    ]);
    fixedList = (await api('POST', '/v1/price-lists', { name: 'Contract', kind: 'fixed' })).id;
    percentageList = (await api('POST', '/v1/price-lists', { name: 'Resellers', kind: 'percentage', percentage: 10 })).id;
    await api('POST', `/v1/price-lists/${fixedList}/prices/bulk`, [{ productId: catalog.mug, sku: catalog.skus.mug, price: 4 }]);
    await api('PUT', `/v1/customers/${catalog.tradeCustomer}`, { priceListIds: [fixedList, percentageList], firstName: 'Ada' });
    group = (await api('POST', '/v1/customer-groups', { name: 'Wholesale', priceListIds: [fixedList] })).id;
    await api('PUT', `/v1/customers/${catalog.otherTradeCustomer}`, { customerGroupId: group });
    await server.services.credentials.setRequireApproval(tenant.storeId, true);
    editor = await staffMember(server, tenant.storeId, 'editor', 'Edith Editor');
    owner = await staffMember(server, tenant.storeId, 'owner', 'Olive Owner');
    browser = await launchBrowser(server.baseUrl);
  });

  afterAll(async () => {
    for (const tab of tabs) tab.expectClean([tenant.token, tenant.secret, editor.password, owner.password]);
    expect(browser?.refused ?? []).toEqual([]);
    await browser?.close();
    await server?.close();
  });

  it("offers no direct change of a customer's prices or lists, but a way into the change sets", async () => {
    const page = await open(editor, `#/customers/${catalog.tradeCustomer}`, /^Ada/);
    const prices = page.getByRole('region', { name: 'Trade prices of this customer' });
    await prices.getByRole('cell', { name: catalog.skus.mug, exact: true }).waitFor();
    expect(await page.getByRole('button', { name: 'Add a price' }).count()).toBe(0);
    expect(await prices.getByRole('button', { name: /^(Edit|Delete) price/ }).count()).toBe(0);
    // The price is text, not a button that edits it where it is; Explain stays.
    expect(await prices.getByRole('button', { name: /^Explain price/ }).count()).toBe(1);
    expect(await prices.getByRole('button', { name: /£3\.90/ }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /^Move “/ }).count()).toBe(0);
    const notice = page.getByText(NOTICE).filter({ hasText: 'trade prices and price lists' });
    expect(await notice.textContent()).toBe(
      'This store requires approval of price changes: this customer’s trade prices and price lists change through a change set, which another staff member approves before it applies. Go to Change sets.',
    );
    expect(await seriousViolations(page)).toEqual([]);
    await notice.getByRole('link', { name: 'Go to Change sets' }).click();
    await heading(page, 'Change sets').waitFor();
    expect(await form(page, 'Start a change set').count()).toBe(1);
  });

  it("edits an owner's customer details without the trade flag, which would change what the customer pays", async () => {
    const page = await open(owner, `#/customers/${catalog.tradeCustomer}`, /^Ada/);
    await page.getByText('Edit details (name, company, active)').click();
    const edit = form(page, 'Edit the customer');
    expect(await edit.getByLabel('Trade customer').count()).toBe(0);
    expect(await page.getByText(/whether the customer is a trade customer decides whether its trade prices count, and is not changed here/).count()).toBe(1);
    await edit.getByLabel('First name').fill('Augusta');
    await edit.getByRole('button', { name: 'Save details' }).click();
    await heading(page, /^Augusta/).waitFor();
    const customer = await api('GET', `/v1/customers/${catalog.tradeCustomer}`);
    expect(customer).toMatchObject({ firstName: 'Augusta', trade: true, priceListIds: [fixedList, percentageList] });
  });

  it("offers a price list's name only, and none of its entries, imports or customers", async () => {
    let page = await open(editor, `#/price-lists/${fixedList}`, 'Price list “Contract”');
    await page.getByRole('cell', { name: catalog.skus.mug, exact: true }).waitFor();
    expect(await page.getByRole('button', { name: 'Add an entry' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /^(Edit|Delete) entry/ }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Delete price list' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /^Remove / }).count()).toBe(0);
    expect(await form(page, 'Assign a customer').count()).toBe(0);
    expect(await page.getByRole('region', { name: /Import/ }).count()).toBe(0);
    const settings = form(page, 'Price list settings');
    expect(await settings.getByLabel('Policy').count()).toBe(0);
    expect(await page.getByText(NOTICE).allTextContents()).toEqual([
      'This store requires approval of price changes: only the list’s name changes here. Its policy and deleting it change what its customers pay: ask the store’s owner.',
      'This store requires approval of price changes: the list’s entries change through a change set, which another staff member approves before it applies. Go to Change sets.',
      'This store requires approval of price changes: which customers have the list changes through a change set, which another staff member approves before it applies. Go to Change sets.',
    ]);
    expect(await seriousViolations(page)).toEqual([]);
    // A name changes no price: it is saved.
    await settings.getByLabel('Name').fill('Contract 2027');
    await settings.getByRole('button', { name: 'Save' }).click();
    await heading(page, 'Price list “Contract 2027”').waitFor();
    expect(await api('GET', `/v1/price-lists/${fixedList}`)).toMatchObject({ name: 'Contract 2027', policy: 'first' });

    page = await open(editor, `#/price-lists/${percentageList}`, 'Price list “Resellers”');
    expect(await form(page, 'Price list settings').getByLabel('Percentage off').count()).toBe(0);
    expect(await page.getByText(NOTICE).first().textContent()).toBe(
      'This store requires approval of price changes: only the list’s name changes here. Its percentage changes through a change set, which another staff member approves before it applies; its policy, rounding and deleting it change what its customers pay: ask the store’s owner. Go to Change sets.',
    );
  });

  it("offers a group's name only, and none of its lists, customers or deletion", async () => {
    const page = await open(editor, `#/customer-groups/${group}`, 'Customer group “Wholesale”');
    await page.getByRole('region', { name: 'Customers' }).getByRole('link').first().waitFor();
    const settings = form(page, 'Customer group settings');
    expect(await settings.getByLabel('Price lists, in order').count()).toBe(0);
    expect(await settings.getByLabel('Policy').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Delete group' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /^Remove / }).count()).toBe(0);
    expect(await form(page, 'Add a customer').count()).toBe(0);
    expect(await page.getByText(NOTICE).textContent()).toBe(
      'This store requires approval of price changes: only the group’s name changes here. Its price lists, its policy, its customers and deleting it change what its customers pay: ask the store’s owner.',
    );
    await settings.getByLabel('Name').fill('Wholesale 2027');
    await settings.getByRole('button', { name: 'Save' }).click();
    await heading(page, 'Customer group “Wholesale 2027”').waitFor();
    expect(await api('GET', `/v1/customer-groups/${group}`)).toMatchObject({ name: 'Wholesale 2027', priceListIds: [fixedList], policy: 'first' });
  });

  it('checks an import (a dry run) but offers no apply: the file goes into a change set', async () => {
    const page = await open(editor, '#/imports', 'Import and export');
    expect(await page.getByRole('button', { name: 'Apply import' }).count()).toBe(0);
    expect(await page.getByText(NOTICE).textContent()).toBe(
      'This store requires approval of price changes: a file is applied by uploading it into a change set (on the set’s page), which another staff member approves before it applies. Go to Change sets.',
    );
    const upload = form(page, 'Import a CSV file');
    await upload.getByLabel('CSV file').setInputFiles({
      name: 'prices.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(`customer_id,sku,price\n${catalog.tradeCustomer},${catalog.skus.mug},3.5\n`),
    });
    await upload.getByRole('button', { name: 'Check the file (dry run)' }).click();
    await expect
      .poll(() => page.locator('#toast').textContent())
      .toContain('Dry run succeeded: nothing changed. Upload the file into a change set to apply it.');
  });

  it('offers the forms again once the store no longer requires approval, and says why a change is refused when it comes to require it under the page', async () => {
    await server.services.credentials.setRequireApproval(tenant.storeId, false);
    try {
      const page = await open(editor, `#/customers/${catalog.tradeCustomer}`, /^Augusta/);
      expect(await page.getByText(NOTICE).count()).toBe(0);
      await page.getByRole('button', { name: 'Add a price' }).click();
      // The store requires approval again while the page is open: the API refuses, the page says so at the form.
      await server.services.credentials.setRequireApproval(tenant.storeId, true);
      const add = form(page, 'Add or edit a price');
      await add.getByLabel('SKU', { exact: true }).fill(catalog.skus.mug);
      await add.getByLabel('Price', { exact: true }).fill('2.5');
      await add.getByRole('button', { name: 'Add price' }).click();
      await expect
        .poll(() => add.getByRole('alert').textContent())
        .toContain('This store requires approval of price changes: make this change in a change set (POST /v1/change-sets)');
      const prices = (
        await server.request('GET', `/v1/trade-customer-product-prices?customerId=${catalog.tradeCustomer}&fields=price`, { token: tenant.token })
      ).body;
      expect(prices).toEqual([{ price: 3.9 }]);
    } finally {
      await server.services.credentials.setRequireApproval(tenant.storeId, true);
    }
  });
});

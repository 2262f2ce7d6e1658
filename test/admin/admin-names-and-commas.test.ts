import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCatalog, type CatalogFixture } from '../support/catalog-fixture.js';
import { chromiumAvailable, launchBrowser, type TestBrowser } from '../support/chromium.js';
import { startTestServer, type Tenant, type TestServer } from '../support/test-server.js';
import { form, heading, openSignedIn, type StaffLogin, staffMember, type WatchedPage } from './admin-browser.js';

const WIDTHS = [
  { width: 1280, height: 800 },
  { width: 375, height: 812 },
] as const;

/**
 * What shop staff found: previews and orders named customers "#2", not by their names; and a
 * price typed with a decimal comma (19,50) was refused as "must be number". In a real Chromium
 * against the real server on SQLite, at a desktop's and a phone's width.
 */
describe.skipIf(!chromiumAvailable())('customers by name, and prices with a decimal comma, in Chromium', () => {
  let server: TestServer;
  let tenant: Tenant;
  let browser: TestBrowser;
  let owner: StaffLogin;
  let catalog: CatalogFixture;
  let grace: number;
  const tabs: WatchedPage[] = [];

  const post = async (urlPath: string, body: unknown) => {
    const response = await server.request('POST', urlPath, { token: tenant.token, body });
    expect(response.status, response.text).toBeLessThan(300);
    return response.body as { id: number };
  };
  const pricesOf = async (customerId: number) =>
    (await server.request('GET', `/v1/trade-customer-product-prices?customerId=${customerId}&fields=sku,price`, { token: tenant.token })).body as Array<{
      sku: string;
      price: number;
    }>;

  beforeAll(async () => {
    server = await startTestServer('sqlite');
    tenant = await server.createTenant();
    catalog = await createCatalog(server, tenant);
    grace = (await post('/v1/customers', { email: 'grace@hopper.example', firstName: 'Grace', lastName: 'Hopper', trade: true })).id;
    owner = await staffMember(server, tenant.storeId, 'owner', 'Olive Owner');
    browser = await launchBrowser(server.baseUrl);
  });

  afterAll(async () => {
    for (const tab of tabs) tab.expectClean([tenant.token, tenant.secret, owner.password]);
    await browser?.close();
    await server?.close();
  });

  it.each(WIDTHS)('names customers in a change set’s operations and preview, and in orders, at $width px', async (size) => {
    const set = await post('/v1/change-sets', { name: `Names ${size.width}` });
    await post(`/v1/change-sets/${set.id}/operations`, [
      { type: 'trade_price.create', customerId: grace, productId: catalog.mug, sku: catalog.skus.mug, price: 3.5 },
    ]);
    const order = await post('/v1/orders', { customerId: grace, lines: [{ sku: catalog.skus.mug, quantity: 1 }] });
    const page = await openSignedIn(browser, server, tabs, owner, `#/change-sets/${set.id}`, `Change set: Names ${size.width}`);
    await page.setViewportSize(size);
    const operations = page.getByRole('region', { name: 'Operations, in the order they apply' });
    await expect.poll(() => operations.getByRole('row').nth(1).textContent()).toBe(`1Add a price for Grace Hopper: ${catalog.skus.mug} at £3.50`);
    const preview = page.getByRole('region', { name: 'Preview, before → after' });
    await expect
      .poll(() =>
        preview
          .getByRole('row')
          .filter({ hasText: /^Price/ })
          .allTextContents(),
      )
      .toEqual([`PriceGrace Hopper${catalog.skus.mug}1£4.20 → £3.50`]);

    await page.goto(`${server.baseUrl}/admin#/orders/${order.id}`);
    await heading(page, `Order #${order.id}`).waitFor();
    await expect.poll(() => page.locator('dl.details dd').first().textContent()).toBe('Grace Hopper');
    await page.goto(`${server.baseUrl}/admin#/orders`);
    await heading(page, 'Orders').waitFor();
    const orders = page.getByRole('region', { name: 'Orders, newest first' });
    await expect.poll(() => orders.getByRole('row').nth(1).textContent()).toMatch(new RegExp(`^Order #${order.id}.*Grace Hopper1£`));
    await page.close();
  });

  it.each(WIDTHS)('takes 19,50 in a price field as 19.50, and says the format of a price it cannot read, at $width px', async (size) => {
    const customer = size.width === 1280 ? catalog.tradeCustomer : catalog.otherTradeCustomer;
    const page = await openSignedIn(browser, server, tabs, owner, `#/customers/${customer}`, /@example\.com/);
    await page.setViewportSize(size);
    await page.getByRole('button', { name: 'Add a price' }).click();
    const add = form(page, 'Add or edit a price');
    await add.getByLabel('SKU', { exact: true }).fill(catalog.skus.mug);
    await add.getByLabel('Price', { exact: true }).fill('19,50');
    await add.getByRole('button', { name: 'Add price' }).click();
    await expect.poll(() => pricesOf(customer)).toEqual([{ sku: catalog.skus.mug, price: 19.5 }]);
    // The price where it is shown takes a comma too.
    await page.getByRole('button', { name: /^Change the price of .*, now £19\.50$/ }).click();
    await page.getByLabel(/^New price of /).fill('18,25');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(() => pricesOf(customer)).toEqual([{ sku: catalog.skus.mug, price: 18.25 }]);
    // Two separators are not read as a price: the field says what a price looks like.
    await page.getByRole('button', { name: /^Change the price of .*, now £18\.25$/ }).click();
    await page.getByLabel(/^New price of /).fill('1.234,50');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect
      .poll(() => page.locator('.inline-price .field-error').textContent())
      .toBe('a price: digits with at most 4 decimals after a point or a comma, no thousands separator, e.g. 19.50 or 19,50');
    expect(await pricesOf(customer)).toEqual([{ sku: catalog.skus.mug, price: 18.25 }]);
    // Nor is a comma before three digits, a thousands separator to an en-GB reader: not 1.234.
    await page.getByLabel(/^New price of /).fill('1,234');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect
      .poll(() => page.locator('.inline-price .field-error').textContent())
      .toBe('a price: digits with at most 4 decimals after a point or a comma, no thousands separator, e.g. 19.50 or 19,50');
    expect(await pricesOf(customer)).toEqual([{ sku: catalog.skus.mug, price: 18.25 }]);
    await page.close();
  });
});

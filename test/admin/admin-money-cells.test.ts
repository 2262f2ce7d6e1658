import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCatalog } from '../support/catalog-fixture.js';
import { chromiumAvailable, launchBrowser, type TestBrowser } from '../support/chromium.js';
import { startTestServer, type Tenant, type TestServer } from '../support/test-server.js';
import { heading, openSignedIn, type StaffLogin, staffMember, type WatchedPage } from './admin-browser.js';

/**
 * What the page measures of each money cell (a cell showing an amount in the store's pounds) of
 * every table the view shows, with the table scrolled as it opens: the boxes of any cell pinned
 * over the others (a sticky column) its text's box meets, and whether that text is cut short by
 * its cell or by the edge of the table's scrolling box (partly in view).
 */
async function coveredMoney(page: Page): Promise<string[]> {
  return (await page.evaluate(`(() => {
    const found = [];
    const meets = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
    for (const region of document.querySelectorAll('main .table-scroll')) {
      const cells = [...region.querySelectorAll('td, th')];
      const pinned = cells.filter((cell) => getComputedStyle(cell).position === 'sticky');
      const visible = region.getBoundingClientRect();
      for (const cell of cells) {
        if (!/£\\d/.test(cell.textContent) || pinned.includes(cell)) continue;
        const range = document.createRange();
        range.selectNodeContents(cell);
        const text = range.getBoundingClientRect();
        const box = cell.getBoundingClientRect();
        const name = region.getAttribute('aria-label') + ': ' + cell.textContent.trim();
        for (const over of pinned) if (meets(text, over.getBoundingClientRect())) found.push(name + ' under ' + over.textContent.trim());
        if (text.right > box.right + 0.5 || text.left < box.left - 0.5) found.push(name + ' wider than its cell');
        const inView = text.left >= visible.left - 0.5 && text.right <= visible.right + 0.5;
        const outOfView = text.left >= visible.right - 0.5 || text.right <= visible.left + 0.5;
        if (!inView && !outOfView) found.push(name + ' cut by the edge of the table');
      }
    }
    return found;
  })()`)) as string[];
}

/**
 * A price page never shows a price cut short (docs/admin.md, "Layout"): at a phone's 375 and
 * 320 px, on a customer's page (its trade prices, the cart), a fixed list's entries, a change
 * set's preview and an order, no money cell lies under a pinned column, wider than its cell, or
 * partly scrolled out of its table's box, in a real Chromium against the real server on SQLite.
 */
describe.skipIf(!chromiumAvailable())('the admin page’s money cells on a phone, in Chromium', () => {
  let server: TestServer;
  let tenant: Tenant;
  let browser: TestBrowser;
  let owner: StaffLogin;
  const tabs: WatchedPage[] = [];
  const views: Array<[hash: string, title: string | RegExp]> = [];

  beforeAll(async () => {
    server = await startTestServer('sqlite');
    tenant = await server.createTenant();
    const post = async (urlPath: string, body: unknown) => {
      const response = await server.request('POST', urlPath, { token: tenant.token, body });
      expect(response.status, response.text).toBeLessThan(300);
      return response.body as { id: number };
    };
    const catalog = await createCatalog(server, tenant, 'P');
    const customer = await post('/v1/customers', {
      email: 'grace@hopper.example',
      firstName: 'Grace',
      lastName: 'Hopper',
      companyName: 'Harvard Mark I Supplies',
      trade: true,
    });
    // The prices the finding named, read as £5.9, £6.9 and £7.7 when a pinned column covered them.
    await post('/v1/trade-customer-product-prices/bulk', [
      { customerId: customer.id, productId: catalog.mug, sku: catalog.skus.mug, price: 5.95 },
      { customerId: customer.id, productId: catalog.mug, sku: catalog.skus.mug, price: 6.95, minQuantity: 12 },
      { customerId: customer.id, productId: catalog.tee, sku: catalog.skus.teeRedM, price: 7.75 },
    ]);
    const list = await post('/v1/price-lists', { name: 'Contract', kind: 'fixed' });
    await post(`/v1/price-lists/${list.id}/prices/bulk`, [
      { productId: catalog.mug, sku: catalog.skus.mug, price: 5.95 },
      { productId: catalog.tee, sku: catalog.skus.teeRedM, price: 17.4913 },
    ]);
    const set = await post('/v1/change-sets', { name: 'Spring' });
    await post(`/v1/change-sets/${set.id}/operations`, [
      { type: 'trade_price.create', customerId: customer.id, productId: catalog.tee, sku: catalog.skus.tee, price: 8.95 },
    ]);
    const order = await post('/v1/orders', { customerId: customer.id, lines: [{ sku: catalog.skus.mug, quantity: 12 }] });
    owner = await staffMember(server, tenant.storeId, 'owner', 'Olive Owner');
    views.push(
      [`#/customers/${customer.id}`, /^Grace Hopper/],
      [`#/price-lists/${list.id}`, 'Price list “Contract”'],
      [`#/change-sets/${set.id}`, 'Change set: Spring'],
      [`#/orders/${order.id}`, `Order #${order.id}`],
      ['#/orders', 'Orders'],
    );
    browser = await launchBrowser(server.baseUrl);
  });

  afterAll(async () => {
    for (const tab of tabs) tab.expectClean([tenant.token, tenant.secret, owner.password]);
    await browser?.close();
    await server?.close();
  });

  it.each([375, 320])('no money cell is covered or cut short at %i px', async (width) => {
    const page = await openSignedIn(browser, server, tabs, owner, '#/customers', 'Customers');
    await page.setViewportSize({ width, height: 812 });
    const found: string[] = [];
    let moneyCells = 0;
    for (const [hash, title] of views) {
      await page.goto(`${server.baseUrl}/admin${hash}`);
      await heading(page, title).waitFor();
      await page.locator('main:not([aria-busy])').waitFor();
      await page.waitForLoadState('networkidle');
      if (hash.startsWith('#/customers/')) {
        // The cart's lines too: a unit price and a line total each.
        await page.getByLabel('Lines').fill('MUGP 12\nTEEP-RED-M 2');
        await page.getByRole('button', { name: 'Price the cart' }).click();
        await page.getByRole('region', { name: 'Priced lines' }).waitFor();
      }
      moneyCells += await page.locator('main .table-scroll td').filter({ hasText: /£\d/ }).count();
      found.push(...(await coveredMoney(page)).map((problem) => `${hash}: ${problem}`));
    }
    expect(found).toEqual([]);
    // The tables were there: the prices, the entries, the preview, the order's lines, the cart.
    expect(moneyCells).toBeGreaterThanOrEqual(12);
    await page.close();
  });
});

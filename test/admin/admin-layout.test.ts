import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCatalog } from '../support/catalog-fixture.js';
import { chromiumAvailable, launchBrowser, type TestBrowser } from '../support/chromium.js';
import { startTestServer, type Tenant, type TestServer } from '../support/test-server.js';
import { heading, signIn, type StaffLogin, staffMember } from './admin-browser.js';

/** Where the screenshots and their layout live, beside docs/admin.md. */
const SHOTS = path.resolve(import.meta.dirname, '../../docs/admin');
const LAYOUT = path.join(SHOTS, 'layout.json');
/** `PRICEBOOK_SCREENSHOT=1` saves the screenshots and the layout again instead of comparing. */
const SAVE = process.env.PRICEBOOK_SCREENSHOT === '1';
/**
 * How far (CSS pixels) a box may move or grow from the one recorded before the layout counts
 * as changed: a line of text (a date, a name) a few characters longer or shorter does not
 * move a section, a row or a column more than this; a form moved, a section lost or a sidebar
 * turned into a header does.
 */
export const LAYOUT_TOLERANCE_PX = 24;
const WIDTHS = [
  { name: 'desktop', width: 1280, height: 900 },
  { name: 'phone', width: 375, height: 812 },
] as const;

/** A box of the page: its landmark, heading, section, table region or form, by what names it. */
type Boxes = Record<string, [x: number, y: number, width: number, height: number]>;
type Layout = Record<string, Boxes>;

/** The boxes of what a view is made of, each named by its role and accessible name. */
async function boxesOf(page: Page): Promise<Boxes> {
  return (await page.evaluate(`(() => {
    const boxes = {};
    const add = (key, element) => {
      const box = element.getBoundingClientRect();
      if (box.width === 0 && box.height === 0) return;
      boxes[key] = [box.x, box.y + window.scrollY, box.width, box.height].map(Math.round);
    };
    add('header', document.querySelector('.site-header'));
    add('main', document.querySelector('main'));
    for (const element of document.querySelectorAll('main h1, main section > h2')) add(element.tagName.toLowerCase() + ' ' + element.textContent.trim(), element.parentElement.tagName === 'SECTION' ? element.parentElement : element);
    for (const element of document.querySelectorAll('main [role=region][aria-label]')) add('region ' + element.getAttribute('aria-label'), element);
    for (const element of document.querySelectorAll('main form[aria-label]')) add('form ' + element.getAttribute('aria-label'), element);
    return boxes;
  })()`)) as Boxes;
}

/** What moved beyond the tolerance, or appeared, or went. */
function differences(recorded: Boxes, now: Boxes): string[] {
  const found: string[] = [];
  for (const key of new Set([...Object.keys(recorded), ...Object.keys(now)])) {
    const before = recorded[key];
    const after = now[key];
    if (before === undefined || after === undefined) found.push(`${key}: ${before === undefined ? 'new' : 'gone'}`);
    else if (before.some((value, index) => Math.abs(value - after[index]!) > LAYOUT_TOLERANCE_PX))
      found.push(`${key}: [${before.join(', ')}] → [${after.join(', ')}]`);
  }
  return found;
}

/**
 * Every view of the admin page at 1280 and 375 px, on a store made the same way each run, as
 * the screenshots in docs/admin/ show it (docs/admin.md): the boxes of its header, headings,
 * sections, tables and forms must be where docs/admin/layout.json says, within
 * `LAYOUT_TOLERANCE_PX`. A layout changed on purpose is saved again with PRICEBOOK_SCREENSHOT=1
 * (screenshots and layout together), so the pictures in the docs are the page as it is.
 */
describe.skipIf(!chromiumAvailable())('the admin page’s layout, as docs/admin/ shows it', () => {
  let server: TestServer;
  let tenant: Tenant;
  let browser: TestBrowser;
  let owner: StaffLogin;
  const views: Array<[name: string, hash: string, title: string]> = [];

  beforeAll(async () => {
    server = await startTestServer('sqlite');
    const store = await server.createTenant();
    // A key with a name: the history's "Who" column shows it, where an unnamed key shows its
    // random identifier, whose width (and so the table's wrapping) changed from run to run.
    const named = await server.services.credentials.issueKey(store.storeId, undefined, 'ERP sync');
    tenant = { ...store, keyId: named.id, token: named.token, key: named.key, secret: named.secret };
    const post = async (urlPath: string, body: unknown, method = 'POST') => {
      const response = await server.request(method, urlPath, { token: tenant.token, body });
      expect(response.status, response.text).toBeLessThan(300);
      return response.body as { id: number };
    };
    const catalog = await createCatalog(server, tenant, 'S');
    const list = await post('/v1/price-lists', { name: 'Trade 2027', kind: 'fixed' });
    await post(`/v1/price-lists/${list.id}/prices/bulk`, [
      { productId: catalog.mug, sku: catalog.skus.mug, price: 3.6 },
      { productId: catalog.tee, sku: catalog.skus.teeRedM, price: 10.5, minQuantity: 12, quantityRule: { minimum: 12, maximum: null, increment: 12 } },
    ]);
    const group = await post('/v1/customer-groups', { name: 'Installers', priceListIds: [list.id] });
    const ada = await post('/v1/customers', {
      email: 'ada@analytical.example',
      firstName: 'Ada',
      lastName: 'Lovelace',
      companyName: 'Analytical Engines Ltd',
      trade: true,
      priceListIds: [list.id],
      customerGroupId: group.id,
    });
    await post('/v1/trade-customer-product-prices/bulk', [
      { customerId: ada.id, productId: catalog.mug, sku: catalog.skus.mug, price: 3.25 },
      { customerId: ada.id, productId: catalog.mug, sku: catalog.skus.mug, price: 2.95, minQuantity: 24 },
      {
        customerId: ada.id,
        productId: catalog.tee,
        sku: catalog.skus.teeRedM,
        price: 9.75,
        validFrom: '2027-01-01T00:00:00Z',
        validUntil: '2028-01-01T00:00:00Z',
      },
    ]);
    const order = await post('/v1/orders', {
      customerId: ada.id,
      lines: [
        { sku: catalog.skus.mug, quantity: 24 },
        { sku: catalog.skus.tee, quantity: 2 },
      ],
    });
    owner = await staffMember(server, tenant.storeId, 'owner', 'Olive Owner');
    views.push(
      ['customers', '#/customers', 'Customers'],
      ['customer', `#/customers/${ada.id}`, 'Ada Lovelace (Analytical Engines Ltd)'],
      ['price-lists', '#/price-lists', 'Price lists'],
      ['price-list', `#/price-lists/${list.id}`, 'Price list “Trade 2027”'],
      ['customer-groups', '#/customer-groups', 'Customer groups'],
      ['products', '#/products', 'Products'],
      ['product', `#/products/${catalog.tee}`, 'Tee'],
      ['orders', '#/orders', 'Orders'],
      ['order', `#/orders/${order.id}`, `Order #${order.id}`],
      ['change-sets', '#/change-sets', 'Change sets'],
      ['imports', '#/imports', 'Import and export'],
      ['webhooks', '#/webhooks', 'Webhooks'],
    );
    browser = await launchBrowser(server.baseUrl);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it.each(WIDTHS)('every view at $width px ($name) is laid out as its screenshot', async ({ name, width, height }) => {
    await browser.context.clearCookies();
    const page = await browser.context.newPage();
    await page.setViewportSize({ width, height });
    await page.goto(`${server.baseUrl}/admin`);
    await signIn(page, owner);
    const recorded: Layout = fs.existsSync(LAYOUT) ? (JSON.parse(fs.readFileSync(LAYOUT, 'utf8')) as Layout) : {};
    const measured: Layout = {};
    const changed: Record<string, string[]> = {};
    for (const [view, hash, title] of views) {
      await page.goto(`${server.baseUrl}/admin${hash}`);
      await heading(page, title).waitFor();
      await page.waitForLoadState('networkidle');
      // The view's own data in: tables rendered, nothing still loading.
      await page.locator('main:not([aria-busy])').waitFor();
      const key = `${view}@${name}`;
      measured[key] = await boxesOf(page);
      if (SAVE) await page.screenshot({ path: path.join(SHOTS, `${view}-${name}.png`) });
      else changed[key] = recorded[key] === undefined ? ['no layout recorded: run with PRICEBOOK_SCREENSHOT=1'] : differences(recorded[key], measured[key]);
    }
    await page.close();
    if (SAVE) {
      const merged = { ...recorded, ...measured };
      fs.writeFileSync(LAYOUT, `${JSON.stringify(Object.fromEntries(Object.entries(merged).sort(([a], [b]) => a.localeCompare(b))), null, 1)}\n`);
      return;
    }
    expect(Object.fromEntries(Object.entries(changed).filter(([, found]) => found.length > 0))).toEqual({});
  });
});

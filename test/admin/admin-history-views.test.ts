import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCatalog, type CatalogFixture } from '../support/catalog-fixture.js';
import { chromiumAvailable, launchBrowser, type TestBrowser } from '../support/chromium.js';
import { startTestServer, type Tenant, type TestServer } from '../support/test-server.js';
import { form, openSignedIn, scrollsSideways, type StaffLogin, staffMember, type WatchedPage } from './admin-browser.js';

const WIDTHS = [
  { width: 1280, height: 800 },
  { width: 375, height: 812 },
] as const;

const WHEN = /^\d{4}-\d\d-\d\d \d\d:\d\d$/;
/** The tenant's API key, by its name. */
const KEY = expect.stringMatching(/ \(API key\)$/);

/**
 * What shop staff missed: the page had no price history per SKU (the API filters by SKU and by
 * product), and a price changed in the page (a replace: the API deletes the record and creates
 * its successor) showed as a deletion and a creation. In a real Chromium against the real server
 * on SQLite, at a desktop's and a phone's width.
 */
describe.skipIf(!chromiumAvailable())('price history per customer, per product and per SKU, in Chromium', () => {
  let server: TestServer;
  let tenant: Tenant;
  let browser: TestBrowser;
  let owner: StaffLogin;
  let catalog: CatalogFixture;
  const tabs: WatchedPage[] = [];

  const send = async (urlPath: string, body: unknown) => {
    const response = await server.request('POST', urlPath, { token: tenant.token, body });
    expect(response.status, response.text).toBeLessThan(300);
    return response.body as { id: number } & { created?: { id: number }[] };
  };
  const customer = (email: string, firstName: string, lastName: string) => send('/v1/customers', { email, firstName, lastName, trade: true });
  /** The History table's rows after its header, each as its cells' texts. */
  const rowsOf = async (page: WatchedPage['page'], caption: string) => {
    const rows = page.getByRole('region', { name: caption }).getByRole('row');
    const texts: string[][] = [];
    for (let index = 1; index < (await rows.count()); index++) texts.push(await rows.nth(index).getByRole('cell').allTextContents());
    return texts;
  };
  const idsOf = async (customerId: number, sku: string) =>
    (
      (await server.request('GET', `/v1/trade-customer-product-prices?customerId=${customerId}&sku=${sku}&fields=id`, { token: tenant.token })).body as {
        id: number;
      }[]
    ).map((price) => price.id);

  beforeAll(async () => {
    server = await startTestServer('sqlite');
    tenant = await server.createTenant();
    owner = await staffMember(server, tenant.storeId, 'owner', 'Olive Owner');
    browser = await launchBrowser(server.baseUrl);
  });

  afterAll(async () => {
    for (const tab of tabs) tab.expectClean([tenant.token, tenant.secret, owner.password]);
    await browser?.close();
    await server?.close();
  });

  it.each(WIDTHS)('shows a changed price as one row, old → new, and narrows a customer’s and a product’s history to one SKU, at $width px', async (size) => {
    catalog = await createCatalog(server, tenant);
    const { mug, tee } = catalog.skus;
    const grace = (await customer(`grace-${size.width}@hopper.example`, 'Grace', 'Hopper')).id;
    const ada = (await customer(`ada-${size.width}@lovelace.example`, 'Ada', 'Lovelace')).id;
    await send('/v1/trade-customer-product-prices/bulk', [
      { customerId: grace, productId: catalog.mug, sku: mug, price: 3.75 },
      { customerId: grace, productId: catalog.tee, sku: tee, price: 8.5 },
      { customerId: ada, productId: catalog.mug, sku: mug, price: 3.6 },
    ]);
    const [first] = await idsOf(grace, mug);
    // Grace's mug price changes: one request deletes the record and creates its successor.
    await send('/v1/trade-customer-product-prices/replace', { customerId: grace, scope: 'skus', prices: [{ productId: catalog.mug, sku: mug, price: 3.5 }] });
    const [second] = await idsOf(grace, mug);
    expect(second).not.toBe(first);

    const page = await openSignedIn(browser, server, tabs, owner, `#/customers/${grace}`, 'Grace Hopper');
    await page.setViewportSize(size);
    const caption = 'Price history of this customer';
    await expect
      .poll(() => rowsOf(page, caption))
      .toEqual([
        [expect.stringMatching(WHEN), KEY, `Trade price #${first} → #${second} (${mug}) changed`, 'price 3.75 → 3.5', 'API'],
        [expect.stringMatching(WHEN), KEY, expect.stringMatching(new RegExp(`^Trade price #\\d+ \\(${tee}\\) created$`)), 'price 8.5, from quantity 1', 'API'],
        [expect.stringMatching(WHEN), KEY, `Trade price #${first} (${mug}) created`, 'price 3.75, from quantity 1', 'API'],
        [expect.stringMatching(WHEN), KEY, `Customer #${grace} created`, 'lists [], trade yes, active yes', 'API'],
      ]);
    // One SKU: the tee's price only.
    const bySku = form(page, `${caption}: one SKU`);
    await bySku.getByLabel('SKU').fill(tee);
    await bySku.getByRole('button', { name: 'Show its changes' }).click();
    await expect.poll(async () => (await rowsOf(page, caption)).map((row) => row[2])).toEqual([expect.stringMatching(new RegExp(`\\(${tee}\\) created$`))]);
    await bySku.getByLabel('SKU').fill('NO-SUCH-SKU');
    await bySku.getByRole('button', { name: 'Show its changes' }).click();
    await page.getByText('No changes of NO-SUCH-SKU recorded.').waitFor();
    await bySku.getByRole('button', { name: 'Show all' }).click();
    await expect.poll(async () => (await rowsOf(page, caption)).length).toBe(4);

    // The mug's history: every customer's prices of its SKU, each named, and the product itself.
    await page.goto(`${server.baseUrl}/admin#/products/${catalog.mug}`);
    const productCaption = 'Price history of this product';
    await expect
      .poll(async () => (await rowsOf(page, productCaption)).map((row) => [row[2], row[3]]))
      .toEqual([
        [`Trade price #${first} → #${second} (${mug}) of Grace Hopper changed`, 'price 3.75 → 3.5'],
        [expect.stringMatching(new RegExp(`^Trade price #\\d+ \\(${mug}\\) of Ada Lovelace created$`)), 'price 3.6, from quantity 1'],
        [`Trade price #${first} (${mug}) of Grace Hopper created`, 'price 3.75, from quantity 1'],
        [`Product #${catalog.mug} created`, `price 4.2, SKU “${mug}”, active yes`],
      ]);
    const productSku = form(page, `${productCaption}: one SKU`);
    await productSku.getByLabel('SKU').fill(tee);
    await productSku.getByRole('button', { name: 'Show its changes' }).click();
    // The tee is another product's SKU: the mug's history has none of it.
    await page.getByText(`No changes of ${tee} recorded.`).waitFor();
    expect(await scrollsSideways(page)).toBe(false);
  });
});

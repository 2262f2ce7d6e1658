import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCatalog, type CatalogFixture } from '../support/catalog-fixture.js';
import { chromiumAvailable, launchBrowser, type TestBrowser } from '../support/chromium.js';
import { startTestServer, type HttpResponse, type Tenant, type TestServer } from '../support/test-server.js';
import { form, signIn, type StaffLogin, staffMember, watch } from './admin-browser.js';

/**
 * A 429 is not a failure for the page: it waits as long as `Retry-After` says and sends the
 * request again. A bucket of 3 (leaking 2 a second) makes every view of several requests hit it.
 */
describe.skipIf(!chromiumAvailable())('admin page under a tiny rate limit, in Chromium', () => {
  let server: TestServer;
  let tenant: Tenant;
  let staff: StaffLogin;
  let catalog: CatalogFixture;
  let browser: TestBrowser;

  beforeAll(async () => {
    server = await startTestServer('sqlite', { PRICEBOOK_RATE_LIMIT_BUCKET: '3', PRICEBOOK_RATE_LIMIT_LEAK: '2' });
    // The setup's own credential (the page's session starts with an empty bucket), waiting out its 429s.
    tenant = await server.createTenant();
    const patient = { ...server, request: (...args: Parameters<TestServer['request']>) => waitingOut429(() => server.request(...args)) };
    catalog = await createCatalog(patient, tenant);
    // The page's credential: a staff session, with a bucket of its own.
    staff = await staffMember(patient, tenant.storeId, 'editor');
    browser = await launchBrowser(server.baseUrl);
  });

  afterAll(async () => {
    expect(browser?.refused ?? []).toEqual([]);
    await browser?.close();
    await server?.close();
  });

  it('waits out the 429s of opening a customer and adding a price, and the price is added', async () => {
    const tab = watch(await browser.context.newPage());
    const { page } = tab;
    await page.goto(`${server.baseUrl}/admin`);
    await signIn(page, staff);
    // Before it, the page's one GET /v1/session answered 401 (not signed in yet): not a failure.
    const signedIn = tab.statuses.length;
    await page.goto(`${server.baseUrl}/admin#/customers/${catalog.tradeCustomer}`);
    // Four requests at once into a bucket of three: the page says it waits, then goes on.
    await page.getByText(/rate limit asks for a pause of \d+ s: the action goes on by itself/).waitFor();
    await page.getByText('No trade prices yet.').waitFor();

    await page.getByRole('button', { name: 'Add a price' }).click();
    const add = form(page, 'Add or edit a price');
    await add.getByLabel('SKU', { exact: true }).fill(catalog.skus.mug);
    await add.getByLabel('Price', { exact: true }).fill('3.25');
    await add.getByRole('button', { name: 'Add price' }).click();
    await expect.poll(() => page.locator('.price-line').textContent(), { timeout: 20_000 }).toContain(`3.25 per unit for 1 × ${catalog.skus.mug}`);
    await page.getByRole('region', { name: 'Trade prices of this customer' }).getByText('£3.25', { exact: true }).waitFor();

    expect(tab.statuses.filter((status) => status === 429).length).toBeGreaterThan(0);
    expect(tab.statuses.slice(signedIn).filter((status) => status !== 429 && status >= 400)).toEqual([]);
    for (const text of await page.locator('.alert, .form-errors, .field-error').allTextContents()) expect(text).toBe('');
    await page.locator('#wait').waitFor({ state: 'hidden' });
    const stored = await server.request('GET', `/v1/trade-customer-product-prices?customerId=${catalog.tradeCustomer}`, { token: tenant.token });
    expect(stored.body).toEqual([expect.objectContaining({ sku: catalog.skus.mug, price: 3.25 })]);
    tab.expectClean([staff.password, tenant.token]);
  });
});

/** Sends again after `Retry-After` while the answer is a 429 (at most 20 times). */
async function waitingOut429(send: () => Promise<HttpResponse>): Promise<HttpResponse> {
  for (let attempt = 0; ; attempt++) {
    const response = await send();
    if (response.status !== 429 || attempt === 20) return response;
    await new Promise((resolve) => setTimeout(resolve, Number(response.headers['retry-after']) * 1000));
  }
}

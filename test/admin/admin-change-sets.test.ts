import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SCOPES } from '../../src/modules/stores/scopes.js';
import { createCatalog, type CatalogFixture } from '../support/catalog-fixture.js';
import { chromiumAvailable, launchBrowser, type TestBrowser } from '../support/chromium.js';
import { startTestServer, type Tenant, type TestServer } from '../support/test-server.js';
import { fieldError, form, heading, openSignedIn, seriousViolations, type StaffLogin, staffMember, type WatchedPage } from './admin-browser.js';

/**
 * Change sets on the admin page, in a real Chromium against the real server on SQLite, in a
 * store that requires approval: an editor starts a set, adds a price to it, reads the preview
 * before → after and submits it; an approver (another person) approves and applies it; the
 * editor is never offered the approval. Then a revert takes it back, and the price is as it was.
 */
describe.skipIf(!chromiumAvailable())('change sets on the admin page, in Chromium', () => {
  let server: TestServer;
  let tenant: Tenant;
  let catalog: CatalogFixture;
  let browser: TestBrowser;
  let editor: StaffLogin;
  let approver: StaffLogin;
  const tabs: WatchedPage[] = [];
  const secrets: string[] = [];

  const open = (staff: StaffLogin, hash: string, landing: string | RegExp) => openSignedIn(browser, server, tabs, staff, hash, landing);
  const effective = async (customerId = catalog.tradeCustomer, sku = catalog.skus.mug) =>
    (
      (await server.request('GET', `/v1/trade-customer-product-prices/effective?customerId=${customerId}&sku=${sku}&quantity=1`, { token: tenant.token }))
        .body as { price: number }
    ).price;

  beforeAll(async () => {
    server = await startTestServer('sqlite');
    // The store's integration: it writes prices directly where the store requires approval.
    tenant = await server.createTenant([...DEFAULT_SCOPES, 'trade_prices:direct']);
    catalog = await createCatalog(server, tenant);
    await server.services.credentials.setRequireApproval(tenant.storeId, true);
    editor = await staffMember(server, tenant.storeId, 'editor', 'Edith Editor');
    approver = await staffMember(server, tenant.storeId, 'approver', 'Amos Approver');
    secrets.push(tenant.token, tenant.secret, editor.password, approver.password);
    browser = await launchBrowser(server.baseUrl);
  });

  afterAll(async () => {
    for (const tab of tabs) tab.expectClean(secrets);
    expect(browser?.refused ?? []).toEqual([]);
    await browser?.close();
    await server?.close();
  });

  it('an editor builds and submits a set with its preview, an approver approves and applies it, and a revert takes it back', async () => {
    expect(await effective()).toBe(4.2);
    const live = await server.request('POST', '/v1/trade-customer-product-prices/bulk', {
      token: tenant.token,
      body: [
        { customerId: catalog.otherTradeCustomer, productId: catalog.tee, sku: catalog.skus.tee, price: 9 },
        { customerId: catalog.otherTradeCustomer, productId: catalog.tee, sku: catalog.skus.tee, price: 8, minQuantity: 10 },
      ],
    });
    expect(live.status, live.text).toBe(201);
    const liveId = (live.body as Array<{ id: number }>)[0]!.id;
    const teeOfOther = () => effective(catalog.otherTradeCustomer, catalog.skus.tee);
    // The page names customers by their names (here their emails: the catalog's customers have no other).
    const suffix = catalog.skus.mug.slice('MUG'.length);
    const [trade, otherTrade] = [`trade-${suffix}@example.com`, `trade2-${suffix}@example.com`];
    // The editor starts a set and adds a price to it: nothing changes yet.
    let page = await open(editor, '#/change-sets', 'Change sets');
    expect(await seriousViolations(page)).toEqual([]);
    const start = form(page, 'Start a change set');
    await start.getByLabel('Name').fill('Spring mugs');
    await start.getByRole('button', { name: 'Start change set' }).click();
    await heading(page, 'Change set: Spring mugs').waitFor();
    const setId = Number(/#\/change-sets\/(\d+)$/.exec(page.url())![1]);
    const add = form(page, 'Add a price to the change set');
    await add.getByLabel('Customer').fill(String(catalog.tradeCustomer));
    await add.getByLabel('SKU', { exact: true }).fill(catalog.skus.mug);
    await add.getByLabel('Price', { exact: true }).fill('3.5');
    await add.getByRole('button', { name: 'Add price to the set' }).click();
    // And changes a live price, picked by customer and SKU: its deletion and a record like it at the new price.
    const change = form(page, 'Change a price in the change set');
    await change.getByLabel('Customer').fill(otherTrade);
    await change.getByLabel('SKU', { exact: true }).fill(catalog.skus.tee);
    await change.getByLabel('New price').fill('8.5');
    await change.getByRole('button', { name: 'Add the change to the set' }).click();
    // The customer has two breaks of that SKU: the form asks which, and nothing is added.
    await expect
      .poll(() => fieldError(change.getByLabel('From quantity')))
      .toBe(`From quantity: ${otherTrade} has prices of ${catalog.skus.tee} from 1 and 10: which one?`);
    await change.getByLabel('From quantity').fill('1');
    await change.getByRole('button', { name: 'Add the change to the set' }).click();
    const preview = page.getByRole('region', { name: 'Preview, before → after' });
    await expect
      .poll(() =>
        preview
          .getByRole('row')
          .filter({ hasText: /^Price/ })
          .allTextContents(),
      )
      .toEqual([
        `Price${trade}${catalog.skus.mug}1£4.20 → £3.50`,
        `Price${otherTrade}${catalog.skus.tee}1£9.00 → £8.50`,
        // The SKU's other break is shown too, as it stays.
        `Price${otherTrade}${catalog.skus.tee}10£8.00 → £8.00`,
      ]);
    expect(await page.getByRole('region', { name: 'Operations, in the order they apply' }).getByRole('row').allTextContents()).toEqual([
      '#Operation',
      `1Add a price for ${trade}: ${catalog.skus.mug} at £3.50`,
      `2Delete trade price #${liveId}`,
      `3Add a price for ${otherTrade}: ${catalog.skus.tee} at £8.50`,
    ]);
    expect(await effective()).toBe(4.2);
    expect(await seriousViolations(page)).toEqual([]);
    // Approval is required: the editor submits, and is not offered the approval.
    await page.getByRole('button', { name: 'Submit for approval' }).click();
    await expect.poll(() => page.locator('.change-set-state').textContent()).toBe('Submitted for approval');
    expect(await page.getByRole('button', { name: 'Approve' }).count()).toBe(0);

    // The approver approves it, then applies it.
    page = await open(approver, `#/change-sets/${setId}`, 'Change set: Spring mugs');
    await page.getByRole('button', { name: 'Approve' }).click();
    await expect.poll(() => page.locator('.change-set-state').textContent()).toBe('Approved');
    await page.getByRole('button', { name: 'Apply now' }).click();
    await expect.poll(() => page.locator('.change-set-state').textContent()).toBe('Applied');
    expect(await effective()).toBe(3.5);
    expect(await teeOfOther()).toBe(8.5);
    expect(await seriousViolations(page)).toEqual([]);

    // A revert, approved and applied in turn, takes it back.
    await page.getByRole('button', { name: 'Make a revert' }).click();
    await heading(page, 'Change set: Revert of Spring mugs').waitFor();
    await expect
      .poll(() =>
        page
          .getByRole('region', { name: 'Preview, before → after' })
          .getByRole('row')
          .filter({ hasText: /^Price/ })
          .allTextContents(),
      )
      .toEqual([
        `Price${trade}${catalog.skus.mug}1£3.50 → £4.20`,
        `Price${otherTrade}${catalog.skus.tee}1£8.50 → £9.00`,
        `Price${otherTrade}${catalog.skus.tee}10£8.00 → £8.00`,
      ]);
    await page.getByRole('button', { name: 'Submit for approval' }).click();
    await expect.poll(() => page.locator('.change-set-state').textContent()).toBe('Submitted for approval');
    // Amos wrote the revert: the server refuses his own approval, and the page says why.
    await page.getByRole('button', { name: 'Approve' }).click();
    await expect.poll(() => page.getByRole('alert').filter({ hasText: 'must be approved by someone who did not write or submit it' }).count()).toBe(1);
    const revertId = Number(/#\/change-sets\/(\d+)$/.exec(page.url())![1]);
    const owner = await staffMember(server, tenant.storeId, 'owner', 'Olive Owner');
    secrets.push(owner.password);
    page = await open(owner, `#/change-sets/${revertId}`, 'Change set: Revert of Spring mugs');
    await page.getByRole('button', { name: 'Approve' }).click();
    await expect.poll(() => page.locator('.change-set-state').textContent()).toBe('Approved');
    await page.getByRole('button', { name: 'Apply now' }).click();
    await expect.poll(() => page.locator('.change-set-state').textContent()).toBe('Applied');
    expect(await effective()).toBe(4.2);
    expect(await teeOfOther()).toBe(9);
    expect((await server.request('GET', `/v1/trade-customer-product-prices/${liveId}`, { token: tenant.token })).status).toBe(200);
    await page.getByRole('link', { name: `change set #${setId}` }).click();
    await expect.poll(() => page.locator('.change-set-state').textContent()).toBe('Rolled back');
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('shows the newest preview when an earlier one answers later (an addition and a deletion in quick succession)', async () => {
    const created = await server.request('POST', '/v1/trade-customer-product-prices/bulk', {
      token: tenant.token,
      body: [{ customerId: catalog.tradeCustomer, productId: catalog.tee, sku: catalog.skus.teeRedL, price: 9.9 }],
    });
    expect(created.status, created.text).toBe(201);
    const live = (created.body as Array<{ id: number }>)[0]!;
    const page = await open(editor, '#/change-sets', 'Change sets');
    const start = form(page, 'Start a change set');
    await start.getByLabel('Name').fill('Quick additions');
    await start.getByRole('button', { name: 'Start change set' }).click();
    await heading(page, 'Change set: Quick additions').waitFor();
    const add = form(page, 'Add a price to the change set');
    const addPrice = async (sku: string, price: string) => {
      await add.getByLabel('Customer').fill(String(catalog.tradeCustomer));
      await add.getByLabel('SKU', { exact: true }).fill(sku);
      await add.getByLabel('Price', { exact: true }).fill(price);
      await add.getByRole('button', { name: 'Add price to the set' }).click();
    };
    const rows = () =>
      page
        .getByRole('region', { name: 'Preview, before → after' })
        .getByRole('row')
        .filter({ hasText: /^Price/ })
        .count();
    await addPrice(catalog.skus.mug, '3.25');
    await expect.poll(rows).toBe(1);
    // The next preview asked for (two prices) is read at once but answered 1.5 s late: after the one that follows it (three).
    let read: () => void = () => undefined;
    const asked = new Promise<void>((resolve) => (read = resolve));
    let late: Promise<void> | undefined;
    await page.route('**/v1/change-sets/*/preview*', async (route) => {
      const response = await route.fetch();
      if (late !== undefined) return route.fulfill({ response });
      late = new Promise((resolve) => setTimeout(resolve, 1500)).then(() => route.fulfill({ response }));
      read();
      return late;
    });
    await addPrice(catalog.skus.tee, '9.25');
    await asked;
    // Another form, so nothing waits for the first: a live price's deletion.
    const deletion = form(page, 'Delete a price in the change set');
    await deletion.getByLabel('Trade price id').fill(String(live.id));
    await deletion.getByRole('button', { name: 'Add the deletion to the set' }).click();
    await expect.poll(rows).toBe(3);
    await late;
    // The late answer (two prices) is not drawn over the newer one.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await rows()).toBe(3);
    await page.unroute('**/v1/change-sets/*/preview*');
  });

  it.each([
    { name: 'desktop', width: 1280, height: 800 },
    { name: 'phone', width: 375, height: 812 },
  ])(
    'offers only the steps the set’s state and the role allow, in place after each one, and names the rule that refuses an owner’s own approval ($name)',
    async ({ name, width, height }) => {
      const owner = await staffMember(server, tenant.storeId, 'owner', `Owen Owner ${name}`);
      secrets.push(owner.password);
      let page = await open(owner, '#/change-sets', 'Change sets');
      await page.setViewportSize({ width, height });
      const start = form(page, 'Start a change set');
      await start.getByLabel('Name').fill(`Own set ${name}`);
      await start.getByRole('button', { name: 'Start change set' }).click();
      await heading(page, `Change set: Own set ${name}`).waitFor();
      const add = form(page, 'Add a price to the change set');
      await add.getByLabel('Customer').fill(String(catalog.tradeCustomer));
      await add.getByLabel('SKU', { exact: true }).fill(catalog.skus.tee);
      await add.getByLabel('Price', { exact: true }).fill('9.5');
      await add.getByRole('button', { name: 'Add price to the set' }).click();
      const steps = page.getByRole('region', { name: 'Summary' });
      await expect.poll(() => page.locator('.change-set-state').textContent()).toBe('Draft');
      await steps.getByRole('button', { name: 'Submit for approval' }).waitFor();
      // A draft of a store that requires approval is not applied nor scheduled: the server would answer 409.
      expect(await steps.getByRole('button', { name: 'Apply now' }).count()).toBe(0);
      expect(await form(page, 'Schedule the change set').count()).toBe(0);
      expect(await steps.getByText('the set applies once another staff member has approved it').count()).toBe(1);
      await steps.getByRole('button', { name: 'Submit for approval' }).click();
      await expect.poll(() => page.locator('.change-set-state').textContent()).toBe('Submitted for approval');
      // The owner's role approves, but nobody approves their own set: the refusal says that rule, not the role.
      const approve = steps.getByRole('button', { name: 'Approve' });
      await approve.click();
      const refusal = page.getByRole('alert').filter({ hasText: 'must be approved by someone who did not write or submit it' });
      await expect.poll(() => refusal.count()).toBe(1);
      expect(await refusal.textContent()).not.toMatch(/Your role does not allow this|Ask the store's owner/);
      // The steps are buttons of a button's height, not boxes as tall as a form beside them.
      for (const button of await steps.getByRole('button').all()) expect((await button.boundingBox())!.height).toBeLessThan(60);

      // Another approves it and applies it: the page updates in place, and offers nothing an applied set refuses.
      page = await open(approver, `#/change-sets/${/#\/change-sets\/(\d+)$/.exec(page.url())![1]}`, `Change set: Own set ${name}`);
      await page.setViewportSize({ width, height });
      const region = page.getByRole('region', { name: 'Summary' });
      await region.getByRole('button', { name: 'Approve' }).click();
      await expect.poll(() => page.locator('.change-set-state').textContent()).toBe('Approved');
      await region.getByRole('button', { name: 'Apply now' }).click();
      await expect.poll(() => page.locator('.change-set-state').textContent()).toBe('Applied');
      await region.getByRole('button', { name: 'Make a revert' }).waitFor();
      for (const label of [
        'Add a price to the change set',
        'Change a price in the change set',
        'Delete a price in the change set',
        'Upload prices into the change set',
      ])
        expect(await form(page, label).count(), label).toBe(0);
      for (const label of ['Apply now', 'Discard', 'Submit for approval', 'Approve'])
        expect(await region.getByRole('button', { name: label }).count(), label).toBe(0);
      expect(await form(page, 'Schedule the change set').count()).toBe(0);
      expect(await seriousViolations(page)).toEqual([]);
    },
  );
});

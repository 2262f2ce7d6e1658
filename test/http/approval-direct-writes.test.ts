import { beforeAll, describe, expect, it } from 'vitest';
import { SCOPES_OF_ROLE, STAFF_ROLES } from '../../src/modules/staff/roles.js';
import { DEFAULT_SCOPES } from '../../src/modules/stores/scopes.js';
import { expectError } from '../support/conventions.js';
import { enginesUnderTest } from '../support/engines.js';
import { asStaff, createSignedInStaff } from '../support/staff.js';
import { snapshotStore } from '../support/store-snapshot.js';
import { suiteServer } from '../support/suite-server.js';
import type { HttpResponse, RequestOptions } from '../support/test-server.js';

const PRICES = '/v1/trade-customer-product-prices';
const CSV = { 'content-type': 'text/csv' };

/**
 * docs/change-sets.md, "Direct writes where approval is required": where a store requires
 * approval, a staff member of any role and a key without `trade_prices:direct` change prices
 * only through change sets. Their direct writes are refused (403, code 18) with nothing stored
 * changed; a key with the scope writes; dry runs, imports into a set and a set's apply go on;
 * a store that does not require approval answers as before.
 */
describe.each(await enginesUnderTest())('direct price writes where the store requires approval, on %s', (engine) => {
  const suite = suiteServer(engine, { catalogs: true });
  /** Who writes: an editor's and an owner's session, a key of the default scopes, and the ERP's key with `trade_prices:direct`. */
  let editor: string;
  let owner: string;
  let approver: string;
  let plainKey: string;
  let directKey: string;
  /** A trade price, a fixed list with an entry, a percentage list and a group, made before the store required approval. */
  let tradePriceId: number;
  let fixedListId: number;
  let entryId: number;
  let percentageListId: number;
  let groupId: number;
  let teeRedMId: number;

  const send = (method: string, path: string, options: RequestOptions) => suite.server.request(method, path, options);
  const asKey = (token: string, body?: unknown): RequestOptions => ({ token, ...(body !== undefined && { body }) });
  const created = async (response: Promise<HttpResponse>): Promise<{ id: number }> => {
    const answer = await response;
    expect(answer.status, answer.text).toBe(201);
    return answer.body as { id: number };
  };
  const importEnded = async (id: number, token: string): Promise<{ status: string; result: unknown; errors?: unknown }> => {
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline) {
      const answer = (await send('GET', `/v1/imports/${id}`, { token })).body as { status: string; result: unknown };
      if (answer.status === 'succeeded' || answer.status === 'failed') return answer;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error(`import ${id} did not end within 20 s`);
  };

  beforeAll(async () => {
    const { server, tenant, catalog } = suite;
    plainKey = (await server.services.credentials.issueKey(tenant.storeId)).token;
    directKey = (await server.services.credentials.issueKey(tenant.storeId, [...DEFAULT_SCOPES, 'trade_prices:direct'], 'erp')).token;
    editor = (await createSignedInStaff(server, tenant.storeId, 'editor')).token;
    owner = (await createSignedInStaff(server, tenant.storeId, 'owner')).token;
    approver = (await createSignedInStaff(server, tenant.storeId, 'approver')).token;
    const [price] = (
      await send(
        'POST',
        `${PRICES}/bulk`,
        asKey(tenant.token, [{ customerId: catalog.tradeCustomer, productId: catalog.mug, sku: catalog.skus.mug, price: 3.9 }]),
      )
    ).body as Array<{ id: number }>;
    tradePriceId = price!.id;
    fixedListId = (await created(send('POST', '/v1/price-lists', asKey(tenant.token, { name: 'Contract', kind: 'fixed' })))).id;
    percentageListId = (await created(send('POST', '/v1/price-lists', asKey(tenant.token, { name: 'Resellers', kind: 'percentage', percentage: 10 })))).id;
    const [entry] = (
      await send('POST', `/v1/price-lists/${fixedListId}/prices/bulk`, asKey(tenant.token, [{ productId: catalog.mug, sku: catalog.skus.mug, price: 4 }]))
    ).body as Array<{ id: number }>;
    entryId = entry!.id;
    groupId = (await created(send('POST', '/v1/customer-groups', asKey(tenant.token, { name: 'Wholesale', priceListIds: [fixedListId] })))).id;
    const tee = (await send('GET', `/v1/products/${catalog.tee}`, asKey(tenant.token))).body as { variations: Array<{ id: number; sku: string }> };
    teeRedMId = tee.variations.find((variation) => variation.sku === catalog.skus.teeRedM)!.id;
    await server.services.credentials.setRequireApproval(tenant.storeId, true);
  });

  /**
   * Every kind of direct price write, with the bodies a real client sends and the status each
   * gets when allowed, in an order a key with `trade_prices:direct` can send them in, one after
   * the other (deletions of what a later write names come last).
   */
  function directWrites(): Array<{ name: string; method: string; path: string; body?: unknown; csv?: string; catalog?: boolean; ok: number }> {
    const { catalog } = suite;
    const item = { customerId: catalog.tradeCustomer, productId: catalog.mug, sku: catalog.skus.mug, price: 3.5 };
    const entry = { productId: catalog.mug, sku: catalog.skus.mug, price: 3.8 };
    return [
      { name: 'delete', method: 'DELETE', path: `${PRICES}/${tradePriceId}`, ok: 204 },
      { name: 'bulk create', method: 'POST', path: `${PRICES}/bulk`, body: [item], ok: 201 },
      {
        name: 'replace',
        method: 'POST',
        path: `${PRICES}/replace`,
        body: { customerId: catalog.tradeCustomer, scope: 'skus', prices: [{ productId: catalog.mug, sku: catalog.skus.mug, price: 3.5 }] },
        ok: 200,
      },
      {
        name: 'import apply',
        method: 'POST',
        path: '/v1/imports?mode=add',
        csv: `customer_id,sku,price\n${catalog.tradeCustomer},${catalog.skus.mug},3.4\n`,
        ok: 202,
      },
      {
        name: 'import replace',
        method: 'POST',
        path: '/v1/imports?mode=replace',
        csv: `customer_id,sku,price\n${catalog.tradeCustomer},${catalog.skus.mug},3.3\n`,
        ok: 202,
      },
      { name: 'list entry delete', method: 'DELETE', path: `/v1/price-lists/${fixedListId}/prices/${entryId}`, ok: 204 },
      { name: 'list entry create', method: 'POST', path: `/v1/price-lists/${fixedListId}/prices/bulk`, body: [entry], ok: 201 },
      {
        name: 'list entry replace',
        method: 'POST',
        path: `/v1/price-lists/${fixedListId}/prices/replace`,
        body: { scope: 'skus', prices: [{ ...entry, price: 3.75 }] },
        ok: 200,
      },
      {
        name: 'list entry import',
        method: 'POST',
        path: `/v1/price-lists/${fixedListId}/prices/import?scope=skus`,
        csv: `sku,price\n${catalog.skus.mug},3.7\n`,
        ok: 200,
      },
      { name: "a list's percentage", method: 'PUT', path: `/v1/price-lists/${percentageListId}`, body: { percentage: 50 }, ok: 200 },
      { name: "a group's lists", method: 'PUT', path: `/v1/customer-groups/${groupId}`, body: { priceListIds: [percentageListId] }, ok: 200 },
      {
        name: "a customer's priceListIds",
        method: 'PUT',
        path: `/v1/customers/${catalog.tradeCustomer}`,
        body: { priceListIds: [percentageListId] },
        catalog: true,
        ok: 200,
      },
      {
        name: "a customer's group",
        method: 'PUT',
        path: `/v1/customers/${catalog.regularCustomer}`,
        body: { customerGroupId: groupId },
        catalog: true,
        ok: 200,
      },
      { name: "a customer's trade flag", method: 'PUT', path: `/v1/customers/${catalog.otherTradeCustomer}`, body: { trade: false }, catalog: true, ok: 200 },
      {
        name: 'a customer created with lists',
        method: 'POST',
        path: '/v1/customers',
        body: { email: 'listed@example.com', priceListIds: [fixedListId] },
        catalog: true,
        ok: 201,
      },
      {
        name: 'customers created in a group',
        method: 'POST',
        path: '/v1/customers/bulk',
        body: [{ email: 'grouped@example.com', customerGroupId: groupId }],
        catalog: true,
        ok: 201,
      },
      { name: 'a group deleted', method: 'DELETE', path: `/v1/customer-groups/${groupId}`, ok: 204 },
      { name: 'a list deleted', method: 'DELETE', path: `/v1/price-lists/${percentageListId}`, ok: 204 },
      { name: "a product's price", method: 'PUT', path: `/v1/products/${catalog.mug}`, body: { price: 1 }, catalog: true, ok: 200 },
      { name: "a product's SKU", method: 'PUT', path: `/v1/products/${catalog.tee}`, body: { sku: 'TEE-RENAMED' }, catalog: true, ok: 200 },
      { name: "a variation's price", method: 'PUT', path: `/v1/products/${catalog.tee}/variations/${teeRedMId}`, body: { price: 1 }, catalog: true, ok: 200 },
      { name: 'a variation deleted', method: 'DELETE', path: `/v1/products/${catalog.tee}/variations/${teeRedMId}`, catalog: true, ok: 204 },
      { name: 'a product deleted', method: 'DELETE', path: `/v1/products/${catalog.mug}`, catalog: true, ok: 204 },
    ];
  }
  const optionsOf = (write: ReturnType<typeof directWrites>[number], credential: RequestOptions): RequestOptions => ({
    ...credential,
    ...(write.csv !== undefined ? { rawBody: write.csv, headers: { ...credential.headers, ...CSV } } : write.body !== undefined && { body: write.body }),
  });

  it("refuses an editor's, an owner's and a plain key's direct price writes with code 18, pointing to change sets, and changes nothing", async () => {
    const { server, tenant } = suite;
    const before = await snapshotStore(server.services.database, tenant.storeId);
    const writers: Array<{ who: string; options: RequestOptions; catalog: boolean }> = [
      { who: 'an editor', options: asStaff(server, editor), catalog: false },
      { who: 'an owner', options: asStaff(server, owner), catalog: true },
      { who: 'a key with the default scopes', options: { token: plainKey }, catalog: true },
    ];
    for (const write of directWrites()) {
      for (const writer of writers) {
        // An editor lacks catalog:write: its catalog writes are refused by the scope first.
        if (write.catalog === true && !writer.catalog) continue;
        const answer = await send(write.method, write.path, optionsOf(write, writer.options));
        expectError(answer, 403, 18, /requires approval of price changes: make this change in a change set \(POST \/v1\/change-sets\)/);
        expect((answer.body as { message: string }).message, `${write.name} by ${writer.who}`).toContain("'trade_prices:direct'");
      }
    }
    expect(await snapshotStore(server.services.database, tenant.storeId)).toEqual(before);
  });

  it('gives no staff role trade_prices:direct: every role that writes prices is refused', async () => {
    const { server, catalog } = suite;
    for (const role of STAFF_ROLES) {
      expect(SCOPES_OF_ROLE[role], role).not.toContain('trade_prices:direct');
      const member = await createSignedInStaff(server, suite.tenant.storeId, role);
      const answer = await send(
        'POST',
        `${PRICES}/bulk`,
        asStaff(server, member.token, { body: [{ customerId: catalog.tradeCustomer, productId: catalog.mug, sku: catalog.skus.mug, price: 3 }] }),
      );
      // A viewer lacks the scope to write at all.
      if (role === 'viewer') expectError(answer, 403, 4, /trade_prices:write/);
      else expectError(answer, 403, 18);
    }
  });

  it('answers a staff editor who lacks catalog:write with the scope, as before', async () => {
    const { server, catalog } = suite;
    expectError(await send('PUT', `/v1/products/${catalog.mug}`, asStaff(server, editor, { body: { price: 1 } })), 403, 4, /catalog:write/);
  });

  it('lets everyone make writes that change no price, dry runs and imports into a change set', async () => {
    const { server, tenant, catalog } = suite;
    const asEditor = (body?: unknown) => asStaff(server, editor, body === undefined ? {} : { body });
    const dryReplace = await send(
      'POST',
      `${PRICES}/replace`,
      asEditor({ customerId: catalog.tradeCustomer, scope: 'skus', dryRun: true, prices: [{ productId: catalog.mug, sku: catalog.skus.mug, price: 3.5 }] }),
    );
    expect(dryReplace.status, dryReplace.text).toBe(200);
    const dryListReplace = await send(
      'POST',
      `/v1/price-lists/${fixedListId}/prices/replace`,
      asEditor({ scope: 'skus', dryRun: true, prices: [{ productId: catalog.mug, sku: catalog.skus.mug, price: 3.8 }] }),
    );
    expect(dryListReplace.status, dryListReplace.text).toBe(200);
    const dryListImport = await send(
      'POST',
      `/v1/price-lists/${fixedListId}/prices/import?scope=skus&dryRun=true`,
      asStaff(server, editor, { rawBody: `sku,price\n${catalog.skus.mug},3.7\n`, headers: CSV }),
    );
    expect(dryListImport.status, dryListImport.text).toBe(200);
    const dryImport = await send(
      'POST',
      '/v1/imports?mode=add&dryRun=true',
      asStaff(server, editor, { rawBody: `customer_id,sku,price\n${catalog.tradeCustomer},${catalog.skus.mug},3.4\n`, headers: CSV }),
    );
    expect(dryImport.status, dryImport.text).toBe(202);
    expect(await importEnded((dryImport.body as { id: number }).id, tenant.token)).toMatchObject({ status: 'succeeded', result: { created: 1 } });
    // Into a change set: its rows become the set's operations, nothing live changes.
    const set = await created(send('POST', '/v1/change-sets', asEditor({ name: 'From a file' })));
    const intoSet = await send(
      'POST',
      `/v1/imports?mode=add&changeSet=${set.id}`,
      asStaff(server, editor, { rawBody: `customer_id,sku,price\n${catalog.tradeCustomer},${catalog.skus.mug},3.4\n`, headers: CSV }),
    );
    expect(intoSet.status, intoSet.text).toBe(202);
    expect(await importEnded((intoSet.body as { id: number }).id, tenant.token)).toMatchObject({ status: 'succeeded' });
    expect((await send('GET', `/v1/change-sets/${set.id}`, asKey(tenant.token))).body).toMatchObject({ counts: { operations: 1 } });
    // Writes that change no price: a customer's name, a product's title, a new product, customer and list.
    expect((await send('PUT', `/v1/customers/${catalog.tradeCustomer}`, asStaff(server, owner, { body: { firstName: 'Ada' } }))).status).toBe(200);
    expect((await send('PUT', `/v1/products/${catalog.mug}`, asKey(plainKey, { title: 'Mug, white' }))).status).toBe(200);
    await created(send('POST', '/v1/products', asKey(plainKey, { title: 'Cap', sku: 'CAP-APPROVAL', price: 8 })));
    await created(send('POST', '/v1/customers', asKey(plainKey, { email: 'new-trade@example.com', trade: true })));
    await created(send('POST', '/v1/price-lists', asEditor({ name: 'Next year', kind: 'fixed' })));
    expect((await send('PUT', `/v1/price-lists/${fixedListId}`, asEditor({ name: 'Contract 2027' }))).status).toBe(200);
    // The live book is as it was.
    const effective = await send('GET', `${PRICES}/effective?customerId=${catalog.tradeCustomer}&sku=${catalog.skus.mug}`, asKey(tenant.token));
    expect(effective.body).toMatchObject({ price: 3.9, tradePriceId });
  });

  it('applies a change set approved by someone else: its operations go through the same writers', async () => {
    const { server, tenant, catalog } = suite;
    const set = await created(send('POST', '/v1/change-sets', asStaff(server, editor, { body: { name: 'Mugs for less' } })));
    const added = await send(
      'POST',
      `/v1/change-sets/${set.id}/operations`,
      asStaff(server, editor, {
        body: [
          { type: 'trade_price.create', customerId: catalog.tradeCustomer, productId: catalog.mug, sku: catalog.skus.mug, price: 3.2 },
          { type: 'customer.set_price_lists', customerId: catalog.regularCustomer, priceListIds: [fixedListId] },
        ],
      }),
    );
    expect(added.status, added.text).toBe(201);
    expect((await send('POST', `/v1/change-sets/${set.id}/submit`, asStaff(server, editor, { body: {} }))).status).toBe(200);
    expect((await send('POST', `/v1/change-sets/${set.id}/approve`, asStaff(server, approver, { body: {} }))).status).toBe(200);
    const applied = await send('POST', `/v1/change-sets/${set.id}/apply`, asStaff(server, editor, { body: {} }));
    expect(applied.status, applied.text).toBe(200);
    expect(applied.body).toMatchObject({ state: 'applied' });
    expect(
      (await send('GET', `${PRICES}/effective?customerId=${catalog.tradeCustomer}&sku=${catalog.skus.mug}&fields=price`, asKey(tenant.token))).body,
    ).toEqual({ price: 3.2 });
    expect((await send('GET', `/v1/customers/${catalog.regularCustomer}?fields=priceListIds`, asKey(tenant.token))).body).toEqual({
      priceListIds: [fixedListId],
    });
  });

  it('lets a key with trade_prices:direct make every one of those writes', async () => {
    const { tenant } = suite;
    for (const write of directWrites()) {
      const answer = await send(write.method, write.path, optionsOf(write, { token: directKey }));
      expect(answer.status, `${write.name}: ${answer.text}`).toBe(write.ok);
      if (write.ok === 202) expect(await importEnded((answer.body as { id: number }).id, tenant.token), write.name).toMatchObject({ status: 'succeeded' });
    }
    // The ERP's key is the history's actor of what it changed.
    const history = (await send('GET', '/v1/price-history?resource=product&count=1', asKey(tenant.token))).body as Array<{
      actor: { name: string };
      source: string;
    }>;
    expect(history[0]).toMatchObject({ actor: { name: 'erp' }, source: 'api' });
  });

  it('changes nothing for a store that does not require approval: an editor and a plain key write prices directly', async () => {
    const { server, other, foreign } = suite;
    const otherEditor = (await createSignedInStaff(server, other.storeId, 'editor')).token;
    const otherKey = (await server.services.credentials.issueKey(other.storeId)).token;
    const bulk = await send(
      'POST',
      `${PRICES}/bulk`,
      asStaff(server, otherEditor, { body: [{ customerId: foreign.tradeCustomer, productId: foreign.mug, sku: foreign.skus.mug, price: 2 }] }),
    );
    expect(bulk.status, bulk.text).toBe(201);
    const replaced = await send(
      'POST',
      `${PRICES}/replace`,
      asKey(otherKey, { customerId: foreign.tradeCustomer, scope: 'customer', prices: [{ productId: foreign.mug, sku: foreign.skus.mug, price: 2.5 }] }),
    );
    expect(replaced.status, replaced.text).toBe(200);
    expect((await send('PUT', `/v1/products/${foreign.mug}`, asKey(otherKey, { price: 5 }))).status).toBe(200);
    expect((await send('PUT', `/v1/customers/${foreign.regularCustomer}`, asKey(otherKey, { trade: true, priceListIds: [] }))).status).toBe(200);
    const imported = await send('POST', '/v1/imports?mode=add', {
      token: otherKey,
      rawBody: `customer_id,sku,price\n${foreign.tradeCustomer},${foreign.skus.tee},7\n`,
      headers: CSV,
    });
    expect(imported.status, imported.text).toBe(202);
    expect(await importEnded((imported.body as { id: number }).id, other.token)).toMatchObject({ status: 'succeeded' });
    expect((await send('GET', '/v1/store?fields=requireApproval', asKey(otherKey))).body).toEqual({ requireApproval: false });
  });
});

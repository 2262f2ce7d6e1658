import { describe, expect, it } from 'vitest';
import { expectError } from '../support/conventions.js';
import { enginesUnderTest } from '../support/engines.js';
import { suiteServer } from '../support/suite-server.js';
import type { HttpResponse } from '../support/test-server.js';

/*
 * Every change to what a customer would pay is recorded, in the transaction of the change,
 * with who made it and how (docs/history.md, "What is recorded"). These tests make each kind
 * of change through the API of a real server and read the history rows it left.
 */

interface Entry {
  seq: number;
  resource: string;
  resourceId: number;
  change: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  customerId: number | null;
  productId: number | null;
  priceListId: number | null;
  sku: string | null;
  actor: { type: string; id: number; name: string };
  source: string;
  sourceId: number | null;
  requestId: string | null;
}

type Body = Record<string, unknown> & { id: number };

describe.each(await enginesUnderTest())('the price history records every change on %s', (engine) => {
  const suite = suiteServer(engine, { catalogs: true });

  const call = (method: string, path: string, body?: unknown) => suite.api.request(method, path, { token: suite.tenant.token, body });
  const ok = async (method: string, path: string, body: unknown, status: number): Promise<HttpResponse> => {
    const response = await call(method, path, body);
    expect(response.status, `${method} ${path}: ${response.text}`).toBe(status);
    return response;
  };
  const requestIdOf = (response: HttpResponse) => response.headers['x-request-id'] as string;

  /** The store's entries after `seq`, in order. */
  const entriesAfter = async (seq: number): Promise<Entry[]> => {
    const { db } = suite.server.services.database;
    const rows = await db.selectFrom('price_history').selectAll().where('store_id', '=', suite.tenant.storeId).where('seq', '>', seq).orderBy('seq').execute();
    return rows.map((row) => ({
      seq: Number(row.seq),
      resource: row.resource,
      resourceId: Number(row.resource_id),
      change: row.change,
      before: row.before === null ? null : (JSON.parse(row.before) as Record<string, unknown>),
      after: row.after === null ? null : (JSON.parse(row.after) as Record<string, unknown>),
      customerId: row.customer_id === null ? null : Number(row.customer_id),
      productId: row.product_id === null ? null : Number(row.product_id),
      priceListId: row.price_list_id === null ? null : Number(row.price_list_id),
      sku: row.sku,
      actor: { type: row.actor_type, id: Number(row.actor_id), name: row.actor_name },
      source: row.source,
      sourceId: row.source_id === null ? null : Number(row.source_id),
      requestId: row.request_id,
    }));
  };
  const lastSeq = async () => {
    const { db } = suite.server.services.database;
    const head = await db.selectFrom('price_history_heads').select('seq').where('store_id', '=', suite.tenant.storeId).executeTakeFirst();
    return head === undefined ? 0 : Number(head.seq);
  };
  /** What every entry a request made says of its origin: the tenant's key, `api`, the request's id. */
  const byRequest = (response: HttpResponse) => ({
    actor: { type: 'key', id: suite.tenant.keyId, name: suite.tenant.key },
    source: 'api',
    sourceId: null,
    requestId: requestIdOf(response),
  });
  const tradePriceEntry = (change: string, before: Body | null, after: Body | null) => {
    const record = (after ?? before)!;
    return {
      resource: 'trade_price',
      resourceId: record.id,
      change,
      before,
      after,
      customerId: record.customerId,
      productId: record.productId,
      priceListId: null,
      sku: record.sku,
    };
  };
  const entryOf = (
    resource: string,
    change: string,
    before: Body | null,
    after: Body | null,
    filters: Partial<Record<'customerId' | 'productId' | 'priceListId' | 'sku', unknown>>,
  ) => ({
    resource,
    resourceId: (after ?? before)!.id,
    change,
    before,
    after,
    customerId: null,
    productId: null,
    priceListId: null,
    sku: null,
    ...filters,
  });
  const withoutSeq = (entries: Entry[]) =>
    entries.map((entry) => {
      const { seq, ...rest } = entry;
      expect(seq).toBeGreaterThan(0);
      return rest;
    });

  it('trade prices: a bulk create, a replace and a delete, each record with its origin', async () => {
    const { catalog } = suite;
    const from = await lastSeq();
    const created = await ok(
      'POST',
      '/v1/trade-customer-product-prices/bulk',
      [
        { customerId: catalog.tradeCustomer, productId: catalog.tee, sku: catalog.skus.teeRedM, price: 9 },
        { customerId: catalog.tradeCustomer, productId: catalog.mug, sku: catalog.skus.mug, price: 3 },
      ],
      201,
    );
    const [tee, mug] = created.body as Body[];
    expect(withoutSeq(await entriesAfter(from))).toEqual([
      { ...tradePriceEntry('created', null, tee!), ...byRequest(created) },
      { ...tradePriceEntry('created', null, mug!), ...byRequest(created) },
    ]);

    const replaceFrom = await lastSeq();
    const replaced = await ok(
      'POST',
      '/v1/trade-customer-product-prices/replace',
      {
        customerId: catalog.tradeCustomer,
        scope: 'customer',
        prices: [
          { productId: catalog.mug, sku: catalog.skus.mug, price: 3 },
          { productId: catalog.tee, sku: catalog.skus.tee, price: 8 },
        ],
      },
      200,
    );
    const [newTee] = (replaced.body as { created: Body[] }).created;
    // Removals first, then creations, as the events; the unchanged mug price is not touched.
    expect(withoutSeq(await entriesAfter(replaceFrom))).toEqual([
      { ...tradePriceEntry('deleted', tee!, null), ...byRequest(replaced) },
      { ...tradePriceEntry('created', null, newTee!), ...byRequest(replaced) },
    ]);
    const dryRunFrom = await lastSeq();
    await ok('POST', '/v1/trade-customer-product-prices/replace', { customerId: catalog.tradeCustomer, scope: 'customer', prices: [], dryRun: true }, 200);
    expect(await entriesAfter(dryRunFrom)).toEqual([]);

    const deleteFrom = await lastSeq();
    const deleted = await ok('DELETE', `/v1/trade-customer-product-prices/${mug!.id}`, undefined, 204);
    expect(withoutSeq(await entriesAfter(deleteFrom))).toEqual([{ ...tradePriceEntry('deleted', mug!, null), ...byRequest(deleted) }]);

    // Kept, marked deleted, and invisible to the API.
    expectError(await call('GET', `/v1/trade-customer-product-prices/${mug!.id}`), 404, 5);
    expect(((await call('GET', `/v1/trade-customer-product-prices?customerId=${catalog.tradeCustomer}`)).body as Body[]).map((record) => record.id)).toEqual([
      newTee!.id,
    ]);
    expect((await call('GET', `/v1/trade-customer-product-prices/count?customerId=${catalog.tradeCustomer}`)).body).toEqual({ count: 1 });
    const { db } = suite.server.services.database;
    const kept = await db.selectFrom('trade_prices_deleted').selectAll().where('id', 'in', [tee!.id, mug!.id]).orderBy('id').execute();
    expect(kept.map((row) => [Number(row.id), row.sku, row.deleted_at])).toEqual([
      [tee!.id, catalog.skus.teeRedM, expect.stringMatching(/^\d{4}-/)],
      [mug!.id, catalog.skus.mug, expect.stringMatching(/^\d{4}-/)],
    ]);
    await ok('DELETE', `/v1/trade-customer-product-prices/${newTee!.id}`, undefined, 204);
  });

  it('price lists: created, renamed, re-percentaged, entries added and deleted, the list deleted; a customer’s lists changed', async () => {
    const { catalog } = suite;
    const from = await lastSeq();
    const createdList = await ok('POST', '/v1/price-lists', { name: 'Gold', kind: 'fixed' }, 201);
    const list = createdList.body as Body;
    const percent = (await ok('POST', '/v1/price-lists', { name: 'Ten off', kind: 'percentage', percentage: 10 }, 201)).body as Body;
    const renamed = await ok('PUT', `/v1/price-lists/${list.id}`, { name: 'Platinum' }, 200);
    const repercent = await ok('PUT', `/v1/price-lists/${percent.id}`, { percentage: 12.5 }, 200);
    const unchanged = await ok('PUT', `/v1/price-lists/${percent.id}`, { name: 'Ten off' }, 200);
    const addedEntries = await ok(
      'POST',
      `/v1/price-lists/${list.id}/prices/bulk`,
      [
        { productId: catalog.tee, sku: catalog.skus.tee, price: 7 },
        { productId: catalog.mug, sku: catalog.skus.mug, price: 2 },
      ],
      201,
    );
    const [teeEntry, mugEntry] = addedEntries.body as Body[];
    const customer = (await ok('POST', '/v1/customers', { email: `lists-${engine}@example.com`, trade: true }, 201)).body as Body;
    const assigned = await ok('PUT', `/v1/customers/${customer.id}`, { priceListIds: [list.id, percent.id] }, 200);
    const removedEntry = await ok('DELETE', `/v1/price-lists/${list.id}/prices/${teeEntry!.id}`, undefined, 204);
    const removedList = await ok('DELETE', `/v1/price-lists/${list.id}`, undefined, 204);

    const renamedList = renamed.body as Body;
    const entries = withoutSeq(await entriesAfter(from));
    expect(entries).toEqual([
      { ...entryOf('price_list', 'created', null, list, { priceListId: list.id }), ...byRequest(createdList) },
      expect.objectContaining({ resource: 'price_list', resourceId: percent.id, change: 'created' }),
      { ...entryOf('price_list', 'updated', list, renamedList, { priceListId: list.id }), ...byRequest(renamed) },
      { ...entryOf('price_list', 'updated', percent, repercent.body as Body, { priceListId: percent.id }), ...byRequest(repercent) },
      // A PUT that changes neither name nor percentage records nothing.
      ...[teeEntry!, mugEntry!].map((entry) => ({
        ...entryOf('price_list_entry', 'created', null, entry, { priceListId: list.id, productId: entry.productId, sku: entry.sku }),
        ...byRequest(addedEntries),
      })),
      expect.objectContaining({ resource: 'customer', resourceId: customer.id, change: 'created' }),
      { ...entryOf('customer', 'updated', customer, assigned.body as Body, { customerId: customer.id }), ...byRequest(assigned) },
      {
        ...entryOf('price_list_entry', 'deleted', teeEntry!, null, { priceListId: list.id, productId: teeEntry!.productId, sku: teeEntry!.sku }),
        ...byRequest(removedEntry),
      },
      // The list's deletion: its entries, then the list; the customers that had it are not recorded.
      {
        ...entryOf('price_list_entry', 'deleted', mugEntry!, null, { priceListId: list.id, productId: mugEntry!.productId, sku: mugEntry!.sku }),
        ...byRequest(removedList),
      },
      { ...entryOf('price_list', 'deleted', renamedList, null, { priceListId: list.id }), ...byRequest(removedList) },
    ]);
    expect(unchanged.status).toBe(200);
    // The list's deletion took it from the customer: that event carries the customer as it was.
    const feed: Array<{ topic: string; subjectId: number; data: Body; previous?: Body }> = [];
    for (let after = 0; ;) {
      const page = (await call('GET', `/v1/events?after=${after}&count=100`)).body as Array<{
        id: number;
        topic: string;
        subjectId: number;
        data: Body;
        previous?: Body;
      }>;
      if (page.length === 0) break;
      feed.push(...page);
      after = page.at(-1)!.id;
    }
    const last = feed.filter((event) => event.topic === 'customer.updated' && event.subjectId === customer.id).at(-1)!;
    expect([last.previous?.priceListIds, last.data.priceListIds]).toEqual([[list.id, percent.id], [percent.id]]);

    expectError(await call('GET', `/v1/price-lists/${list.id}/prices/${teeEntry!.id}`), 404, 5);
    expect((await call('GET', `/v1/price-lists/${list.id}/prices`)).status).toBe(404);
    // An entry deleted from a list that stays: gone from its list and count, kept aside.
    const stays = (await ok('POST', '/v1/price-lists', { name: 'Stays', kind: 'fixed' }, 201)).body as Body;
    const [kept1, gone] = (
      await ok(
        'POST',
        `/v1/price-lists/${stays.id}/prices/bulk`,
        [
          { productId: catalog.mug, sku: catalog.skus.mug, price: 2 },
          { productId: catalog.tee, sku: catalog.skus.tee, price: 3 },
        ],
        201,
      )
    ).body as Body[];
    await ok('DELETE', `/v1/price-lists/${stays.id}/prices/${gone!.id}`, undefined, 204);
    expectError(await call('GET', `/v1/price-lists/${stays.id}/prices/${gone!.id}`), 404, 5);
    expect(((await call('GET', `/v1/price-lists/${stays.id}/prices`)).body as Body[]).map((entry) => entry.id)).toEqual([kept1!.id]);
    expect((await call('GET', `/v1/price-lists/${stays.id}/prices/count`)).body).toEqual({ count: 1 });
    const { db } = suite.server.services.database;
    const kept = await db
      .selectFrom('price_list_prices_deleted')
      .select(['id', 'deleted_at'])
      .where('price_list_id', 'in', [list.id, stays.id])
      .orderBy('id')
      .execute();
    expect(kept.map((row) => [Number(row.id), row.deleted_at])).toEqual(
      [teeEntry!.id, mugEntry!.id, gone!.id].map((id) => [id, expect.stringMatching(/^\d{4}-/)]),
    );
  });

  it('customers: created, changed in what they pay (not in their name), deleted with their prices', async () => {
    const { catalog } = suite;
    const from = await lastSeq();
    const created = await ok('POST', '/v1/customers', { email: `history-${engine}@example.com`, firstName: 'Ada' }, 201);
    const customer = created.body as Body;
    await ok('PUT', `/v1/customers/${customer.id}`, { firstName: 'Ann', email: `history2-${engine}@example.com` }, 200);
    const made = await ok('PUT', `/v1/customers/${customer.id}`, { trade: true }, 200);
    const bulk = await ok(
      'POST',
      '/v1/customers/bulk',
      [{ email: `bulk-a-${engine}@example.com` }, { email: `bulk-b-${engine}@example.com`, trade: true }],
      201,
    );
    const price = (
      (await ok('POST', '/v1/trade-customer-product-prices/bulk', [{ customerId: customer.id, productId: catalog.mug, sku: catalog.skus.mug, price: 1 }], 201))
        .body as Body[]
    )[0]!;
    const removed = await ok('DELETE', `/v1/customers/${customer.id}`, undefined, 204);

    const renamed = { ...customer, firstName: 'Ann', email: `history2-${engine}@example.com` };
    expect(withoutSeq(await entriesAfter(from))).toEqual([
      { ...entryOf('customer', 'created', null, customer, { customerId: customer.id }), ...byRequest(created) },
      { ...entryOf('customer', 'updated', renamed, made.body as Body, { customerId: customer.id }), ...byRequest(made) },
      ...(bulk.body as Body[]).map((item) => ({ ...entryOf('customer', 'created', null, item, { customerId: item.id }), ...byRequest(bulk) })),
      expect.objectContaining({ resource: 'trade_price', resourceId: price.id, change: 'created' }),
      { ...tradePriceEntry('deleted', price, null), ...byRequest(removed) },
      { ...entryOf('customer', 'deleted', made.body as Body, null, { customerId: customer.id }), ...byRequest(removed) },
    ]);
  });

  it('products and variations: created (in bulk too), re-priced, re-SKUed, deleted; a title or stock alone records nothing', async () => {
    const from = await lastSeq();
    const sku = (name: string) => `${name}-${engine}`;
    const created = await ok('POST', '/v1/products', { title: 'Cap', sku: sku('CAP'), price: 5, variations: [{ sku: sku('CAP-RED'), price: 6 }] }, 201);
    const product = created.body as Body & { variations: Array<{ id: number }> };
    const variationId = product.variations[0]!.id;
    const variation = (await call('GET', `/v1/products/${product.id}/variations/${variationId}`)).body as Body;
    await ok('PUT', `/v1/products/${product.id}`, { title: 'Cap, wool' }, 200);
    const repriced = await ok('PUT', `/v1/products/${product.id}`, { price: 5.5 }, 200);
    await ok('PUT', `/v1/products/${product.id}/variations/${variationId}`, { stock: 4 }, 200);
    const varPriced = await ok('PUT', `/v1/products/${product.id}/variations/${variationId}`, { price: 7 }, 200);
    const varAdded = await ok('POST', `/v1/products/${product.id}/variations`, { sku: sku('CAP-BLUE') }, 201);
    const varRemoved = await ok('DELETE', `/v1/products/${product.id}/variations/${variationId}`, undefined, 204);
    const bulk = await ok('POST', '/v1/products/bulk', [{ title: 'Scarf', sku: sku('SCARF'), price: 9 }], 201);
    const removed = await ok('DELETE', `/v1/products/${product.id}`, undefined, 204);

    const titled = { ...product, title: 'Cap, wool' };
    const afterReprice = repriced.body as Body;
    const stocked = { ...variation, stock: 4 };
    const blue = varAdded.body as Body;
    const scarf = (bulk.body as Body[])[0]!;
    expect(withoutSeq(await entriesAfter(from))).toEqual([
      { ...entryOf('product', 'created', null, product, { productId: product.id, sku: sku('CAP') }), ...byRequest(created) },
      { ...entryOf('variation', 'created', null, variation, { productId: product.id, sku: sku('CAP-RED') }), ...byRequest(created) },
      { ...entryOf('product', 'updated', titled, afterReprice, { productId: product.id, sku: sku('CAP') }), ...byRequest(repriced) },
      { ...entryOf('variation', 'updated', stocked, varPriced.body as Body, { productId: product.id, sku: sku('CAP-RED') }), ...byRequest(varPriced) },
      { ...entryOf('variation', 'created', null, blue, { productId: product.id, sku: sku('CAP-BLUE') }), ...byRequest(varAdded) },
      { ...entryOf('variation', 'deleted', varPriced.body as Body, null, { productId: product.id, sku: sku('CAP-RED') }), ...byRequest(varRemoved) },
      { ...entryOf('product', 'created', null, scarf, { productId: scarf.id, sku: sku('SCARF') }), ...byRequest(bulk) },
      { ...entryOf('variation', 'deleted', blue, null, { productId: product.id, sku: sku('CAP-BLUE') }), ...byRequest(removed) },
      expect.objectContaining({ resource: 'product', resourceId: product.id, change: 'deleted', after: null }),
    ]);
  });

  it('a product update that replaces its variations records each one created, re-priced or deleted', async () => {
    const from = await lastSeq();
    const sku = (name: string) => `${name}-R-${engine}`;
    const product = (await ok('POST', '/v1/products', { title: 'Sock', price: 2, variations: [{ sku: sku('A'), price: 2 }, { sku: sku('B') }] }, 201))
      .body as Body & {
      variations: Array<{ id: number; sku: string }>;
    };
    const [a, b] = product.variations;
    const updated = await ok('PUT', `/v1/products/${product.id}`, { variations: [{ sku: sku('A'), price: 3 }, { sku: sku('C') }] }, 200);
    const entries = (await entriesAfter(from)).slice(3);
    expect(entries.map((entry) => [entry.resource, entry.change, entry.sku, entry.requestId])).toEqual([
      ['variation', 'deleted', sku('B'), requestIdOf(updated)],
      ['variation', 'updated', sku('A'), requestIdOf(updated)],
      ['variation', 'created', sku('C'), requestIdOf(updated)],
    ]);
    expect(entries[0]!.resourceId).toBe(b!.id);
    expect([entries[1]!.before?.price, entries[1]!.after?.price, entries[1]!.resourceId]).toEqual([2, 3, a!.id]);
  });

  it('a refused write (422, rolled back) leaves no entry', async () => {
    const { catalog } = suite;
    const from = await lastSeq();
    expectError(
      await call('POST', '/v1/trade-customer-product-prices/bulk', [
        { customerId: catalog.tradeCustomer, productId: catalog.mug, sku: catalog.skus.mug, price: 1 },
        { customerId: catalog.tradeCustomer, productId: catalog.mug, sku: 'NO-SUCH-SKU', price: 1 },
      ]),
      422,
      10,
    );
    expectError(await call('POST', '/v1/customers/bulk', [{ email: 'same@example.com' }, { email: 'SAME@example.com' }]), 422, 10);
    expectError(await call('POST', '/v1/products', { title: 'Dup', sku: catalog.skus.mug, price: 1 }), 422, 10);
    expectError(await call('PUT', `/v1/customers/${catalog.tradeCustomer}`, { priceListIds: [987654321] }), 422, 10);
    expect(await entriesAfter(from)).toEqual([]);
    expect(await lastSeq()).toBe(from);
  });

  it('an import’s apply is recorded as the import’s, by its uploader, with the upload’s request id', async () => {
    const { catalog } = suite;
    const from = await lastSeq();
    const upload = await suite.api.request('POST', '/v1/imports', {
      token: suite.tenant.token,
      rawBody: `customer_id,sku,price\n${catalog.otherTradeCustomer},${catalog.skus.mug},4\n`,
      headers: { 'content-type': 'text/csv' },
    });
    expect(upload.status, upload.text).toBe(202);
    const importId = (upload.body as Body).id;
    for (let tries = 0; ; tries++) {
      const status = ((await call('GET', `/v1/imports/${importId}`)).body as { status: string }).status;
      if (status === 'succeeded') break;
      expect(status).not.toBe('failed');
      expect(tries).toBeLessThan(200);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const entries = await entriesAfter(from);
    expect(
      entries.map(({ resource, change, actor, source, sourceId, requestId, sku }) => ({ resource, change, actor, source, sourceId, requestId, sku })),
    ).toEqual([
      {
        resource: 'trade_price',
        change: 'created',
        actor: byRequest(upload).actor,
        source: 'import',
        sourceId: importId,
        requestId: requestIdOf(upload),
        sku: catalog.skus.mug,
      },
    ]);
  });

  it('the chain is numbered without gaps, and update events carry the record as it was', async () => {
    const { db } = suite.server.services.database;
    const seqs = (await db.selectFrom('price_history').select('seq').where('store_id', '=', suite.tenant.storeId).orderBy('seq').execute()).map((row) =>
      Number(row.seq),
    );
    expect(seqs).toEqual(seqs.map((_seq, index) => index + 1));

    const customer = (await ok('POST', '/v1/customers', { email: `previous-${engine}@example.com` }, 201)).body as Body;
    const feed = async () => (await call('GET', '/v1/events?after=0&count=100')).body as Array<{ id: number }>;
    let after = 0;
    for (let page = await feed(); page.length > 0;) {
      after = page.at(-1)!.id;
      page = (await call('GET', `/v1/events?after=${after}&count=100`)).body as Array<{ id: number }>;
    }
    const updated = (await ok('PUT', `/v1/customers/${customer.id}`, { lastName: 'Stone' }, 200)).body as Body;
    const events = (await call('GET', `/v1/events?after=${after}`)).body as Array<Record<string, unknown>>;
    expect(events).toEqual([
      {
        id: expect.any(Number),
        storeId: suite.tenant.storeId,
        createdAt: expect.any(String),
        topic: 'customer.updated',
        subjectId: customer.id,
        data: updated,
        previous: customer,
      },
    ]);
    const created = (await call('GET', `/v1/events?after=0&count=1`)).body as Array<Record<string, unknown>>;
    expect(Object.keys(created[0]!)).not.toContain('previous');
  });
});

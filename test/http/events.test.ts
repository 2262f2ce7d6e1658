import { sql } from 'kysely';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Event } from '../../src/contract/events.js';
import { createCatalog } from '../support/catalog-fixture.js';
import { enginesUnderTest } from '../support/engines.js';
import { suiteServer } from '../support/suite-server.js';
import type { Tenant } from '../support/test-server.js';

describe.each(await enginesUnderTest())('the event outbox and feed on %s', (engine) => {
  const suite = suiteServer(engine, { tenants: 0 });
  let tenant: Tenant;
  /** The last event id seen: each test reads only what its own changes added. */
  let seen = 0;

  beforeEach(async () => {
    tenant = await suite.server.createTenant();
    seen = 0;
  });

  const call = async (method: string, path: string, body?: unknown, status?: number) => {
    const response = await suite.server.request(method, path, { token: tenant.token, body });
    if (status !== undefined) expect(response.status, response.text).toBe(status);
    return response.body as Record<string, unknown> & { id: number };
  };
  /** Every event after the last one seen, oldest first. */
  const newEvents = async (): Promise<Event[]> => {
    const events: Event[] = [];
    for (let page = 0; page < 100; page += 1) {
      const response = await suite.server.request('GET', `/v1/events?after=${seen}&count=100`, { token: tenant.token });
      expect(response.status).toBe(200);
      const batch = response.body as Event[];
      events.push(...batch);
      if (batch.length > 0) seen = batch.at(-1)!.id;
      if (batch.length < 100) return events;
    }
    throw new Error('too many events');
  };
  const topics = (events: Event[]) => events.map((event) => `${event.topic}:${event.subjectId}`);

  it('announces customers created, updated (with the record as it was) and deleted, with the record as the API returns it', async () => {
    const created = await call('POST', '/v1/customers', { email: 'c@example.com', trade: true }, 201);
    const updated = await call('PUT', `/v1/customers/${created.id}`, { lastName: 'Lovelace' }, 200);
    await call('DELETE', `/v1/customers/${created.id}`, undefined, 204);
    const events = await newEvents();
    expect(events).toEqual([
      { id: expect.any(Number), storeId: tenant.storeId, createdAt: expect.any(String), topic: 'customer.created', subjectId: created.id, data: created },
      {
        id: expect.any(Number),
        storeId: tenant.storeId,
        createdAt: expect.any(String),
        topic: 'customer.updated',
        subjectId: created.id,
        data: updated,
        previous: created,
      },
      { id: expect.any(Number), storeId: tenant.storeId, createdAt: expect.any(String), topic: 'customer.deleted', subjectId: created.id, data: updated },
    ]);
    expect(events[0]!.id).toBeLessThan(events[1]!.id);
  });

  it('announces products, with variation changes as product.updated', async () => {
    const product = await call('POST', '/v1/products', { title: 'Cap', sku: `CAP-${tenant.storeId}`, price: 5 }, 201);
    const renamed = await call('PUT', `/v1/products/${product.id}`, { title: 'Red cap' }, 200);
    const variation = await call('POST', `/v1/products/${product.id}/variations`, { sku: `CAP-${tenant.storeId}-L`, price: 6 }, 201);
    await call('PUT', `/v1/products/${product.id}/variations/${variation.id}`, { stock: 3 }, 200);
    await call('DELETE', `/v1/products/${product.id}/variations/${variation.id}`, undefined, 204);
    const events = await newEvents();
    expect(topics(events)).toEqual([`product.created:${product.id}`, ...Array(4).fill(`product.updated:${product.id}`)]);
    expect(events[0]!.data).toEqual(product);
    expect(events[1]!.data).toEqual(renamed);
    expect(events[2]!.data).toMatchObject({ variations: [{ id: variation.id, price: 6, stock: null }] });
    expect(events[3]!.data).toMatchObject({ variations: [{ id: variation.id, stock: 3 }] });
    expect(events[4]!.data).toMatchObject({ variations: [] });
  });

  it('announces categories; deleting one updates the products that were in it', async () => {
    const root = await call('POST', '/v1/categories', { title: 'Root' }, 201);
    const moved = await call('PUT', `/v1/categories/${root.id}`, { title: 'Top' }, 200);
    const product = await call('POST', '/v1/products', { title: 'Mug', price: 3, categoryIds: [root.id] }, 201);
    await call('DELETE', `/v1/categories/${root.id}`, undefined, 204);
    const events = await newEvents();
    expect(topics(events)).toEqual([
      `category.created:${root.id}`,
      `category.updated:${root.id}`,
      `product.created:${product.id}`,
      `category.deleted:${root.id}`,
      `product.updated:${product.id}`,
    ]);
    expect(events[1]!.data).toEqual(moved);
    expect(events[3]!.data).toEqual(moved);
    expect(events[4]!.data).toEqual({ ...product, categoryIds: [] });
  });

  it('announces each trade price created in bulk and deleted, one by one and by cascade', async () => {
    const catalog = await createCatalog(suite.server, tenant);
    await newEvents();
    const item = (sku: string, productId: number) => ({ customerId: catalog.tradeCustomer, productId, sku, price: 2.5 });
    const created = (
      await suite.server.request('POST', '/v1/trade-customer-product-prices/bulk', {
        token: tenant.token,
        body: [item(catalog.skus.tee, catalog.tee), item(catalog.skus.teeRedM, catalog.tee), item(catalog.skus.mug, catalog.mug)],
      })
    ).body as Array<{ id: number }>;
    const [first, second, third] = created;
    await call('DELETE', `/v1/trade-customer-product-prices/${first!.id}`, undefined, 204);
    await call('DELETE', `/v1/products/${catalog.tee}`, undefined, 204);
    await call('DELETE', `/v1/customers/${catalog.tradeCustomer}`, undefined, 204);
    const events = await newEvents();
    expect(topics(events)).toEqual([
      ...created.map((price) => `trade_customer_product_price.created:${price.id}`),
      `trade_customer_product_price.deleted:${first!.id}`,
      `trade_customer_product_price.deleted:${second!.id}`,
      `product.deleted:${catalog.tee}`,
      `trade_customer_product_price.deleted:${third!.id}`,
      `customer.deleted:${catalog.tradeCustomer}`,
    ]);
    expect(events.slice(0, 3).map((event) => event.data)).toEqual(created);
    expect(events[4]!.data).toEqual(created[1]);
  });

  it('announces orders', async () => {
    const catalog = await createCatalog(suite.server, tenant);
    await newEvents();
    const order = await call('POST', '/v1/orders', { customerId: catalog.tradeCustomer, lines: [{ sku: catalog.skus.mug, quantity: 2 }] }, 201);
    expect(await newEvents()).toEqual([expect.objectContaining({ topic: 'order.created', subjectId: order.id, data: order })]);
  });

  it('announces nothing for a change that fails', async () => {
    const catalog = await createCatalog(suite.server, tenant);
    await call('POST', '/v1/customers', { email: 'taken@example.com' }, 201);
    await newEvents();
    await call('POST', '/v1/customers', { email: 'TAKEN@example.com' }, 422);
    await call('PUT', '/v1/customers/999999', { lastName: 'X' }, 404);
    await call('DELETE', '/v1/products/999999', undefined, 404);
    const valid = { customerId: catalog.tradeCustomer, productId: catalog.mug, sku: catalog.skus.mug, price: 1 };
    await call('POST', '/v1/trade-customer-product-prices/bulk', [valid, { ...valid, sku: 'NOT-MINE' }], 422);
    await call('POST', '/v1/products', { title: 'Dup', sku: catalog.skus.mug, price: 1 }, 422);
    expect(await newEvents()).toEqual([]);
  });

  it('writes the event in the transaction of the change: no event stored, no change stored', async () => {
    const customer = await call('POST', '/v1/customers', { email: 'atomic@example.com' }, 201);
    await newEvents();
    const { db } = suite.server.services.database;
    // Make the outbox refuse one topic, as a failing disk or constraint would.
    if (engine === 'postgres') {
      await sql`alter table events add constraint refuse_customer_updated check (topic <> 'customer.updated') not valid`.execute(db);
    } else {
      await sql`create trigger refuse_customer_updated before insert on events when new.topic = 'customer.updated' begin select raise(abort, 'refused'); end`.execute(
        db,
      );
    }
    try {
      const failed = await suite.server.request('PUT', `/v1/customers/${customer.id}`, { token: tenant.token, body: { lastName: 'Changed' } });
      expect(failed.status).toBe(500);
      // Code 1, and nothing of the cause: no SQL, table, constraint, engine or stack trace.
      expect(failed.headers['content-type']).toMatch(/^application\/json/);
      expect(failed.body).toEqual({ code: 1, message: expect.any(String) });
      expect(failed.text).not.toMatch(/refuse|constraint|trigger|abort|events|customer|sqlite|postgres|select|insert|update|\.ts\b|\.js\b|at \S+ \(/i);
      expect((await call('GET', `/v1/customers/${customer.id}`, undefined, 200)).lastName).toBeNull();
      expect(await newEvents()).toEqual([]);
    } finally {
      if (engine === 'postgres') await sql`alter table events drop constraint refuse_customer_updated`.execute(db);
      else await sql`drop trigger refuse_customer_updated`.execute(db);
    }
  });

  it('serves the feed by after and count, ascending, to the store that owns it only', async () => {
    for (let index = 0; index < 5; index += 1) await call('POST', '/v1/customers', { email: `feed${index}@example.com` }, 201);
    const all = await newEvents();
    expect(all).toHaveLength(5);
    const page = await call('GET', `/v1/events?after=${all[1]!.id}&count=2`, undefined, 200);
    expect(page).toEqual(all.slice(2, 4));
    expect(await call('GET', '/v1/events?count=1', undefined, 200)).toEqual([all[0]]);
    expect(await call('GET', `/v1/events?after=${all[4]!.id}`, undefined, 200)).toEqual([]);
    expect(await call('GET', '/v1/events?fields=id,topic&count=1', undefined, 200)).toEqual([{ id: all[0]!.id, topic: 'customer.created' }]);

    const other = await suite.server.createTenant();
    const theirs = await suite.server.request('GET', '/v1/events', { token: other.token });
    expect(theirs.body).toEqual([]);

    for (const query of ['count=0', 'count=101', 'count=x', 'after=-1', 'after=1.5', 'offset=2', 'topic=customer.created']) {
      const refused = await suite.server.request('GET', `/v1/events?${query}`, { token: tenant.token });
      expect(refused.status, query).toBe(400);
      expect(refused.body).toMatchObject({ code: 9 });
    }
  });
});

import type { Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { Event } from '../../src/contract/events.js';
import { pricesOfLostSkusSchema } from '../../src/storage/migrations/011-prices-of-lost-skus.js';
import { enginesUnderTest } from '../support/engines.js';
import { suiteServer } from '../support/suite-server.js';

/**
 * Migration 011 on a database holding what renames and variation deletions used to leave
 * behind: trade prices and list entries whose SKU is no longer their product's. Those stranded
 * records are written here directly in SQL, as the old code left them.
 */
describe.each(await enginesUnderTest())('migration 011, prices of SKUs their product lost, on %s', (engine) => {
  const suite = suiteServer(engine, { tenants: 2 });

  async function ok<T>(method: string, path: string, body: unknown, status: number, token = suite.tenant.token): Promise<T> {
    const response = await suite.api.request(method, path, { token, body });
    expect(response.status, `${method} ${path}: ${response.text.slice(0, 300)}`).toBe(status);
    return response.body as T;
  }
  async function eventsAfter(after: number, token = suite.tenant.token): Promise<Event[]> {
    const events: Event[] = [];
    for (let page = 0; page < 100; page++) {
      const batch = await ok<Event[]>('GET', `/v1/events?after=${events.at(-1)?.id ?? after}&count=100`, undefined, 200, token);
      events.push(...batch);
      if (batch.length < 100) return events;
    }
    throw new Error('too many events');
  }
  const migrate = () => pricesOfLostSkusSchema().up(suite.server.services.database.db as unknown as Kysely<unknown>);

  it('deletes every stranded record with its event, in batches, and nothing else', async () => {
    const db = suite.server.services.database.db;
    const a = await ok<{ id: number; variations: Array<{ id: number }> }>(
      'POST',
      '/v1/products',
      { title: 'A', sku: 'MIG-A', price: 10, variations: [{ sku: 'MIG-A-S' }] },
      201,
    );
    const b = await ok<{ id: number }>('POST', '/v1/products', { title: 'B', sku: 'MIG-B', price: 20 }, 201);
    const customer = await ok<{ id: number }>('POST', '/v1/customers', { email: 'migration@example.com', trade: true }, 201);
    const list = await ok<{ id: number }>('POST', '/v1/price-lists', { name: 'Contract', kind: 'fixed' }, 201);
    const price = (productId: number, sku: string, value: number) => ({ customerId: customer.id, productId, sku, price: value });
    const many = await ok<Array<{ id: number }>>(
      'POST',
      '/v1/trade-customer-product-prices/bulk',
      Array.from({ length: 1000 }, (_item, index) => price(a.id, 'MIG-A-S', index / 100)),
      201,
    );
    const [kept, renamed, moved] = await ok<Array<{ id: number }>>(
      'POST',
      '/v1/trade-customer-product-prices/bulk',
      [price(a.id, 'MIG-A', 1), price(a.id, 'MIG-A', 2), price(b.id, 'MIG-B', 3)],
      201,
    );
    const [keptEntry, strandedEntry] = await ok<Array<{ id: number }>>(
      'POST',
      `/v1/price-lists/${list.id}/prices/bulk`,
      [
        { productId: b.id, sku: 'MIG-B', price: 4 },
        { productId: a.id, sku: 'MIG-A-S', price: 5 },
      ],
      201,
    );
    // Another store's record, stranded as well: its event is its own store's.
    const foreignProduct = await ok<{ id: number }>('POST', '/v1/products', { title: 'F', sku: 'MIG-F', price: 1 }, 201, suite.other.token);
    const foreignCustomer = await ok<{ id: number }>('POST', '/v1/customers', { email: 'foreign@example.com', trade: true }, 201, suite.other.token);
    const [foreign] = await ok<Array<{ id: number }>>(
      'POST',
      '/v1/trade-customer-product-prices/bulk',
      [{ customerId: foreignCustomer.id, productId: foreignProduct.id, sku: 'MIG-F', price: 6 }],
      201,
      suite.other.token,
    );

    // What the old code left: a variation deleted without its prices (SKU unregistered), a
    // product renamed (the record's SKU is held by nobody), a SKU that another product took.
    await db.deleteFrom('skus').where('sku', '=', 'MIG-A-S').execute();
    await db.deleteFrom('product_variations').where('id', '=', a.variations[0]!.id).execute();
    await db.updateTable('trade_prices').set({ sku: 'MIG-OLD' }).where('id', '=', renamed!.id).execute();
    await db.updateTable('trade_prices').set({ product_id: a.id }).where('id', '=', moved!.id).execute();
    await db.updateTable('trade_prices').set({ sku: 'MIG-F-OLD' }).where('id', '=', foreign!.id).execute();
    const stranded = [...many, renamed!, moved!];
    const records = await Promise.all(
      stranded.map((record) => ok<Record<string, unknown>>('GET', `/v1/trade-customer-product-prices/${record.id}`, undefined, 200)),
    );
    const entryRecord = await ok<Record<string, unknown>>('GET', `/v1/price-lists/${list.id}/prices/${strandedEntry!.id}`, undefined, 200);
    const foreignRecord = await ok<Record<string, unknown>>('GET', `/v1/trade-customer-product-prices/${foreign!.id}`, undefined, 200, suite.other.token);
    const [before, foreignBefore] = [(await eventsAfter(0)).at(-1)!.id, (await eventsAfter(0, suite.other.token)).at(-1)!.id];

    await migrate();

    const events = await eventsAfter(before);
    expect(events.map((event) => `${event.topic}:${event.subjectId}`)).toEqual([
      ...stranded.map((record) => `trade_customer_product_price.deleted:${record.id}`),
      `price_list_price.deleted:${strandedEntry!.id}`,
    ]);
    // Migration 011 writes an entry as entries were then, before they had a quantity rule (migration 025).
    const entryThen = Object.fromEntries(Object.entries(entryRecord).filter(([field]) => field !== 'quantityRule'));
    expect(events.map((event) => event.data)).toEqual([...records, entryThen]);
    expect((await eventsAfter(foreignBefore, suite.other.token)).map((event) => event.data)).toEqual([foreignRecord]);
    for (const record of [renamed!, moved!, many[0]!, many[999]!])
      expect((await suite.api.request('GET', `/v1/trade-customer-product-prices/${record.id}`, { token: suite.tenant.token })).status).toBe(404);
    expect((await suite.api.request('GET', `/v1/price-lists/${list.id}/prices/${strandedEntry!.id}`, { token: suite.tenant.token })).status).toBe(404);
    // The records whose SKU is still their product's stay.
    expect(await ok<Array<{ id: number }>>('GET', `/v1/trade-customer-product-prices?customerId=${customer.id}`, undefined, 200)).toMatchObject([
      { id: kept!.id },
    ]);
    expect(await ok<Array<{ id: number }>>('GET', `/v1/price-lists/${list.id}/prices`, undefined, 200)).toMatchObject([{ id: keptEntry!.id }]);

    // Run again, it finds nothing more.
    await migrate();
    expect(await eventsAfter(events.at(-1)!.id)).toEqual([]);
  });
});

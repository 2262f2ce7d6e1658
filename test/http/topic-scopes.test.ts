import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventTopic } from '../../src/contract/events.js';
import type { Scope } from '../../src/modules/stores/scopes.js';
import { checkedClient, expectError } from '../support/conventions.js';
import { enginesUnderTest } from '../support/engines.js';
import { suiteServer } from '../support/suite-server.js';
import { startReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';

/**
 * An event carries the record as the API returns it, so the `webhooks` scope alone reads no
 * event: the feed shows, and webhooks subscribe to, only the topics whose records the
 * credential may read (`catalog:read`, `trade_prices:read`, `orders:read`).
 */
describe.each(await enginesUnderTest())('event topics and read scopes on %s', (engine) => {
  const suite = suiteServer(engine, { catalogs: true, env: { PRICEBOOK_WEBHOOK_ALLOW_PRIVATE: '1' } });
  let receiver: WebhookReceiver;
  const keyWith = async (scopes: Scope[]) => (await suite.server.services.credentials.issueKey(suite.tenant.storeId, scopes)).token;
  const feedTopics = async (token: string): Promise<Set<EventTopic>> => {
    const topics = new Set<EventTopic>();
    let after = 0;
    // Every page of the feed, bounded: the store holds far fewer than 100 pages of events.
    for (let page = 0; page < 100; page++) {
      const response = await checkedClient(suite.server).request('GET', `/v1/events?after=${after}&count=100`, { token });
      expect(response.status).toBe(200);
      const events = response.body as Array<{ id: number; topic: EventTopic }>;
      if (events.length === 0) return topics;
      for (const event of events) {
        expect(event.id).toBeGreaterThan(after);
        topics.add(event.topic);
      }
      after = events.at(-1)!.id;
    }
    throw new Error('the feed did not end within 100 pages');
  };

  beforeAll(async () => {
    receiver = await startReceiver();
    const { catalog, tenant, server } = suite;
    const bulk = await server.request('POST', '/v1/trade-customer-product-prices/bulk', {
      token: tenant.token,
      body: [{ customerId: catalog.tradeCustomer, productId: catalog.mug, sku: catalog.skus.mug, price: 3 }],
    });
    expect(bulk.status).toBe(201);
    const order = await server.request('POST', '/v1/orders', {
      token: tenant.token,
      body: { customerId: catalog.tradeCustomer, lines: [{ sku: catalog.skus.mug, quantity: 1 }] },
    });
    expect(order.status).toBe(201);
  });
  afterAll(() => receiver.close());

  it('a credential with every scope reads every topic, as before', async () => {
    expect([...(await feedTopics(suite.tenant.token))].sort()).toEqual([
      'customer.created',
      'order.created',
      'product.created',
      'trade_customer_product_price.created',
    ]);
  });

  it('the feed shows only the topics the credential may read', async () => {
    expect([...(await feedTopics(await keyWith(['webhooks'])))]).toEqual([]);
    expect([...(await feedTopics(await keyWith(['webhooks', 'catalog:read'])))].sort()).toEqual(['customer.created', 'product.created']);
    expect([...(await feedTopics(await keyWith(['webhooks', 'trade_prices:read'])))]).toEqual(['trade_customer_product_price.created']);
    expect([...(await feedTopics(await keyWith(['webhooks', 'orders:read'])))]).toEqual(['order.created']);
    // The feed itself still needs `webhooks`.
    expectError(await suite.server.request('GET', '/v1/events', { token: await keyWith(['catalog:read', 'trade_prices:read', 'orders:read']) }), 403, 4);
  });

  it('subscribing to a topic needs its read scope: 403 (code 4), nothing stored, no handshake sent', async () => {
    const api = checkedClient(suite.server);
    const token = await keyWith(['webhooks', 'catalog:read']);
    const handshakes = receiver.handshakes.length;
    const countBefore = ((await api.request('GET', '/v1/webhooks/count', { token })).body as { count: number }).count;
    for (const [topic, scope] of [
      ['order.created', 'orders:read'],
      ['trade_customer_product_price.created', 'trade_prices:read'],
      ['trade_customer_product_price.deleted', 'trade_prices:read'],
    ] as const) {
      const refused = await api.request('POST', '/v1/webhooks', { token, body: { topic, url: receiver.url } });
      expectError(refused, 403, 4, new RegExp(`'${scope}'.*'${topic}'`));
    }
    expect(receiver.handshakes.length).toBe(handshakes);
    expect(((await api.request('GET', '/v1/webhooks/count', { token })).body as { count: number }).count).toBe(countBefore);

    const allowed = await api.request('POST', '/v1/webhooks', { token, body: { topic: 'customer.updated', url: receiver.url } });
    expect(allowed.status, allowed.text).toBe(201);
    expect(allowed.body).toMatchObject({ topic: 'customer.updated', verified: true });
  });

  it('changing a webhook to a topic it may not read is 403 and changes nothing', async () => {
    const api = checkedClient(suite.server);
    const token = await keyWith(['webhooks', 'catalog:read']);
    const created = await api.request('POST', '/v1/webhooks', { token, body: { topic: 'product.updated', url: receiver.url } });
    expect(created.status).toBe(201);
    const { id } = created.body as { id: number };
    const before = (await api.request('GET', `/v1/webhooks/${id}`, { token })).body;

    expectError(await api.request('PUT', `/v1/webhooks/${id}`, { token, body: { topic: 'order.created' } }), 403, 4, /'orders:read'/);
    expect((await api.request('GET', `/v1/webhooks/${id}`, { token })).body).toEqual(before);

    const changed = await api.request('PUT', `/v1/webhooks/${id}`, { token, body: { topic: 'category.deleted', active: false } });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body).toMatchObject({ topic: 'category.deleted', active: false });
    // A change that keeps the topic still needs its read scope: `webhooks` alone changes nothing.
    const unchanged = (await api.request('GET', `/v1/webhooks/${id}`, { token })).body;
    expectError(
      await api.request('PUT', `/v1/webhooks/${id}`, { token: await keyWith(['webhooks']), body: { active: true } }),
      403,
      4,
      /'catalog:read'.*'category.deleted'/,
    );
    expect((await api.request('GET', `/v1/webhooks/${id}`, { token })).body).toEqual(unchanged);
    const other = await api.request('PUT', `/v1/webhooks/${id}`, { token: await keyWith(['webhooks', 'catalog:read']), body: { active: true } });
    expect(other.status, other.text).toBe(200);
  });

  it('a webhook is seen and managed only with the read scope of its topic', async () => {
    const api = checkedClient(suite.server);
    const full = suite.tenant.token;
    const made = async (topic: EventTopic) => {
      const response = await api.request('POST', '/v1/webhooks', { token: full, body: { topic, url: receiver.url } });
      expect(response.status, response.text).toBe(201);
      return (response.body as { id: number }).id;
    };
    const [orderHook, priceHook] = [await made('order.created'), await made('trade_customer_product_price.deleted')];
    const ordersReader = await keyWith(['webhooks', 'orders:read']);
    const ids = async (token: string, query = '') =>
      ((await api.request('GET', `/v1/webhooks?count=100${query}`, { token })).body as Array<{ id: number }>).map((hook) => hook.id);
    const count = async (token: string, query = '') => ((await api.request('GET', `/v1/webhooks/count${query}`, { token })).body as { count: number }).count;

    // Lists and counts leave out the topics the credential may not read.
    expect(await ids(await keyWith(['webhooks']))).toEqual([]);
    expect(await count(await keyWith(['webhooks']))).toBe(0);
    expect(await ids(ordersReader)).toEqual([orderHook]);
    expect(await count(ordersReader)).toBe(1);
    expect(await ids(full)).toEqual(expect.arrayContaining([orderHook, priceHook]));
    expect(await count(full)).toBe((await ids(full)).length);
    // Asking for such a topic by name is a 403, in the list and the count alike.
    expectError(await api.request('GET', '/v1/webhooks?topic=trade_customer_product_price.deleted', { token: ordersReader }), 403, 4, /'trade_prices:read'/);
    expectError(
      await api.request('GET', '/v1/webhooks/count?topic=trade_customer_product_price.deleted', { token: ordersReader }),
      403,
      4,
      /'trade_prices:read'/,
    );
    expect(await ids(ordersReader, '&topic=order.created')).toEqual([orderHook]);

    // One webhook: get, verify, update and delete all need its topic's read scope.
    const before = (await api.request('GET', `/v1/webhooks/${priceHook}`, { token: full })).body;
    const handshakes = receiver.handshakes.length;
    for (const [method, path, body] of [
      ['GET', `/v1/webhooks/${priceHook}`, undefined],
      ['POST', `/v1/webhooks/${priceHook}/verify`, {}],
      ['PUT', `/v1/webhooks/${priceHook}`, { active: false }],
      ['PUT', `/v1/webhooks/${priceHook}`, { topic: 'order.created' }],
      ['DELETE', `/v1/webhooks/${priceHook}`, undefined],
    ] as const) {
      expectError(await api.request(method, path, { token: ordersReader, body }), 403, 4, /'trade_prices:read'.*'trade_customer_product_price.deleted'/);
    }
    expect(receiver.handshakes.length).toBe(handshakes);
    expect((await api.request('GET', `/v1/webhooks/${priceHook}`, { token: full })).body).toEqual(before);
    // A missing id is a 404 whatever the scopes, as before.
    expectError(await api.request('GET', `/v1/webhooks/${priceHook + 1000}`, { token: await keyWith(['webhooks']) }), 404, 5);

    const priceReader = await keyWith(['webhooks', 'trade_prices:read']);
    expect((await api.request('GET', `/v1/webhooks/${priceHook}`, { token: priceReader })).body).toEqual(before);
    const verified = await api.request('POST', `/v1/webhooks/${priceHook}/verify`, { token: priceReader, body: {} });
    expect(verified.status, verified.text).toBe(200);
    expect(receiver.handshakes.length).toBe(handshakes + 1);
    expect((await api.request('DELETE', `/v1/webhooks/${priceHook}`, { token: priceReader })).status).toBe(204);
    expect((await api.request('DELETE', `/v1/webhooks/${orderHook}`, { token: ordersReader })).status).toBe(204);
  });
});

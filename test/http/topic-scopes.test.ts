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
    const order = await server.request('POST', '/v1/orders', { token: tenant.token, body: { customerId: catalog.tradeCustomer, lines: [{ sku: catalog.skus.mug, quantity: 1 }] } });
    expect(order.status).toBe(201);
  });
  afterAll(() => receiver.close());

  it('a credential with every scope reads every topic, as before', async () => {
    expect([...(await feedTopics(suite.tenant.token))].sort()).toEqual(['customer.created', 'order.created', 'product.created', 'trade_customer_product_price.created']);
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
    // A change that keeps the topic needs no more than `webhooks`.
    const other = await api.request('PUT', `/v1/webhooks/${id}`, { token: await keyWith(['webhooks']), body: { active: true } });
    expect(other.status, other.text).toBe(200);
  });
});

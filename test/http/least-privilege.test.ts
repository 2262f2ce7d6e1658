import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Scope } from '../../src/modules/stores/scopes.js';
import type { DeliveryWorker } from '../../src/webhooks/delivery-worker.js';
import { checkedClient, expectError } from '../support/conventions.js';
import { enginesUnderTest } from '../support/engines.js';
import { snapshotStore } from '../support/store-snapshot.js';
import { suiteServer } from '../support/suite-server.js';
import { startWorker, subscribe } from '../support/webhook-fixture.js';
import { startReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';

/**
 * The reported ways a narrow key read or redirected what it was never given, each replayed
 * from outside as it was reported: the key gets 403 (code 4) naming the scope it lacks, its
 * answer carries none of the data, and nothing stored changes. docs/scopes.md has every rule;
 * test/http/scopes-table.test.ts walks all of them.
 */
describe.each(await enginesUnderTest())('least privilege on %s', (engine) => {
  const suite = suiteServer(engine, { catalogs: true, env: { PRICEBOOK_WEBHOOK_ALLOW_PRIVATE: '1' } });
  const keyWith = async (scopes: Scope[]) => (await suite.server.services.credentials.issueKey(suite.tenant.storeId, scopes)).token;
  const snapshot = () => snapshotStore(suite.server.services.database, suite.tenant.storeId);
  const PRICES = '/v1/trade-customer-product-prices';
  let priceId: number;
  const CUSTOMER = { email: 'ada.lovelace@analytical.example', firstName: 'Ada', lastName: 'Lovelace' };
  let customerId: number;

  beforeAll(async () => {
    const api = checkedClient(suite.server);
    const customer = await api.request('POST', '/v1/customers', { token: suite.tenant.token, body: { ...CUSTOMER, trade: true } });
    expect(customer.status).toBe(201);
    customerId = (customer.body as { id: number }).id;
    const bulk = await api.request('POST', `${PRICES}/bulk`, {
      token: suite.tenant.token,
      body: [
        { customerId, productId: suite.catalog.mug, sku: suite.catalog.skus.mug, price: 3.75 },
        { customerId, productId: suite.catalog.tee, sku: suite.catalog.skus.teeRedM, price: 9.25 },
      ],
    });
    expect(bulk.status).toBe(201);
    priceId = (bulk.body as Array<{ id: number }>)[0]!.id;
  });

  describe('embed=customer no longer leaks customers to a trade_prices:read key', () => {
    it('the reported request is a 403 naming catalog:read and the embed, with no customer in it', async () => {
      const api = checkedClient(suite.server);
      const token = await keyWith(['trade_prices:read']);
      // As reported: the same key is refused the customers themselves.
      expectError(await api.request('GET', '/v1/customers', { token }), 403, 4);
      for (const path of [
        `${PRICES}?embed=customer,product`,
        `${PRICES}?customerId=${customerId}&embed=customer`,
        `${PRICES}/${priceId}?embed=customer`,
        `${PRICES}?embed=product`,
      ]) {
        const refused = await api.request('GET', path, { token });
        expectError(refused, 403, 4, /'catalog:read'.*embed=(customer|product)/);
        for (const leaked of [CUSTOMER.email, CUSTOMER.firstName, CUSTOMER.lastName, suite.catalog.skus.mug]) expect(refused.text).not.toContain(leaked);
      }
      // The scope is checked before the query is parsed (403 before 400), as for a route's scope.
      expectError(await api.request('GET', `${PRICES}?embed=customer&count=0`, { token }), 403, 4);
      // Without embeds the key reads its prices as before.
      const plain = await api.request('GET', `${PRICES}?customerId=${customerId}`, { token });
      expect(plain.status).toBe(200);
      expect((plain.body as Array<{ price: number }>).map((record) => record.price)).toEqual([3.75, 9.25]);
    });

    it('with catalog:read as well, the embeds are there', async () => {
      const token = await keyWith(['trade_prices:read', 'catalog:read']);
      const answer = await checkedClient(suite.server).request('GET', `${PRICES}?customerId=${customerId}&embed=customer,product`, { token });
      expect(answer.status).toBe(200);
      const [first] = answer.body as Array<{ customer: { email: string }; product: { id: number } }>;
      expect(first).toMatchObject({ customer: { email: CUSTOMER.email, firstName: 'Ada' }, product: { id: suite.catalog.mug } });
    });
  });

  describe('a webhooks-only key can no longer redirect a webhook', () => {
    let worker: DeliveryWorker;
    let owner: WebhookReceiver;
    let attacker: WebhookReceiver;
    beforeAll(async () => {
      worker = startWorker(suite.server);
      [owner, attacker] = [await startReceiver(), await startReceiver()];
    });
    afterAll(async () => {
      await worker.stop();
      await owner.close();
      await attacker.close();
    });

    it('PUT with a new URL, an active flag or verify is a 403; the next customer still goes to the owner only', async () => {
      const api = checkedClient(suite.server);
      const { id } = await subscribe(suite.server, suite.tenant, 'customer.created', owner.url);
      const token = await keyWith(['webhooks']);
      // The worker waits while the store is compared: deliveries it makes meanwhile (of earlier
      // events, to the owner) are not the refused requests' doing.
      await worker.stop();
      const before = await snapshot();
      for (const [method, path, body] of [
        ['PUT', `/v1/webhooks/${id}`, { url: attacker.url }],
        ['PUT', `/v1/webhooks/${id}`, { url: attacker.url, active: true }],
        ['PUT', `/v1/webhooks/${id}`, { active: false }],
        ['POST', `/v1/webhooks/${id}/verify`, {}],
        ['DELETE', `/v1/webhooks/${id}`, undefined],
      ] as const) {
        expectError(await api.request(method, path, { token, body }), 403, 4, /'catalog:read'.*'customer\.created'/);
      }
      // The key does not see the webhook either: a 403 for it, and lists leave it out.
      expectError(await api.request('GET', `/v1/webhooks/${id}`, { token }), 403, 4);
      expect((await api.request('GET', '/v1/webhooks', { token })).body).toEqual([]);
      expect(attacker.handshakes).toEqual([]);
      expect(await snapshot()).toEqual(before);
      worker = startWorker(suite.server);

      const created = await api.request('POST', '/v1/customers', {
        token: suite.tenant.token,
        body: { email: 'grace.hopper@navy.example', firstName: 'Grace' },
      });
      expect(created.status).toBe(201);
      await owner.waitFor(() => owner.deliveries.some((delivery) => delivery.body.includes('grace.hopper@navy.example')));
      expect(attacker.deliveries).toEqual([]);
      expect(attacker.handshakes).toEqual([]);
    });

    it('a topic changed to one the key may not read while its new URL is being verified: 403, nothing stored', async () => {
      const api = checkedClient(suite.server);
      const { id } = await subscribe(suite.server, suite.tenant, 'product.updated', owner.url);
      const token = await keyWith(['webhooks', 'catalog:read']);
      const slow = await startReceiver();
      slow.handshakeDelayMs = 500;
      try {
        const moving = api.request('PUT', `/v1/webhooks/${id}`, { token, body: { url: slow.url } });
        await slow.waitFor(() => slow.handshakes.length === 1, 5000);
        // While the handshake is held, a full key moves the webhook to a topic the first key may not read.
        const retopic = await api.request('PUT', `/v1/webhooks/${id}`, { token: suite.tenant.token, body: { topic: 'order.created' } });
        expect(retopic.status, retopic.text).toBe(200);
        expectError(await moving, 403, 4, /'orders:read'.*'order\.created'/);
        expect((await api.request('GET', `/v1/webhooks/${id}`, { token: suite.tenant.token })).body).toMatchObject({ topic: 'order.created', url: owner.url });
      } finally {
        await slow.close();
      }
    });

    it('a key that may read the topic still changes it', async () => {
      const { id } = await subscribe(suite.server, suite.tenant, 'customer.updated', owner.url);
      const token = await keyWith(['webhooks', 'catalog:read']);
      const handshakes = attacker.handshakes.length;
      const moved = await checkedClient(suite.server).request('PUT', `/v1/webhooks/${id}`, { token, body: { url: attacker.url } });
      expect(moved.status, moved.text).toBe(200);
      expect(moved.body).toMatchObject({ id, url: attacker.url, verified: true });
      expect(attacker.handshakes).toHaveLength(handshakes + 1);
    });
  });

  describe('a write-only key can no longer read prices through a replace', () => {
    it('a dry run with "prices": [] is a 403 naming trade_prices:read, listing nothing and changing nothing', async () => {
      const api = checkedClient(suite.server);
      const token = await keyWith(['trade_prices:write']);
      const before = await snapshot();
      for (const dryRun of [true, false]) {
        const refused = await api.request('POST', `${PRICES}/replace`, { token, body: { customerId, scope: 'customer', prices: [], dryRun } });
        expectError(refused, 403, 4, /'trade_prices:read'/);
        for (const leaked of [suite.catalog.skus.mug, suite.catalog.skus.teeRedM, '3.75', '9.25']) expect(refused.text).not.toContain(leaked);
      }
      expect(await snapshot()).toEqual(before);
      // The key still writes: a bulk create answers only what it was sent.
      const written = await api.request('POST', `${PRICES}/bulk`, {
        token,
        body: [{ customerId, productId: suite.catalog.mug, sku: suite.catalog.skus.mug, price: 2.5 }],
      });
      expect(written.status).toBe(201);
      await api.request('DELETE', `${PRICES}/${(written.body as Array<{ id: number }>)[0]!.id}`, { token });
    });

    it('with trade_prices:read as well, the dry run answers the diff', async () => {
      const token = await keyWith(['trade_prices:write', 'trade_prices:read']);
      const answer = await checkedClient(suite.server).request('POST', `${PRICES}/replace`, {
        token,
        body: { customerId, scope: 'customer', prices: [], dryRun: true },
      });
      expect(answer.status).toBe(200);
      expect((answer.body as { deleted: Array<{ price: number }> }).deleted.map((record) => record.price).sort()).toEqual([3.75, 9.25]);
    });
  });

  describe('other writes that answered what the key could not read', () => {
    it('an update answers the whole record, so a catalog:write key without catalog:read is refused and nothing changes', async () => {
      const api = checkedClient(suite.server);
      const token = await keyWith(['catalog:write']);
      const before = await snapshot();
      const refused = await api.request('PUT', `/v1/customers/${customerId}`, { token, body: { active: true } });
      expectError(refused, 403, 4, /'catalog:read'/);
      expect(refused.text).not.toContain(CUSTOMER.email);
      expectError(await api.request('PUT', `/v1/products/${suite.catalog.mug}`, { token, body: { active: true } }), 403, 4, /'catalog:read'/);
      expect(await snapshot()).toEqual(before);
      // Creates answer what they were sent, and still need only the write scope.
      const created = await api.request('POST', '/v1/customers', { token, body: { email: 'new.customer@example.com' } });
      expect(created.status).toBe(201);
    });

    it('placing an order answers its resolved prices, so it needs orders:read too', async () => {
      const api = checkedClient(suite.server);
      const body = { customerId, lines: [{ sku: suite.catalog.skus.mug, quantity: 1 }] };
      const writer = await keyWith(['orders:write']);
      const before = await snapshot();
      const refused = await api.request('POST', '/v1/orders', { token: writer, body });
      expectError(refused, 403, 4, /'orders:read'/);
      expect(refused.text).not.toContain('3.75');
      expect(await snapshot()).toEqual(before);
      const placed = await api.request('POST', '/v1/orders', { token: await keyWith(['orders:write', 'orders:read']), body });
      expect(placed.status).toBe(201);
      expect(placed.body).toMatchObject({ lines: [{ unitPrice: 3.75, source: 'trade' }] });
    });

    it('an import that names customers by e-mail needs catalog:read: whether an address is a customer is catalog data', async () => {
      const api = checkedClient(suite.server);
      const token = await keyWith(['trade_prices:write', 'trade_prices:read']);
      const send = (csv: string) => api.request('POST', '/v1/imports?dryRun=true', { token, rawBody: csv, headers: { 'content-type': 'text/csv' } });
      const before = await snapshot();
      for (const csv of [
        `sku,${CUSTOMER.email}\n${suite.catalog.skus.mug},1\n`,
        `\uFEFF\r\n"sku",${customerId},"${CUSTOMER.email}"\r\n${suite.catalog.skus.mug},1,2\r\n`,
      ]) {
        expectError(await send(csv), 403, 4, /'catalog:read'.*e-mail/);
      }
      expect(await snapshot()).toEqual(before);
      // Customer ids, and the long format, need no more than before.
      expect((await send(`sku,${customerId}\n${suite.catalog.skus.mug},1\n`)).status).toBe(202);
      expect((await send(`customer_id,sku,price\n${customerId},${suite.catalog.skus.mug},1\n`)).status).toBe(202);
      const allowed = await api.request('POST', '/v1/imports?dryRun=true', {
        token: await keyWith(['trade_prices:write', 'catalog:read']),
        rawBody: `sku,${CUSTOMER.email}\n${suite.catalog.skus.mug},1\n`,
        headers: { 'content-type': 'text/csv' },
      });
      expect(allowed.status).toBe(202);
    });
  });
});

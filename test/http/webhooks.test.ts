import { Webhook as StandardWebhook } from 'standardwebhooks';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { EVENT_TOPICS } from '../../src/contract/events.js';
import { TIMESTAMP } from '../support/bodies.js';
import { enginesUnderTest } from '../support/engines.js';
import { suiteServer } from '../support/suite-server.js';
import type { Tenant } from '../support/test-server.js';
import { startReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';

describe.each(await enginesUnderTest())('webhook subscriptions on %s', (engine) => {
  const suite = suiteServer(engine, { env: { PRICEBOOK_WEBHOOK_ALLOW_PRIVATE: '1' }, tenants: 0 });
  let tenant: Tenant;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(() => receiver.close());
  beforeEach(async () => {
    tenant = await suite.server.createTenant();
    receiver.echoHandshake = true;
  });

  const create = (body: unknown, token = tenant.token, headers: Record<string, string> = {}) =>
    suite.server.request('POST', '/v1/webhooks', { token, body, headers });

  it('verifies the receiver before answering, and shows the secret only in the creation answer', async () => {
    const handshakesBefore = receiver.handshakes.length;
    const created = await create({ topic: 'customer.created', url: receiver.url });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(Number),
      topic: 'customer.created',
      url: receiver.url,
      active: true,
      verified: true,
      createdAt: expect.stringMatching(TIMESTAMP),
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{32}$/),
    });
    const { id, secret } = created.body as { id: number; secret: string };

    // The handshake: signed like an event, carrying a token the receiver echoed.
    expect(receiver.handshakes.length).toBe(handshakesBefore + 1);
    const handshake = receiver.handshakes.at(-1)!;
    const payload = new StandardWebhook(secret).verify(handshake.body, handshake.headers as Record<string, string>) as Record<string, unknown>;
    expect(payload).toEqual({ timestamp: expect.stringMatching(TIMESTAMP), verificationToken: expect.any(String) });

    const stored = Object.fromEntries(Object.entries(created.body as Record<string, unknown>).filter(([field]) => field !== 'secret'));
    const fetched = await suite.server.request('GET', `/v1/webhooks/${id}`, { token: tenant.token });
    expect(fetched.status).toBe(200);
    expect(fetched.body).toEqual(stored);
    const listed = await suite.server.request('GET', '/v1/webhooks?topic=customer.created', { token: tenant.token });
    expect(listed.body).toEqual([stored]);
    expect(listed.text).not.toContain('whsec_');
    expect((await suite.server.request('GET', '/v1/webhooks/count', { token: tenant.token })).body).toEqual({ count: 1 });
    expect((await suite.server.request('GET', '/v1/webhooks/count?topic=order.created', { token: tenant.token })).body).toEqual({ count: 0 });
  });

  it('keeps a webhook unverified while the receiver does not echo, until POST /verify succeeds', async () => {
    receiver.echoHandshake = false;
    const created = await create({ topic: 'product.updated', url: receiver.url });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ verified: false, active: true });
    const { id } = created.body as { id: number };

    const stillNot = await suite.server.request('POST', `/v1/webhooks/${id}/verify`, { token: tenant.token, body: {} });
    expect(stillNot.status).toBe(200);
    expect(stillNot.body).toMatchObject({ id, verified: false });

    receiver.echoHandshake = true;
    const verified = await suite.server.request('POST', `/v1/webhooks/${id}/verify`, { token: tenant.token, body: {} });
    expect(verified.status).toBe(200);
    expect(verified.body).toMatchObject({ id, verified: true });
    expect(verified.text).not.toContain('secret');
  });

  it('refuses an unknown topic, a missing url and unknown fields with 422', async () => {
    const unknownTopic = await create({ topic: 'customer.exploded', url: receiver.url });
    expect(unknownTopic.status).toBe(422);
    expect(unknownTopic.body).toMatchObject({ code: 10, errors: [expect.objectContaining({ field: 'topic' })] });
    // The message lists every allowed topic, so the caller need not look them up.
    const topicMessage = (unknownTopic.body as { errors: Array<{ message: string }> }).errors[0]!.message;
    expect(topicMessage).toBe(`must be one of: ${EVENT_TOPICS.join(', ')}`);
    const missingUrl = await create({ topic: 'customer.created' });
    expect(missingUrl.status).toBe(422);
    expect(missingUrl.body).toMatchObject({ code: 10, errors: [{ field: 'url', message: 'is required' }] });
    const extra = await create({ topic: 'customer.created', url: receiver.url, secret: 'whsec_mine' });
    expect(extra.status).toBe(422);
    expect((await suite.server.request('GET', '/v1/webhooks/count', { token: tenant.token })).body).toEqual({ count: 0 });
  });

  it('allows 10 webhooks per topic and store, not 11', async () => {
    for (let index = 0; index < 10; index += 1) {
      expect((await create({ topic: 'order.created', url: `${receiver.url}?n=${index}` })).status).toBe(201);
    }
    const eleventh = await create({ topic: 'order.created', url: receiver.url });
    expect(eleventh.status).toBe(422);
    expect(eleventh.body).toMatchObject({ code: 10, errors: [expect.objectContaining({ field: 'topic' })] });
    // Other topics and other stores have their own room.
    expect((await create({ topic: 'customer.deleted', url: receiver.url })).status).toBe(201);
    const other = await suite.server.createTenant();
    expect((await create({ topic: 'order.created', url: receiver.url }, other.token)).status).toBe(201);
  });

  it('updates topic, url and active; a new url is verified again', async () => {
    const { id } = (await create({ topic: 'category.created', url: receiver.url })).body as { id: number };
    const put = (body: unknown) => suite.server.request('PUT', `/v1/webhooks/${id}`, { token: tenant.token, body });

    expect((await put({ active: false })).body).toMatchObject({ id, active: false, verified: true });
    expect((await put({ active: true })).body).toMatchObject({ id, active: true });
    expect((await put({ topic: 'category.deleted' })).body).toMatchObject({ id, topic: 'category.deleted' });

    const handshakesBefore = receiver.handshakes.length;
    receiver.echoHandshake = false;
    const moved = await put({ url: `${receiver.url}/moved` });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ id, url: `${receiver.url}/moved`, verified: false });
    expect(receiver.handshakes.length).toBe(handshakesBefore + 1);

    expect((await put({})).status).toBe(422);
    expect((await put({ active: 'yes' })).status).toBe(422);
    expect((await put({ topic: 'nope' })).status).toBe(422);
  });

  it('deletes a webhook; another store cannot see or touch it', async () => {
    const { id } = (await create({ topic: 'customer.updated', url: receiver.url })).body as { id: number };
    const other = await suite.server.createTenant();
    expect((await suite.server.request('GET', `/v1/webhooks/${id}`, { token: other.token })).status).toBe(404);
    expect((await suite.server.request('DELETE', `/v1/webhooks/${id}`, { token: other.token })).status).toBe(404);
    expect((await suite.server.request('POST', `/v1/webhooks/${id}/verify`, { token: other.token, body: {} })).status).toBe(404);
    const deleted = await suite.server.request('DELETE', `/v1/webhooks/${id}`, { token: tenant.token });
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    expect((await suite.server.request('GET', `/v1/webhooks/${id}`, { token: tenant.token })).status).toBe(404);
  });

  it('replays an idempotent create without a second handshake or a second webhook', async () => {
    const headers = { 'idempotency-key': `hook-${Math.random()}` };
    const handshakesBefore = receiver.handshakes.length;
    const first = await create({ topic: 'customer.created', url: receiver.url }, tenant.token, headers);
    const again = await create({ topic: 'customer.created', url: receiver.url }, tenant.token, headers);
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(receiver.handshakes.length).toBe(handshakesBefore + 1);
    expect((await suite.server.request('GET', '/v1/webhooks/count', { token: tenant.token })).body).toEqual({ count: 1 });
  });

  it('needs the webhooks scope', async () => {
    const limited = await suite.server.createTenant(['catalog:read', 'catalog:write']);
    expect((await suite.server.request('GET', '/v1/webhooks', { token: limited.token })).status).toBe(403);
    expect((await create({ topic: 'customer.created', url: receiver.url }, limited.token)).status).toBe(403);
    expect((await suite.server.request('GET', '/v1/events', { token: limited.token })).status).toBe(403);
  });
});

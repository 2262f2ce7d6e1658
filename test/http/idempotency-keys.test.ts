import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { IDEMPOTENCY_TTL_MS } from '../../src/modules/idempotency/idempotency-service.js';
import { checkedClient, expectError } from '../support/conventions.js';
import { enginesUnderTest } from '../support/engines.js';
import { suiteServer } from '../support/suite-server.js';
import type { HttpResponse } from '../support/test-server.js';
import { startReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';

/** A clock the test moves; starts at a fixed moment. */
const clock = {
  at: Date.parse('2026-03-01T00:00:00.000Z'),
  now() {
    return this.at;
  },
};

let sequence = 0;
const newKey = () => `key-${++sequence}-${Math.random().toString(36).slice(2)}`;

describe.each(await enginesUnderTest())('Idempotency-Key per credential, for 24 hours, on %s', (engine) => {
  const suite = suiteServer(engine, { tenants: 1, env: { PRICEBOOK_WEBHOOK_ALLOW_PRIVATE: '1' }, services: { clock } });
  const keyOfStore = async () => (await suite.server.services.credentials.issueKey(suite.tenant.storeId)).token;
  const createCustomer = (token: string, key: string, email: string): Promise<HttpResponse> =>
    checkedClient(suite.server).request('POST', '/v1/customers', { token, body: { email }, headers: { 'idempotency-key': key } });
  const storedKeys = async (): Promise<number> => {
    const { rows } = await sql<{ n: number | string }>`select count(*) as n from idempotency_records`.execute(suite.server.services.database.db);
    return Number(rows[0]!.n);
  };

  it('another credential of the store with the same key makes its own request, never reads the first answer', async () => {
    const [first, second] = [suite.tenant.token, await keyOfStore()];
    const key = newKey();
    const a = await createCustomer(first, key, `a-${key}@example.com`);
    expect(a.status).toBe(201);

    // Same key and body from another credential: a new record, not a replay.
    const b = await createCustomer(second, key, `a-${key}@example.com`);
    expect(b.status, b.text).toBe(422); // the e-mail is taken: it really ran
    // Another body with the first credential's key is no conflict for the second credential.
    const c = await createCustomer(second, key, `c-${key}@example.com`);
    expect(c.status, c.text).toBe(201);
    expect(c.headers['idempotent-replayed']).toBeUndefined();
    expect((c.body as { id: number }).id).not.toBe((a.body as { id: number }).id);

    // Each credential replays its own answer.
    const againA = await createCustomer(first, key, `a-${key}@example.com`);
    expect(againA.headers['idempotent-replayed']).toBe('true');
    expect(againA.body).toEqual(a.body);
    const againC = await createCustomer(second, key, `c-${key}@example.com`);
    expect(againC.headers['idempotent-replayed']).toBe('true');
    expect(againC.body).toEqual(c.body);
  });

  it('a webhook’s creation answer (with its secret) is never replayed to another credential, nor after the webhook is deleted', async () => {
    const receiver: WebhookReceiver = await startReceiver();
    try {
      const api = checkedClient(suite.server);
      const [first, second] = [suite.tenant.token, await keyOfStore()];
      const key = newKey();
      const body = { topic: 'customer.created', url: receiver.url };
      const created = await api.request('POST', '/v1/webhooks', { token: first, body, headers: { 'idempotency-key': key } });
      expect(created.status, created.text).toBe(201);
      const { id, secret } = created.body as { id: number; secret: string };

      const other = await api.request('POST', '/v1/webhooks', { token: second, body, headers: { 'idempotency-key': key } });
      expect(other.status, other.text).toBe(201);
      expect(other.headers['idempotent-replayed']).toBeUndefined();
      expect(other.text).not.toContain(secret);
      expect((other.body as { id: number }).id).not.toBe(id);

      const replay = await api.request('POST', '/v1/webhooks', { token: first, body, headers: { 'idempotency-key': key } });
      expect(replay.headers['idempotent-replayed']).toBe('true');
      expect(replay.body).toEqual(created.body);

      expect((await api.request('DELETE', `/v1/webhooks/${id}`, { token: first })).status).toBe(204);
      const afterDelete = await api.request('POST', '/v1/webhooks', { token: first, body, headers: { 'idempotency-key': key } });
      expect(afterDelete.status, afterDelete.text).toBe(201);
      expect(afterDelete.headers['idempotent-replayed']).toBeUndefined();
      expect(afterDelete.text).not.toContain(secret);
      expect((afterDelete.body as { id: number }).id).not.toBe(id);
      // Nothing in the database holds the deleted webhook's secret any more.
      const { rows } = await sql<{ n: number | string }>`select count(*) as n from idempotency_records where response_body like ${`%${secret}%`}`.execute(
        suite.server.services.database.db,
      );
      expect(Number(rows[0]!.n)).toBe(0);
    } finally {
      await receiver.close();
    }
  });

  it('a key is remembered for 24 hours, then runs anew, and expired keys are purged', async () => {
    const token = suite.tenant.token;
    const key = newKey();
    const start = clock.at;
    const first = await createCustomer(token, key, `t-${key}@example.com`);
    expect(first.status).toBe(201);

    clock.at = start + IDEMPOTENCY_TTL_MS - 1;
    const within = await createCustomer(token, key, `t-${key}@example.com`);
    expect(within.headers['idempotent-replayed']).toBe('true');
    expect(within.body).toEqual(first.body);

    clock.at = start + IDEMPOTENCY_TTL_MS;
    // A day later the same key and body run again: the e-mail is taken now, so it is refused.
    const after = await createCustomer(token, key, `t-${key}@example.com`);
    expect(after.headers['idempotent-replayed']).toBeUndefined();
    expectError(after, 422, 10);
    const other = await createCustomer(token, key, `t2-${key}@example.com`);
    expect(other.status, other.text).toBe(201);

    // Everything older than a day goes; the key just stored stays.
    clock.at = start + 2 * IDEMPOTENCY_TTL_MS - 1;
    const before = await storedKeys();
    expect(before).toBeGreaterThan(1);
    let purged = 0;
    // Bounded batches: as many rounds as it takes, at most 100.
    for (let round = 0; round < 100; round++) {
      const removed = await suite.server.services.idempotency.purgeExpired(1);
      if (removed === 0) break;
      purged += removed;
    }
    expect(await storedKeys()).toBe(1);
    expect(purged).toBe(before - 1);
    const replay = await createCustomer(token, key, `t2-${key}@example.com`);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    clock.at = start;
  });

  it('two Idempotency-Key headers are a 400 (code 9) and create nothing', async () => {
    const count = async () => ((await suite.server.request('GET', '/v1/customers/count', { token: suite.tenant.token })).body as { count: number }).count;
    const before = await count();
    for (const keys of [
      ['same', 'same'],
      ['one', 'two'],
    ]) {
      const response = await suite.server.request('POST', '/v1/customers', {
        token: suite.tenant.token,
        body: { email: `two-${newKey()}@example.com` },
        headers: { 'idempotency-key': keys },
      });
      expectError(response, 400, 9, /Idempotency-Key/);
    }
    expect(await count()).toBe(before);
  });
});

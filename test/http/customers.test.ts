import { describe, expect, it } from 'vitest';
import { TIMESTAMP } from '../support/bodies.js';
import { enginesUnderTest } from '../support/engines.js';
import { suiteServer } from '../support/suite-server.js';

describe.each(await enginesUnderTest())('customers on %s', (engine) => {
  const suite = suiteServer(engine);

  it('creates, reads, updates, lists, counts and deletes', async () => {
    const created = await suite.server.request('POST', '/v1/customers', {
      token: suite.tenant.token,
      body: { email: 'Ada@Example.com', firstName: 'Ada', trade: true },
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(Number),
      email: 'Ada@Example.com',
      firstName: 'Ada',
      lastName: null,
      companyName: null,
      trade: true,
      active: true,
      priceListIds: [],
      customerGroupId: null,
      createdAt: expect.stringMatching(TIMESTAMP),
    });
    const id = (created.body as { id: number }).id;

    const fetched = await suite.server.request('GET', `/v1/customers/${id}`, { token: suite.tenant.token });
    expect(fetched.status).toBe(200);
    expect(fetched.body).toEqual(created.body);

    const updated = await suite.server.request('PUT', `/v1/customers/${id}`, { token: suite.tenant.token, body: { lastName: 'Stone', active: false } });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ id, firstName: 'Ada', lastName: 'Stone', active: false });

    const listed = await suite.server.request('GET', '/v1/customers?trade=true', { token: suite.tenant.token });
    expect(listed.body).toEqual([updated.body]);
    expect((await suite.server.request('GET', '/v1/customers/count', { token: suite.tenant.token })).body).toEqual({ count: 1 });

    const deleted = await suite.server.request('DELETE', `/v1/customers/${id}`, { token: suite.tenant.token });
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    expect((await suite.server.request('GET', `/v1/customers/${id}`, { token: suite.tenant.token })).status).toBe(404);
  });

  it('ignores a body or JSON content type sent with GET and DELETE (clients that send the header always)', async () => {
    const created = await suite.server.request('POST', '/v1/customers', { token: suite.tenant.token, body: { email: 'header@example.com' } });
    const id = (created.body as { id: number }).id;
    const json = { 'content-type': 'application/json' };
    expect((await suite.server.request('GET', `/v1/customers/${id}`, { token: suite.tenant.token, headers: json })).status).toBe(200);
    expect((await suite.server.request('GET', `/v1/customers/${id}`, { token: suite.tenant.token, headers: json, rawBody: 'not json' })).status).toBe(200);
    const deleted = await suite.server.request('DELETE', `/v1/customers/${id}`, { token: suite.tenant.token, headers: json });
    expect(deleted.status).toBe(204);
    expect((await suite.server.request('GET', `/v1/customers/${id}`, { token: suite.tenant.token })).status).toBe(404);
  });

  it.each([
    ['GET', '/v1/trade-customer-product-prices/bulk', 'POST'],
    ['DELETE', '/v1/trade-customer-product-prices/bulk', 'POST'],
    ['PUT', '/v1/customers/count', 'GET'],
    ['DELETE', '/v1/trade-customer-product-prices/effective', 'GET'],
  ])('%s on the fixed path %s is 405, not a malformed id', async (method, path, allow) => {
    const response = await suite.server.request(method, path, { token: suite.tenant.token, ...(method === 'PUT' && { body: {} }) });
    expect(response.status).toBe(405);
    expect(response.body).toMatchObject({ code: 6 });
    expect(response.headers.allow).toBe(allow);
  });

  it('refuses a second customer with the same email, ignoring case', async () => {
    await suite.server.request('POST', '/v1/customers', { token: suite.tenant.token, body: { email: 'dup@example.com' } });
    const again = await suite.server.request('POST', '/v1/customers', { token: suite.tenant.token, body: { email: 'DUP@example.com' } });
    expect(again.status).toBe(422);
    expect(again.body).toMatchObject({ code: 10, errors: [{ field: 'email' }] });
    // Another store may use it.
    expect((await suite.server.request('POST', '/v1/customers', { token: suite.other.token, body: { email: 'dup@example.com' } })).status).toBe(201);
  });

  it('hides other stores’ customers', async () => {
    const mine = await suite.server.request('POST', '/v1/customers', { token: suite.tenant.token, body: { email: 'private@example.com' } });
    const id = (mine.body as { id: number }).id;
    expect((await suite.server.request('GET', `/v1/customers/${id}`, { token: suite.other.token })).status).toBe(404);
    expect((await suite.server.request('PUT', `/v1/customers/${id}`, { token: suite.other.token, body: { firstName: 'X' } })).status).toBe(404);
    expect((await suite.server.request('DELETE', `/v1/customers/${id}`, { token: suite.other.token })).status).toBe(404);
    const still = await suite.server.request('GET', `/v1/customers/${id}`, { token: suite.tenant.token });
    expect(still.body).toEqual(mine.body);
  });
});

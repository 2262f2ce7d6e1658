import { describe, expect, it } from 'vitest';
import { expectError } from '../support/conventions.js';
import { enginesUnderTest } from '../support/engines.js';
import { asStaff, createSignedInStaff } from '../support/staff.js';
import { suiteServer } from '../support/suite-server.js';
import type { StaffRole } from '../../src/modules/staff/roles.js';

/**
 * Each role against a representative endpoint of each scope (docs/staff.md's table), API keys
 * beside staff sessions (unchanged, and with a rate-limit bucket and idempotency keys of their own).
 */
describe.each(await enginesUnderTest())('staff roles on %s', (engine) => {
  const suite = suiteServer(engine, { tenants: 2, catalogs: true, env: { PRICEBOOK_RATE_LIMIT_BUCKET: '30', PRICEBOOK_RATE_LIMIT_LEAK: '0.001' } });

  /** One representative request per scope, and whether it is a write. */
  const requests = () => ({
    'catalog:read': { method: 'GET', path: '/v1/customers' },
    'catalog:write': { method: 'POST', path: '/v1/categories', body: { title: 'Staff-made' } },
    'trade_prices:read': { method: 'GET', path: '/v1/trade-customer-product-prices' },
    'trade_prices:write': {
      method: 'POST',
      path: '/v1/trade-customer-product-prices/bulk',
      body: [{ customerId: suite.catalog.tradeCustomer, productId: suite.catalog.mug, sku: suite.catalog.skus.mug, price: 3.5 }],
    },
    'orders:read': { method: 'GET', path: '/v1/orders' },
    'orders:write': {
      method: 'POST',
      path: '/v1/orders',
      body: { customerId: suite.catalog.tradeCustomer, lines: [{ sku: suite.catalog.skus.mug, quantity: 1 }] },
    },
    webhooks: { method: 'GET', path: '/v1/events' },
  });
  const ALLOWED: Record<StaffRole, string[]> = {
    viewer: ['catalog:read', 'trade_prices:read', 'orders:read'],
    editor: ['catalog:read', 'trade_prices:read', 'orders:read', 'trade_prices:write'],
    approver: ['catalog:read', 'trade_prices:read', 'orders:read', 'trade_prices:write'],
    owner: ['catalog:read', 'catalog:write', 'trade_prices:read', 'trade_prices:write', 'orders:read', 'orders:write', 'webhooks'],
  };

  it.each(Object.keys(ALLOWED) as StaffRole[])('%s: allowed what the role’s scopes allow, 403 for the rest', async (role) => {
    const member = await createSignedInStaff(suite.server, suite.tenant.storeId, role);
    for (const [scope, request] of Object.entries(requests())) {
      const response = await suite.server.request(
        request.method,
        request.path,
        asStaff(suite.server, member.token, 'body' in request ? { body: request.body } : {}),
      );
      if (ALLOWED[role].includes(scope)) {
        expect(response.status, `${role} ${request.method} ${request.path}: ${response.text.slice(0, 200)}`).toBe(request.method === 'GET' ? 200 : 201);
      } else {
        expectError(response, 403, 4, new RegExp(`'${scope}'`));
      }
    }
  });

  it('sees only its own store', async () => {
    const member = await createSignedInStaff(suite.server, suite.tenant.storeId, 'owner');
    expectError(await suite.server.request('GET', `/v1/customers/${suite.foreign.tradeCustomer}`, asStaff(suite.server, member.token)), 404, 5);
    expect((await suite.server.request('GET', `/v1/customers/${suite.catalog.tradeCustomer}`, asStaff(suite.server, member.token))).status).toBe(200);
  });

  it('leaves API keys as they were: Authorization wins over a cookie, which is then not looked at', async () => {
    const viewer = await createSignedInStaff(suite.server, suite.tenant.storeId, 'viewer');
    // The key (all scopes) may write, with no Origin, although the viewer's cookie rides along.
    const withBoth = await suite.server.request('POST', '/v1/categories', {
      token: suite.tenant.token,
      body: { title: 'By key' },
      headers: { cookie: `pricebook_session=${viewer.token}` },
    });
    expect(withBoth.status, withBoth.text).toBe(201);
    const withJunkCookie = await suite.server.request('GET', '/v1/customers', { token: suite.tenant.token, headers: { cookie: 'pricebook_session=junk' } });
    expect(withJunkCookie.status).toBe(200);
    // A wrong key is a wrong key, whatever the cookie.
    expectError(
      await suite.server.request('GET', '/v1/customers', { token: 'pk_nope.sk_nope', headers: { cookie: `pricebook_session=${viewer.token}` } }),
      401,
      3,
    );
  });

  it('gives a staff member a rate-limit bucket of their own, apart from any key’s, shared by their sessions', async () => {
    const member = await createSignedInStaff(suite.server, suite.tenant.storeId, 'viewer');
    const other = await suite.server.services.credentials.issueKey(suite.tenant.storeId);
    // Empty the key's bucket.
    let keyAnswer = await suite.server.request('GET', '/v1/customers/count', { token: other.token });
    while (keyAnswer.status !== 429) keyAnswer = await suite.server.request('GET', '/v1/customers/count', { token: other.token });
    expect(keyAnswer.headers['retry-after']).toBeDefined();
    const staffAnswer = await suite.server.request('GET', '/v1/customers/count', asStaff(suite.server, member.token));
    expect(staffAnswer.status).toBe(200);
    const remaining = Number(staffAnswer.headers['x-rate-limit-remaining']);
    expect(staffAnswer.headers['x-rate-limit-limit']).toBe('30');
    expect(remaining).toBeGreaterThan(20);
    const again = await suite.server.request('GET', '/v1/customers/count', asStaff(suite.server, member.token));
    expect(Number(again.headers['x-rate-limit-remaining'])).toBe(remaining - 1);
  });

  it('keeps a staff member’s idempotency keys apart from a credential’s', async () => {
    const member = await createSignedInStaff(suite.server, suite.tenant.storeId, 'owner');
    const headers = { 'idempotency-key': 'staff-and-key' };
    const byKey = await suite.server.request('POST', '/v1/categories', { token: suite.tenant.token, body: { title: 'Same key' }, headers });
    const byStaff = await suite.server.request('POST', '/v1/categories', asStaff(suite.server, member.token, { body: { title: 'Same key' }, headers }));
    const replay = await suite.server.request('POST', '/v1/categories', asStaff(suite.server, member.token, { body: { title: 'Same key' }, headers }));
    expect([byKey.status, byStaff.status, replay.status]).toEqual([201, 201, 201]);
    expect((byStaff.body as { id: number }).id).not.toBe((byKey.body as { id: number }).id);
    expect(byStaff.headers['idempotent-replayed']).toBeUndefined();
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toEqual(byStaff.body);
  });
});

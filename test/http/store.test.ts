import { describe, expect, it } from 'vitest';
import { SCOPES } from '../../src/modules/stores/scopes.js';
import { expectError } from '../support/conventions.js';
import { enginesUnderTest } from '../support/engines.js';
import { suiteServer } from '../support/suite-server.js';

const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/** `GET /v1/store`: the credential's own store, with the currency every amount is in. */
describe.each(await enginesUnderTest())('the store resource on %s', (engine) => {
  const suite = suiteServer(engine);
  const get = (token: string | undefined, query = '') => suite.api.request('GET', `/v1/store${query}`, { token });

  it("answers the credential's own store, with any one scope, and its currency as set", async () => {
    const mine = await get(suite.tenant.token);
    expect(mine.status, mine.text).toBe(200);
    expect(mine.body).toEqual({
      id: suite.tenant.storeId,
      name: expect.any(String),
      currency: 'GBP',
      rounding: 'half-up',
      requireApproval: false,
      createdAt: expect.stringMatching(TIMESTAMP),
    });
    const other = await get(suite.other.token);
    expect((other.body as { id: number }).id).toBe(suite.other.storeId);

    for (const scope of SCOPES) {
      const { token } = await suite.server.services.credentials.issueKey(suite.tenant.storeId, [scope]);
      expect((await get(token)).status, scope).toBe(200);
    }
    await suite.server.services.credentials.setMoney(suite.tenant.storeId, { currency: 'JPY', rounding: 'down' });
    try {
      expect((await get(suite.tenant.token, '?fields=currency,rounding')).body).toEqual({ currency: 'JPY', rounding: 'down' });
    } finally {
      await suite.server.services.credentials.setMoney(suite.tenant.storeId, { currency: 'GBP', rounding: 'half-up' });
    }
  });

  it('says whether the store requires approval of price changes, as set-approval last set it', async () => {
    await suite.server.services.credentials.setRequireApproval(suite.tenant.storeId, true);
    try {
      expect((await get(suite.tenant.token, '?fields=requireApproval')).body).toEqual({ requireApproval: true });
      expect((await get(suite.other.token, '?fields=requireApproval')).body).toEqual({ requireApproval: false });
    } finally {
      await suite.server.services.credentials.setRequireApproval(suite.tenant.storeId, false);
    }
    expect((await get(suite.tenant.token, '?fields=requireApproval')).body).toEqual({ requireApproval: false });
  });

  it('refuses a request without a credential, and an unknown query', async () => {
    expectError(await get(undefined), 401, 3);
    expectError(await get(suite.tenant.token, '?fields=iban'), 400, 9);
    expectError(await get(suite.tenant.token, '?storeId=2'), 400, 9);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, checkedClient } from '../support/conventions.js';
import { enginesUnderTest } from '../support/engines.js';
import { startTestServer, type Tenant, type TestServer } from '../support/test-server.js';

/** One JSON line per request, with its id; credentials never written. */
describe.each(await enginesUnderTest())('request log on %s', (engine) => {
  let server: TestServer;
  let tenant: Tenant;
  const written: string[] = [];

  beforeAll(async () => {
    server = await startTestServer(engine, { PRICEBOOK_LOG_LEVEL: 'info' }, { plainHttp: true, app: { logger: { level: 'info', stream: { write: (chunk: string) => written.push(chunk) } } } });
    tenant = await server.createTenant();
  });
  afterAll(() => server.close());

  function linesOf(chunks: readonly string[]): Array<Record<string, unknown>> {
    return chunks
      .join('')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  }

  it('writes exactly one line per request, with the request id the response carries, and never a credential', async () => {
    const from = written.length;
    const basicHeader = basic(tenant.key, tenant.secret);
    const api = checkedClient(server);
    const responses = [
      await api.request('GET', '/v1/customers', { token: tenant.token }),
      await api.request('POST', '/v1/customers', { headers: { authorization: basicHeader }, body: { email: 'logged@example.com' } }),
      await api.request('GET', '/v1/customers?count=0', { token: tenant.token }),
      await api.request('POST', '/v1/customers', { token: tenant.token, body: { email: 5 } }),
      await api.request('GET', '/v1/customers', { headers: { authorization: `Bearer ${tenant.key}.${tenant.secret}x` } }),
      await api.request('GET', '/v1/customers', { headers: { authorization: basic(tenant.key, `${tenant.secret}y`) } }),
      await api.request('GET', '/v1/%zz', { token: tenant.token }),
      await api.request('GET', '/nope', { token: tenant.token }),
      await api.request('GET', '/healthz', { token: tenant.token }),
      await api.plainRequest('GET', '/v1/customers', { token: tenant.token }),
    ];
    expect(responses.map((response) => response.status)).toEqual([200, 201, 400, 422, 401, 401, 404, 404, 200, 400]);
    // The line of the last request is written when its response has finished.
    await new Promise((resolve) => setTimeout(resolve, 100));

    const lines = linesOf(written.slice(from));
    const ids = responses.map((response) => response.headers['x-request-id']);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set(ids).size).toBe(ids.length);
    const perRequest = lines.filter((line) => line.reqId !== undefined);
    // Order of writing may differ from the order of answers: compare as sets, then line by line.
    expect(perRequest.map((line) => line.reqId).sort()).toEqual([...ids].sort());
    for (const [i, response] of responses.entries()) {
      const line = perRequest.find((candidate) => candidate.reqId === response.headers['x-request-id']);
      expect(line).toMatchObject({ msg: 'request', level: 30, status: response.status, method: expect.any(String), path: expect.any(String) });
      if (i === 0) expect(line).toMatchObject({ storeId: tenant.storeId, keyId: tenant.keyId, method: 'GET', path: '/v1/customers' });
    }

    const everything = written.join('');
    for (const secret of [tenant.token, tenant.secret, basicHeader.slice('Basic '.length), `${tenant.secret}x`, basic(tenant.key, `${tenant.secret}y`).slice(6)]) {
      expect(everything).not.toContain(secret);
    }
    expect(everything).not.toMatch(/sk_[A-Za-z0-9_-]{10}/);
    expect(everything.toLowerCase()).not.toContain('authorization');
  });
});

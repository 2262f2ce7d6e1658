import { describe, expect, it } from 'vitest';
import { basic, checkedClient } from '../support/conventions.js';
import { PROTOCOL_ENGINES } from '../support/engines.js';
import { suiteServer } from '../support/suite-server.js';

/** One JSON line per request, with its id; credentials never written. */
describe.each(PROTOCOL_ENGINES)('request log on %s', (engine) => {
  const written: string[] = [];
  const suite = suiteServer(engine, {
    env: { PRICEBOOK_LOG_LEVEL: 'info' },
    plainHttp: true,
    app: { logger: { level: 'info', stream: { write: (chunk: string) => written.push(chunk) } } },
    tenants: 1,
  });

  function linesOf(chunks: readonly string[]): Array<Record<string, unknown>> {
    return chunks
      .join('')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  }

  it('writes exactly one line per request, with the request id the response carries, and never a credential', async () => {
    const from = written.length;
    const basicHeader = basic(suite.tenant.key, suite.tenant.secret);
    const api = checkedClient(suite.server);
    const responses = [
      await api.request('GET', '/v1/customers', { token: suite.tenant.token }),
      await api.request('POST', '/v1/customers', { headers: { authorization: basicHeader }, body: { email: 'logged@example.com' } }),
      await api.request('GET', '/v1/customers?count=0', { token: suite.tenant.token }),
      await api.request('POST', '/v1/customers', { token: suite.tenant.token, body: { email: 5 } }),
      await api.request('GET', '/v1/customers', { headers: { authorization: `Bearer ${suite.tenant.key}.${suite.tenant.secret}x` } }),
      await api.request('GET', '/v1/customers', { headers: { authorization: basic(suite.tenant.key, `${suite.tenant.secret}y`) } }),
      await api.request('GET', '/v1/%zz', { token: suite.tenant.token }),
      await api.request('GET', '/nope', { token: suite.tenant.token }),
      await api.request('GET', '/healthz', { token: suite.tenant.token }),
      await api.plainRequest('GET', '/v1/customers', { token: suite.tenant.token }),
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
      if (i === 0) expect(line).toMatchObject({ storeId: suite.tenant.storeId, keyId: suite.tenant.keyId, method: 'GET', path: '/v1/customers' });
    }

    const everything = written.join('');
    for (const secret of [
      suite.tenant.token,
      suite.tenant.secret,
      basicHeader.slice('Basic '.length),
      `${suite.tenant.secret}x`,
      basic(suite.tenant.key, `${suite.tenant.secret}y`).slice(6),
    ]) {
      expect(everything).not.toContain(secret);
    }
    expect(everything).not.toMatch(/sk_[A-Za-z0-9_-]{10}/);
    expect(everything.toLowerCase()).not.toContain('authorization');
  });
});

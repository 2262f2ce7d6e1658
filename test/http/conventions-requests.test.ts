import { beforeAll, describe, expect, it } from 'vitest';
import { customerCount, expectError } from '../support/conventions.js';
import { enginesUnderTest } from '../support/engines.js';
import { suiteServer } from '../support/suite-server.js';

const JSON_TYPE = { 'content-type': 'application/json' };

/** `depth` nested objects: `{"a":{"a":…{}…}}`. */
function nestedObject(depth: number): string {
  return '{"a":'.repeat(depth - 1) + '{}' + '}'.repeat(depth - 1);
}

describe.each(await enginesUnderTest())('contract §3 requests on %s', (engine) => {
  const suite = suiteServer(engine, { tenants: 1 });
  let token: string;

  beforeAll(() => {
    token = suite.tenant.token;
  });

  describe('§3.5 route and method', () => {
    it('answers an unknown path under /v1/ with 404 code 5', async () => {
      for (const urlPath of ['/v1/nope', '/v1/', '/v1/customers/1/nope', '/v1/customer', '/v1/CUSTOMERS', '/v1/%zz', '/v1/customers%2F1']) {
        expectError(await suite.api.request('GET', urlPath, { token }), 404, 5);
      }
    });

    it('answers another method on a known path with 405 code 6 and an Allow header', async () => {
      const cases: Array<[string, string, string[]]> = [
        ['PATCH', '/v1/customers', ['GET', 'POST']],
        ['DELETE', '/v1/customers', ['GET', 'POST']],
        ['PUT', '/v1/customers', ['GET', 'POST']],
        ['PATCH', '/v1/customers/1', ['DELETE', 'GET', 'PUT']],
        ['POST', '/v1/customers/1', ['DELETE', 'GET', 'PUT']],
        ['OPTIONS', '/v1/customers', ['GET', 'POST']],
        // The count route, not a customer id: only GET.
        ['PATCH', '/v1/customers/count', ['GET']],
        ['POST', '/v1/customers/count', ['GET']],
        ['HEAD', '/v1/customers', ['GET', 'POST']],
      ];
      for (const [method, urlPath, allowed] of cases) {
        const response = await suite.api.request(method, urlPath, { token });
        expect(response.status, `${method} ${urlPath}`).toBe(405);
        if (method !== 'HEAD') expectError(response, 405, 6);
        expect(String(response.headers.allow).split(/,\s*/).sort(), `${method} ${urlPath}`).toEqual(allowed);
      }
    });

    it('answers a malformed id with 404 code 5, on every method of the record', async () => {
      for (const id of ['abc', '0', '-1', '1.5', '1e3', '01', '+1', '0x10', '%20', '99999999999999999999', '9007199254740993', '1%00']) {
        for (const method of ['GET', 'PUT', 'DELETE']) {
          const response = await suite.api.request(method, `/v1/customers/${id}`, { token, ...(method === 'PUT' && { body: { firstName: 'X' } }) });
          expectError(response, 404, 5);
        }
      }
    });

    it('answers a well-formed id that names nothing with 404 code 5', async () => {
      expectError(await suite.api.request('GET', '/v1/customers/4242424242', { token }), 404, 5);
      expectError(await suite.api.request('DELETE', '/v1/customers/9007199254740991', { token }), 404, 5);
    });
  });

  describe('§3.6 scope', () => {
    it('refuses a write to a credential with catalog:read only (403 code 4) and serves its reads', async () => {
      const reader = await suite.server.services.credentials.issueKey(suite.tenant.storeId, ['catalog:read']);
      const before = await customerCount(suite.server, token);
      expectError(await suite.api.request('POST', '/v1/customers', { token: reader.token, body: { email: 'scoped@example.com' } }), 403, 4, /catalog:write/);
      expect((await suite.api.request('GET', '/v1/customers', { token: reader.token })).status).toBe(200);
      expect((await suite.api.request('GET', '/v1/customers/count', { token: reader.token })).body).toEqual({ count: before });
      expect(await customerCount(suite.server, token)).toBe(before);
    });

    it('refuses reads to a credential without catalog:read', async () => {
      const writer = await suite.server.services.credentials.issueKey(suite.tenant.storeId, ['orders:read']);
      expectError(await suite.api.request('GET', '/v1/customers', { token: writer.token }), 403, 4);
    });

    it('checks scope before content type and body (contract order)', async () => {
      const reader = await suite.server.services.credentials.issueKey(suite.tenant.storeId, ['catalog:read']);
      expectError(await suite.api.request('POST', '/v1/customers', { token: reader.token, rawBody: '{', headers: { 'content-type': 'text/plain' } }), 403, 4);
    });
  });

  describe('§3.7 content type', () => {
    it('answers POST and PUT without application/json with 415 code 7 and stores nothing', async () => {
      const created = await suite.api.request('POST', '/v1/customers', { token, body: { email: 'ct@example.com' } });
      const id = (created.body as { id: number }).id;
      const before = await customerCount(suite.server, token);
      const contentTypes: Array<string | undefined> = [
        undefined,
        'text/plain',
        'application/xml',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=x',
        'application/jsonx',
        'application/json-patch+json',
        'text/json',
        'application/json; charset=latin1',
        'json',
        '',
      ];
      for (const contentType of contentTypes) {
        const headers: Record<string, string> = contentType === undefined ? {} : { 'content-type': contentType };
        const rawBody = JSON.stringify({ email: 'not-stored@example.com', firstName: 'Changed' });
        expectError(await suite.api.request('POST', '/v1/customers', { token, rawBody, headers }), 415, 7);
        expectError(await suite.api.request('PUT', `/v1/customers/${id}`, { token, rawBody, headers }), 415, 7);
      }
      // No body and no Content-Type at all.
      expectError(await suite.api.request('POST', '/v1/customers', { token }), 415, 7);
      expect(await customerCount(suite.server, token)).toBe(before);
      expect((await suite.api.request('GET', `/v1/customers/${id}`, { token })).body).toEqual(created.body);
    });

    it('accepts application/json with parameters and in any case', async () => {
      for (const [i, contentType] of [
        'application/json; charset=utf-8',
        'application/json;charset=UTF-8',
        'Application/JSON',
        'application/json; charset="utf-8"',
      ].entries()) {
        const response = await suite.api.request('POST', '/v1/customers', {
          token,
          rawBody: JSON.stringify({ email: `typed${i}@example.com` }),
          headers: { 'content-type': contentType },
        });
        expect(response.status, contentType).toBe(201);
      }
    });
  });

  describe('§3.8 body', () => {
    it('answers a body over 1 MiB with 413 code 12', async () => {
      const before = await customerCount(suite.server, token);
      const padding = ' '.repeat(1024 * 1024);
      const response = await suite.api.request('POST', '/v1/customers', { token, rawBody: `{"email":"big@example.com"}${padding}`, headers: JSON_TYPE });
      expectError(response, 413, 12);
      expect(await customerCount(suite.server, token)).toBe(before);
    });

    it('accepts a body of just under 1 MiB (then judges its shape)', async () => {
      const rawBody = `{"email":"almost@example.com"}${' '.repeat(1024 * 1024 - 40)}`;
      const response = await suite.api.request('POST', '/v1/customers', { token, rawBody, headers: JSON_TYPE });
      expect(response.status).toBe(201);
    });

    it('answers a body that is not JSON with 400 code 8 and stores nothing', async () => {
      const before = await customerCount(suite.server, token);
      const bodies: Array<[string, string | Buffer]> = [
        ['invalid JSON', '{"email": "a@example.com",}'],
        ['truncated JSON', '{"email": "a@example.com"'],
        ['empty body', ''],
        ['whitespace only', '   \n '],
        ['single quotes', "{'email': 'a@example.com'}"],
        ['invalid UTF-8', Buffer.concat([Buffer.from('{"email":"'), Buffer.from([0xc3, 0x28, 0xff]), Buffer.from('@example.com"}')])],
        ['UTF-16', Buffer.from('{"email":"utf16@example.com"}', 'utf16le')],
        ['10 000 deep arrays', '['.repeat(10_000) + ']'.repeat(10_000)],
        ['10 000 deep, unclosed', '['.repeat(10_000)],
        ['33 deep arrays', '['.repeat(33) + ']'.repeat(33)],
        ['33 deep objects', nestedObject(33)],
        ['__proto__ key', '{"__proto__":{}}'],
        ['constructor key', '{"constructor":{}}'],
        ['escaped __proto__ key', '{"\\u005f_proto__":1}'],
        ['escaped constructor key', '{"\\u0063onstructor":1}'],
        ['nested __proto__ key', '{"email":"p@example.com","firstName":{"__proto__":{"admin":true}}}'],
        ['__proto__ in an array item', '[{"__proto__":{}}]'],
      ];
      for (const [what, rawBody] of bodies) {
        const response = await suite.api.request('POST', '/v1/customers', { token, rawBody, headers: JSON_TYPE });
        expect(response.status, what).toBe(400);
        expectError(response, 400, 8);
      }
      expect(await customerCount(suite.server, token)).toBe(before);
    });

    it('does not refuse 32 levels as too deep: the shape is judged instead (422)', async () => {
      for (const rawBody of [nestedObject(32), '['.repeat(32) + ']'.repeat(32), `{"email":"deep@example.com","firstName":${nestedObject(31)}}`]) {
        const response = await suite.api.request('POST', '/v1/customers', { token, rawBody, headers: JSON_TYPE });
        expectError(response, 422, 10);
      }
    });

    it('counts brackets inside strings as text, not nesting', async () => {
      const response = await suite.api.request('POST', '/v1/customers', {
        token,
        rawBody: JSON.stringify({ email: 'brackets@example.com', firstName: `${'['.repeat(100)}\\"{`, lastName: 'constructor __proto__' }),
        headers: JSON_TYPE,
      });
      expect(response.status).toBe(201);
    });
  });

  describe('§3.9 query parameters', () => {
    it('answers a malformed or out-of-range parameter with 400 code 9 naming it', async () => {
      const cases: Array<[string, string]> = [
        ['count=0', 'count'],
        ['count=101', 'count'],
        ['count=-1', 'count'],
        ['count=abc', 'count'],
        ['count=1.5', 'count'],
        ['count=1e1', 'count'],
        ['count=', 'count'],
        ['count=%2010', 'count'],
        ['count=0x10', 'count'],
        ['count=99999999999999999999', 'count'],
        ['offset=-1', 'offset'],
        ['offset=1.0', 'offset'],
        ['offset=x', 'offset'],
        ['count=1&count=2', 'count'],
        ['unknownParam=1', 'unknownParam'],
        ['fields=unknownField', 'fields'],
        ['fields=id,nope', 'fields'],
        ['fields=', 'fields'],
        ['embed=nope', 'embed'],
        ['trade=yes', 'trade'],
        ['__proto__=1', '__proto__'],
      ];
      for (const [query, parameter] of cases) {
        const response = await suite.api.request('GET', `/v1/customers?${query}`, { token });
        expect(response.status, query).toBe(400);
        expectError(response, 400, 9);
        expect((response.body as { message: string }).message, query).toContain(`'${parameter}'`);
      }
      expectError(await suite.api.request('GET', '/v1/customers/count?count=5', { token }), 400, 9, /'count'/);
      expectError(await suite.api.request('GET', '/v1/customers/1?offset=1', { token }), 400, 9, /'offset'/);
    });

    it('lists by id ascending with count default 50 and maximum 100, offset skipping', async () => {
      const store = await suite.server.createTenant();
      for (let i = 0; i < 105; i++) {
        const created = await suite.api.request('POST', '/v1/customers', {
          token: store.token,
          body: { email: `list${String(i).padStart(3, '0')}@example.com`, trade: i % 2 === 0 },
        });
        expect(created.status).toBe(201);
      }
      const all = await suite.api.request('GET', '/v1/customers?count=100', { token: store.token });
      const ids = (all.body as Array<{ id: number }>).map((customer) => customer.id);
      expect(ids).toHaveLength(100);
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
      expect(new Set(ids).size).toBe(100);

      const defaults = await suite.api.request('GET', '/v1/customers', { token: store.token });
      expect((defaults.body as unknown[]).length).toBe(50);
      expect((defaults.body as Array<{ id: number }>).map((c) => c.id)).toEqual(ids.slice(0, 50));

      const page = await suite.api.request('GET', '/v1/customers?count=10&offset=95', { token: store.token });
      const pageIds = (page.body as Array<{ id: number }>).map((c) => c.id);
      expect(pageIds).toHaveLength(10);
      expect(pageIds.slice(0, 5)).toEqual(ids.slice(95, 100));
      expect((await suite.api.request('GET', '/v1/customers?offset=105', { token: store.token })).body).toEqual([]);

      expect((await suite.api.request('GET', '/v1/customers/count', { token: store.token })).body).toEqual({ count: 105 });
      expect((await suite.api.request('GET', '/v1/customers/count?trade=true', { token: store.token })).body).toEqual({ count: 53 });
      const trade = await suite.api.request('GET', '/v1/customers?trade=true&count=100', { token: store.token });
      expect((trade.body as unknown[]).length).toBe(53);
    });

    it('returns exactly the fields asked for, on lists and single records', async () => {
      const created = await suite.api.request('POST', '/v1/customers', { token, body: { email: 'fields@example.com', firstName: 'F' } });
      const id = (created.body as { id: number }).id;
      const list = await suite.api.request('GET', '/v1/customers?fields=id,email', { token });
      expect(list.status).toBe(200);
      expect((list.body as unknown[]).length).toBeGreaterThan(0);
      for (const item of list.body as Array<Record<string, unknown>>) expect(Object.keys(item).sort()).toEqual(['email', 'id']);
      const one = await suite.api.request('GET', `/v1/customers/${id}?fields=firstName`, { token });
      expect(one.body).toEqual({ firstName: 'F' });
    });
  });

  describe('§3.10 validation', () => {
    it('answers wrong shapes with 422 code 10 naming each field, and stores nothing', async () => {
      const store = await suite.server.createTenant();
      const cases: Array<[string, string, Array<string | null>]> = [
        ['email as a number', '{"email":5}', ['email']],
        ['trade as a string', '{"email":"t@example.com","trade":"true"}', ['trade']],
        ['active as a number', '{"email":"t@example.com","active":1}', ['active']],
        ['active as null', '{"email":"t@example.com","active":null}', ['active']],
        ['unknown field', '{"email":"t@example.com","nickname":"T"}', ['nickname']],
        ['id sent by the client', '{"email":"t@example.com","id":7}', ['id']],
        ['missing email', '{"firstName":"T"}', ['email']],
        ['empty object', '{}', ['email']],
        ['not an email', '{"email":"not-an-email"}', ['email']],
        ['empty first name', '{"email":"t@example.com","firstName":""}', ['firstName']],
        ['three problems at once', '{"email":5,"trade":"no","extra":1}', ['email', 'extra', 'trade']],
        ['null body', 'null', [null]],
        ['array body', '[{"email":"t@example.com"}]', [null]],
        ['string body', '"t@example.com"', [null]],
        ['number body', '42', [null]],
      ];
      for (const [what, rawBody, fields] of cases) {
        const response = await suite.api.request('POST', '/v1/customers', { token: store.token, rawBody, headers: JSON_TYPE });
        expect(response.status, what).toBe(422);
        expectError(response, 422, 10);
        const errors = (response.body as { errors: Array<{ field: string | null; index?: number }> }).errors;
        expect([...new Set(errors.map((problem) => problem.field))].sort(), what).toEqual(fields);
        for (const problem of errors) expect(problem.index, `${what}: no index on a single-object body`).toBeUndefined();
      }
      expect((await suite.api.request('GET', '/v1/customers/count', { token: store.token })).body).toEqual({ count: 0 });
    });

    it('validates updates the same way, and leaves the record as it was', async () => {
      const created = await suite.api.request('POST', '/v1/customers', { token, body: { email: 'update@example.com' } });
      const id = (created.body as { id: number }).id;
      for (const [rawBody, field] of [
        ['{"trade":"true"}', 'trade'],
        ['{"email":null}', 'email'],
        ['{"createdAt":"2020-01-01T00:00:00.000Z"}', 'createdAt'],
        ['{}', null],
        ['[]', null],
      ] as const) {
        const response = await suite.api.request('PUT', `/v1/customers/${id}`, { token, rawBody, headers: JSON_TYPE });
        expectError(response, 422, 10);
        expect((response.body as { errors: Array<{ field: string | null }> }).errors.map((problem) => problem.field)).toContain(field);
      }
      expect((await suite.api.request('GET', `/v1/customers/${id}`, { token })).body).toEqual(created.body);
    });
  });
});

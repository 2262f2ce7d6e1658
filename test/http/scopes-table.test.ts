import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_TOPICS, type EventTopic } from '../../src/contract/events.js';
import { READ_SCOPE_OF_TOPIC } from '../../src/modules/events/topic-scopes.js';
import { SCOPES, type Scope } from '../../src/modules/stores/scopes.js';
import { checkedClient, expectError } from '../support/conventions.js';
import { enginesUnderTest } from '../support/engines.js';
import { type EndpointRow, type Needs, readScopesDoc, rowKey, SCOPES_DOC } from '../support/scopes-doc.js';
import { STAFF_ROLES, SCOPES_OF_ROLE, type StaffRole } from '../../src/modules/staff/roles.js';
import { asStaff, createSignedInStaff } from '../support/staff.js';
import { snapshotStore } from '../support/store-snapshot.js';
import { suiteServer } from '../support/suite-server.js';
import type { HttpResponse, RequestOptions } from '../support/test-server.js';
import { startReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';

/**
 * docs/scopes.md is the contract of scopes: this suite reads its tables and sends every row.
 * For each row, a key of every single scope that lacks one the row lists, and the row's scopes
 * with any one of them left out, get 403 (code 4) naming a missing scope, and the store stays
 * as it was (no handshake either); a key with exactly the listed scopes gets anything but 401
 * or 403 (a dummy id's 404, a dummy body's 422). A staff member of each role (docs/staff.md) is
 * refused the same way when the role lacks a scope the row lists, and reads (GET) when it has
 * them. Rows that depend on a webhook's topic run once
 * per read scope of the topics table. The page must also name every operation of the API.
 */
const doc = readScopesDoc();
const DUMMY_ID = 999_999_999;

/** One topic for each read scope: the first of the topics table's order. */
const TOPIC_OF_SCOPE = new Map<Scope, EventTopic>();
for (const topic of EVENT_TOPICS) if (!TOPIC_OF_SCOPE.has(READ_SCOPE_OF_TOPIC[topic])) TOPIC_OF_SCOPE.set(READ_SCOPE_OF_TOPIC[topic], topic);
const TOPIC_SCOPES = [...TOPIC_OF_SCOPE.keys()];

interface Variant {
  row: EndpointRow;
  label: string;
  /** The row's scopes with its placeholders filled in. */
  needed: Scope[];
  /** The webhook's topic (or the one a create or `topic=` names). */
  topic?: EventTopic;
  /** The topic a change sends. */
  newTopic?: EventTopic;
}

/** A row as requests: one, or one per read scope when it depends on a topic. */
function variantsOf(row: EndpointRow): Variant[] {
  if (row.topics.length === 0) return [{ row, label: rowKey(row), needed: [...row.scopes] }];
  return TOPIC_SCOPES.map((scope, index) => {
    const topic = TOPIC_OF_SCOPE.get(scope)!;
    const newTopic = row.topics.includes('new topic') ? TOPIC_OF_SCOPE.get(TOPIC_SCOPES[(index + 1) % TOPIC_SCOPES.length]!)! : undefined;
    const needed = [...new Set([...row.scopes, scope, ...(newTopic === undefined ? [] : [READ_SCOPE_OF_TOPIC[newTopic]])])];
    return { row, label: `${rowKey(row)} (topic ${topic}${newTopic === undefined ? '' : `, new topic ${newTopic}`})`, needed, topic, newTopic };
  });
}

const variants = doc.endpoints.flatMap(variantsOf);

/** The keys a variant is sent with, and whether each must be refused. */
function keysOf(variant: Variant): Array<{ scopes: Scope[]; allowed: boolean }> {
  const needed = new Set(variant.needed);
  const keys = new Map<string, { scopes: Scope[]; allowed: boolean }>();
  const add = (scopes: Scope[]) => {
    if (scopes.length > 0) keys.set(setKey(scopes), { scopes, allowed: [...needed].every((scope) => scopes.includes(scope)) });
  };
  for (const scope of SCOPES) add([scope]);
  add([...needed]);
  for (const left of needed) add([...needed].filter((scope) => scope !== left));
  return [...keys.values()];
}

function setKey(scopes: readonly Scope[]): string {
  return [...scopes].sort().join(' ');
}

describe('docs/scopes.md', () => {
  it('lists each request once', () => {
    const keys = doc.endpoints.map(rowKey);
    expect(keys.filter((key, index) => keys.indexOf(key) !== index)).toEqual([]);
  });

  it('gives every topic the read scope the server gives it', () => {
    expect(Object.fromEntries(doc.topicScopes)).toEqual(READ_SCOPE_OF_TOPIC);
  });

  it('gives each admin view and CLI command exactly the scopes of the calls it makes', () => {
    const byKey = new Map(doc.endpoints.map((row) => [rowKey(row), row]));
    for (const entry of [...doc.admin, ...doc.cli]) {
      const union: Needs = { scopes: [], topics: [] };
      for (const call of entry.calls) {
        const row = byKey.get(rowKey(call));
        expect(row, `docs/scopes.md line ${entry.line}: ${rowKey(call)} is not a row of the endpoints table`).toBeDefined();
        union.scopes.push(...row!.scopes);
        union.topics.push(...row!.topics);
      }
      expect(
        { scopes: [...new Set(entry.scopes)].sort(), topics: [...new Set(entry.topics)].sort() },
        `docs/scopes.md line ${entry.line}: ${entry.name}`,
      ).toEqual({
        scopes: [...new Set(union.scopes)].sort(),
        topics: [...new Set(union.topics)].sort(),
      });
    }
  });
});

describe.each(await enginesUnderTest())('every row of docs/scopes.md on %s', (engine) => {
  // Staff members send every row too: their bucket must not run dry on the walk.
  const suite = suiteServer(engine, { tenants: 1, env: { PRICEBOOK_WEBHOOK_ALLOW_PRIVATE: '1', PRICEBOOK_RATE_LIMIT_BUCKET: '100000' } });
  let receiver: WebhookReceiver;
  const tokens = new Map<string, string>();
  const tokenOf = (scopes: readonly Scope[]) => tokens.get(setKey(scopes))!;
  /** A signed-in staff member of each role: their session cookie's token. */
  const sessions = new Map<StaffRole, string>();
  const roleAllows = (role: StaffRole, variant: Variant) => variant.needed.every((scope) => SCOPES_OF_ROLE[role].includes(scope));

  beforeAll(async () => {
    receiver = await startReceiver();
    // Every key of the walk, made before it: the store's rows must not change while it runs.
    const sets = new Map<string, Scope[]>();
    for (const variant of variants) for (const { scopes } of keysOf(variant)) sets.set(setKey(scopes), scopes);
    for (const [key, scopes] of sets) tokens.set(key, (await suite.server.services.credentials.issueKey(suite.tenant.storeId, scopes)).token);
    for (const role of STAFF_ROLES) sessions.set(role, (await createSignedInStaff(suite.server, suite.tenant.storeId, role)).token);
  });
  afterAll(() => receiver.close());

  it('names every operation of the API, and only routes the server has', async () => {
    const response = await suite.server.request('GET', '/openapi.json');
    const paths = (
      response.body as {
        paths: Record<
          string,
          Record<string, { description?: string; parameters?: Array<{ in: string; name: string; description?: string; schema?: { description?: string } }> }>
        >;
      }
    ).paths;
    const documented = new Set(doc.endpoints.map(rowKey));
    const operations = Object.entries(paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, operation]) => ({ method: method.toUpperCase(), path, operation })),
    );
    // A staff session's own operations, and the store's own record, need no scope (their description says so): the page names them in its text instead.
    const unscoped = (operation: { description?: string }) => (operation.description ?? '').includes('No scope:');
    const apiOperations = operations.filter(({ path, operation }) => path.startsWith('/v1/') && !unscoped(operation));
    expect(apiOperations.length).toBeGreaterThan(50);
    const baseRows = new Map(doc.endpoints.filter((row) => row.with === '').map((row) => [rowKey(row), row]));
    for (const { method, path, operation } of apiOperations) {
      const row = baseRows.get(rowKey({ method, path, with: '' }));
      expect(row, `${method} ${path} is not in docs/scopes.md`).toBeDefined();
      // The document states the route's own scopes, as the page does (topics aside).
      const stated = /Scopes?: ((?:`[^`]+`(?:, )?)+)\./.exec(operation.description ?? '')?.[1]?.match(/[^`, ]+/g) ?? [];
      expect([...stated].sort(), `${method} ${path}: the OpenAPI description's scopes`).toEqual([...row!.scopes].sort());
      // Every object `embed=` may add has a row of its own.
      const embed = operation.parameters?.find((parameter) => parameter.in === 'query' && parameter.name === 'embed');
      const names = (embed?.description ?? embed?.schema?.description ?? '').split(': ')[1]?.split(', ') ?? [];
      if (embed !== undefined) expect(names.length, `${method} ${path}: embed names`).toBeGreaterThan(0);
      for (const name of names)
        expect(documented.has(rowKey({ method, path, with: `embed=${name}` })), `${method} ${path} with embed=${name} is not in docs/scopes.md`).toBe(true);
    }
    // The paths without a credential are named in the page's text.
    const text = fs.readFileSync(SCOPES_DOC, 'utf8').replace(/\s+/g, ' ');
    for (const { method, path } of operations.filter((operation) => !operation.path.startsWith('/v1/') || unscoped(operation.operation))) {
      expect(text, `${method} ${path} is not named in docs/scopes.md`).toContain(`\`${method} ${path}\``);
    }
    for (const row of doc.endpoints) {
      expect(
        suite.server.app.hasRoute({ method: row.method as 'GET', url: row.path.replace(/\{(\w+)\}/g, ':$1') }),
        `docs/scopes.md line ${row.line}: ${row.method} ${row.path} is no route`,
      ).toBe(true);
    }
  });

  it.each(variants.map((variant) => [variant.label, variant] as const))('%s', async (_label, variant) => {
    const api = checkedClient(suite.server);
    const request = await prepare(variant);
    try {
      const keys = keysOf(variant);
      const before = await snapshotStore(suite.server.services.database, suite.tenant.storeId);
      const handshakes = receiver.handshakes.length;
      for (const key of keys.filter((candidate) => !candidate.allowed)) {
        const missing = variant.needed.filter((scope) => !key.scopes.includes(scope));
        const refused = await api.request(variant.row.method, request.path, { ...request.options, token: tokenOf(key.scopes) });
        expectError(refused, 403, 4);
        const message = (refused.body as { message: string }).message;
        expect(
          missing.some((scope) => message.includes(`'${scope}'`)),
          `${variant.label} with [${key.scopes.join(', ')}]: '${message}' names none of ${missing.join(', ')}`,
        ).toBe(true);
      }
      // Staff roles (docs/staff.md): a role whose scopes lack one the row needs is refused the same
      // way; one that has them reads (a write is left to the key below, so the row's record is made once).
      for (const role of STAFF_ROLES) {
        const allowed = roleAllows(role, variant);
        if (allowed && variant.row.method !== 'GET') continue;
        const answer = await api.request(variant.row.method, request.path, asStaff(suite.server, sessions.get(role)!, request.options));
        if (allowed) expect([401, 403], `${variant.label} as ${role}: ${answer.status} ${answer.text.slice(0, 200)}`).not.toContain(answer.status);
        else {
          expectError(answer, 403, 4);
          const missing = variant.needed.filter((scope) => !SCOPES_OF_ROLE[role].includes(scope));
          expect(
            missing.some((scope) => (answer.body as { message: string }).message.includes(`'${scope}'`)),
            `${variant.label} as ${role} names none of ${missing.join(', ')}`,
          ).toBe(true);
        }
      }
      expect(receiver.handshakes.length, 'a refused request sent a handshake').toBe(handshakes);
      expect(await snapshotStore(suite.server.services.database, suite.tenant.storeId), 'a refused request changed the store').toEqual(before);

      const allowed = await api.request(variant.row.method, request.path, { ...request.options, token: tokenOf(variant.needed) });
      expect([401, 403], `${variant.label} with exactly [${variant.needed.join(', ')}]: ${allowed.status} ${allowed.text.slice(0, 200)}`).not.toContain(
        allowed.status,
      );
      await request.after?.(allowed);
    } finally {
      await request.cleanup?.();
    }
  });

  interface Prepared {
    path: string;
    options: RequestOptions;
    /** Runs on the answer to the allowed key. */
    after?: (response: HttpResponse) => Promise<void>;
    cleanup?: () => Promise<void>;
  }

  /** The request a row describes: dummy ids and bodies unless the row needs a real record. */
  async function prepare(variant: Variant): Promise<Prepared> {
    const { row, topic, newTopic } = variant;
    const full = suite.tenant.token;
    let path = row.path.replace(/\{\w+\}/g, String(DUMMY_ID));
    let body: unknown = row.method === 'POST' || row.method === 'PUT' ? {} : undefined;
    let csv: string | undefined;
    let after: Prepared['after'];
    let cleanup: Prepared['cleanup'];
    const removeWebhook = async (id: number) => {
      const response = await suite.server.request('DELETE', `/v1/webhooks/${id}`, { token: full });
      expect([204, 404]).toContain(response.status);
    };

    switch (`${row.method} ${row.path}`) {
      case 'POST /v1/customers':
        body = { email: 'not an e-mail address' };
        break;
      case 'POST /v1/customers/bulk':
        body = [{ email: 'not an e-mail address' }];
        break;
      case 'POST /v1/products/bulk':
        body = [{ title: 'Scoped', price: -1 }];
        break;
      case 'POST /v1/skus/lookup':
        body = { skus: ['NO-SUCH-SKU'] };
        break;
      case 'PUT /v1/customers/{id}':
        body = { firstName: 'Scoped' };
        break;
      case 'POST /v1/trade-customer-product-prices/replace':
        body = { customerId: DUMMY_ID, scope: 'customer', prices: [] };
        break;
      case 'POST /v1/imports':
        csv = `customer_id,sku,price\n${DUMMY_ID},NO-SUCH-SKU,1\n`;
        after = async (response) => {
          // The import runs in the background: let it end before the next row's snapshot.
          if (response.status === 202) await importEnded((response.body as { id: number }).id);
        };
        break;
      case 'POST /v1/webhooks':
        body = { topic: required(topic), url: receiver.url };
        after = async (response) => {
          if (response.status === 201) await removeWebhook((response.body as { id: number }).id);
        };
        break;
      case 'GET /v1/webhooks/{id}':
      case 'PUT /v1/webhooks/{id}':
      case 'POST /v1/webhooks/{id}/verify':
      case 'GET /v1/webhooks/{id}/deliveries':
      case 'DELETE /v1/webhooks/{id}': {
        const created = await suite.server.request('POST', '/v1/webhooks', { token: full, body: { topic: required(topic), url: receiver.url } });
        expect(created.status, created.text).toBe(201);
        const id = (created.body as { id: number }).id;
        path = row.path.replace('{id}', String(id));
        if (row.method === 'PUT') body = { active: true };
        cleanup = () => removeWebhook(id);
        break;
      }
      default:
        if (row.topics.length > 0 && row.with !== 'topic=') throw new Error(`${rowKey(row)}: the test does not know which record its topic is read from`);
    }

    switch (row.with) {
      case '':
        break;
      case 'priceListIds':
      case 'customerGroupId':
      case 'dryRun: true':
      case 'topic': {
        const fields: Record<string, [string, unknown]> = {
          priceListIds: ['priceListIds', []],
          customerGroupId: ['customerGroupId', null],
          'dryRun: true': ['dryRun', true],
        };
        const [field, value] = row.with === 'topic' ? ['topic', required(newTopic)] : fields[row.with]!;
        // A bulk body carries the field on its items.
        body = Array.isArray(body) ? body.map((item: object) => ({ ...item, [field]: value })) : { ...(body as object), [field]: value };
        break;
      }
      case 'topic=':
        path += `?topic=${required(topic)}`;
        break;
      case 'a matrix naming customers by e-mail':
        csv = 'sku,nobody@example.com\nNO-SUCH-SKU,1\n';
        break;
      default:
        // A query parameter as it is sent: `embed=customer`, `dryRun=true`.
        if (!/^[a-zA-Z]+=[\w,]+$/.test(row.with)) throw new Error(`docs/scopes.md line ${row.line}: the test does not know how to send '${row.with}'`);
        path += `?${row.with}`;
    }

    const options: RequestOptions = csv === undefined ? (body === undefined ? {} : { body }) : { rawBody: csv, headers: { 'content-type': 'text/csv' } };
    return { path, options, after, cleanup };
  }

  /** Once the import has ended and its process has cleaned up after it (the row's `cleanup` mark, which the snapshot sees, is cleared last). */
  async function importEnded(id: number): Promise<void> {
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline) {
      const response = await suite.server.request('GET', `/v1/imports/${id}`, { token: suite.tenant.token });
      const ended = ['succeeded', 'failed'].includes((response.body as { status: string }).status);
      const row = await suite.server.services.database.db.selectFrom('imports').select('cleanup').where('id', '=', id).executeTakeFirst();
      if (ended && Number(row?.cleanup) === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error(`import ${id} did not end and get cleaned up within 20 s`);
  }
});

function required<T>(value: T | undefined): T {
  if (value === undefined) throw new Error('a topic the row needs is missing');
  return value;
}

import fs from 'node:fs';
import Fastify from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { registerApprovalGuard } from '../../src/http/plugins/approval-guard.js';
import type { CredentialService } from '../../src/modules/stores/credential-service.js';
import { expectError } from '../support/conventions.js';
import { enginesUnderTest } from '../support/engines.js';
import { code, table } from '../support/scopes-doc.js';
import { asStaff, createSignedInStaff } from '../support/staff.js';
import { suiteServer } from '../support/suite-server.js';
import type { RequestOptions } from '../support/test-server.js';

/**
 * docs/change-sets.md's table of the writes refused where a store requires approval is the
 * contract: the OpenAPI document must say the same of each operation (the routes' declarations
 * write it), and every write of the API is sent on such a store, by a key of the default scopes
 * and by an owner's session, to see it refused (403, code 18) exactly as its row says: always;
 * with each field listed, not without; not with a dry run or into a change set; never for a
 * write the table does not list. A route without a declaration does not get this far: the app
 * is not built.
 */
const DOC = 'docs/change-sets.md';
const SENTENCE = /Where the store requires approval, refused \(403, code 18\) without `trade_prices:direct`: ([^.]+)\./;
const DUMMY_ID = 999_999_999;

interface Row {
  method: string;
  path: string;
  refused: string;
  line: number;
}

function readTable(): Row[] {
  const lines = fs.readFileSync(new URL(`../../${DOC}`, import.meta.url), 'utf8').split('\n');
  return table(lines, ['method', 'path', 'refused'], DOC).map(({ cells: [method, path, refused], line }) => ({
    method: code(method!, line, DOC),
    path: code(path!, line, DOC),
    refused: refused!,
    line,
  }));
}

const rows = readTable();
const keyOf = (row: { method: string; path: string }) => `${row.method} ${row.path}`;

/** The condition's parts: `with` fields, `unless` exemptions (`dryRun: true`, `dryRun=true`, `changeSet=`). */
function partsOf(refused: string): { kind: 'always' | 'with' | 'unless'; parts: string[] } {
  if (refused === 'always') return { kind: 'always', parts: [] };
  const match = /^(with|unless) (.+)$/.exec(refused);
  if (match === null) throw new Error(`${DOC}: '${refused}' is neither always, with … nor unless …`);
  return { kind: match[1] as 'with' | 'unless', parts: [...match[2]!.matchAll(/`([^`]+)`/g)].map((found) => found[1]!) };
}

describe('the declaration of price changes', () => {
  it('is required of every write under /v1/: the app is not built with a route that forgets it', async () => {
    const app = Fastify();
    // Registering routes reads no store.
    registerApprovalGuard(app, {} as CredentialService);
    expect(() => app.post('/v1/new-prices', async () => ({}))).toThrow(/POST \/v1\/new-prices declares no config.priceChange/);
    expect(() => app.delete('/v1/new-prices/:id', async () => ({}))).toThrow(/declares no config.priceChange/);
    app.post('/v1/declared-prices', { config: { priceChange: 'always' } }, async () => ({}));
    app.get('/v1/new-prices', async () => []);
    app.post('/v1/session-like', { config: { staffSession: true } }, async () => ({}));
    await app.ready();
    await app.close();
  });
});

describe(`${DOC}'s table of direct price writes`, () => {
  it('lists each operation once, each refusal in words the routes use', () => {
    const keys = rows.map(keyOf);
    expect(keys.filter((key, index) => keys.indexOf(key) !== index)).toEqual([]);
    for (const row of rows) expect(() => partsOf(row.refused), `${DOC} line ${row.line}`).not.toThrow();
  });
});

describe.each(await enginesUnderTest())('every write of the API where the store requires approval, on %s', (engine) => {
  const suite = suiteServer(engine, { tenants: 1 });
  let plainKey: string;
  let owner: string;

  beforeAll(async () => {
    const { server, tenant } = suite;
    plainKey = (await server.services.credentials.issueKey(tenant.storeId)).token;
    owner = (await createSignedInStaff(server, tenant.storeId, 'owner')).token;
    await server.services.credentials.setRequireApproval(tenant.storeId, true);
  });

  /** Every write operation under `/v1/` of the OpenAPI document, with what its description says of approval. */
  async function writeOperations(): Promise<Array<{ method: string; path: string; csv: boolean; refused: string | undefined }>> {
    const document = (await suite.server.request('GET', '/openapi.json')).body as {
      paths: Record<string, Record<string, { description?: string; requestBody?: { content?: Record<string, unknown> } }>>;
    };
    return Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([method]) => ['post', 'put', 'delete'].includes(method) && path.startsWith('/v1/') && !path.startsWith('/v1/session'))
        .map(([method, operation]) => ({
          method: method.toUpperCase(),
          path,
          csv: Object.keys(operation.requestBody?.content ?? {}).includes('text/csv'),
          refused: SENTENCE.exec(operation.description ?? '')?.[1],
        })),
    );
  }

  it('says in the OpenAPI document, of each operation, what the table says', async () => {
    const operations = await writeOperations();
    expect(operations.length).toBeGreaterThan(40);
    const declared = Object.fromEntries(
      operations.filter((operation) => operation.refused !== undefined).map((operation) => [keyOf(operation), operation.refused]),
    );
    expect(declared).toEqual(Object.fromEntries(rows.map((row) => [keyOf(row), row.refused])));
  });

  it('refuses each write as its row says, and no other', async () => {
    const { server, tenant } = suite;
    const byKey = new Map(rows.map((row) => [keyOf(row), row]));
    for (const operation of await writeOperations()) {
      const row = byKey.get(keyOf(operation));
      const condition = row === undefined ? undefined : partsOf(row.refused);
      const path = operation.path.replace(/\{\w+\}/g, String(DUMMY_ID));
      const bulk = operation.path.endsWith('/bulk');
      /** The request with `fields` in its body (on its item, for a bulk body) and `query`. */
      const request = (fields: Record<string, unknown>, query = ''): { path: string; options: RequestOptions } => {
        if (operation.csv) return { path: `${path}${query}`, options: { rawBody: 'sku,price\nNO-SUCH-SKU,1\n', headers: { 'content-type': 'text/csv' } } };
        if (operation.method === 'DELETE') return { path: `${path}${query}`, options: {} };
        return { path: `${path}${query}`, options: { body: bulk ? [fields] : fields } };
      };
      const sendBoth = async (sent: { path: string; options: RequestOptions }, refused: boolean, what: string) => {
        for (const [who, options] of [
          ['a key of the default scopes', { ...sent.options, token: plainKey }],
          ['an owner', asStaff(server, owner, sent.options)],
        ] as const) {
          const answer = await server.request(operation.method, sent.path, options);
          const label = `${keyOf(operation)} ${what} by ${who}: ${answer.status} ${answer.text.slice(0, 160)}`;
          if (refused) expectError(answer, 403, 18);
          else expect((answer.body as { code?: number } | undefined)?.code, label).not.toBe(18);
          // A dry run's import is queued: let it end before the next request.
          if (answer.status === 202) await importEnded((answer.body as { id: number }).id, tenant.token);
        }
      };
      if (condition === undefined) await sendBoth(request({}), false, '(not listed)');
      else if (condition.kind === 'always') await sendBoth(request({}), true, 'always');
      else if (condition.kind === 'with') {
        await sendBoth(request({}), false, 'without the fields');
        for (const field of condition.parts) await sendBoth(request({ [field]: null }), true, `with ${field}`);
      } else {
        await sendBoth(request({}), true, 'as it is');
        for (const part of condition.parts) {
          if (part === 'dryRun: true') await sendBoth(request({ dryRun: true }), false, 'with dryRun: true');
          else if (part === 'dryRun=true') await sendBoth(request({}, '?dryRun=true'), false, 'with dryRun=true');
          else if (part === 'changeSet=') await sendBoth(request({}, `?changeSet=${DUMMY_ID}`), false, 'into a change set');
          else throw new Error(`${DOC} line ${row!.line}: the test does not know how to send '${part}'`);
        }
      }
    }
  });

  async function importEnded(id: number, token: string): Promise<void> {
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline) {
      const { status } = (await suite.server.request('GET', `/v1/imports/${id}`, { token })).body as { status: string };
      if (status === 'succeeded' || status === 'failed') return;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error(`import ${id} did not end within 20 s`);
  }
});

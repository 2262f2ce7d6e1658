import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, checkedClient, expectError, expectWellFormed } from '../support/conventions.js';
import { createCatalog } from '../support/catalog-fixture.js';
import { enginesUnderTest } from '../support/engines.js';
import { type HttpResponse, startTestServer, type Tenant, type TestServer } from '../support/test-server.js';
import { type FuzzCase, fuzzCase, type Pools } from './support/hostile-input.js';
import { offlineWebhooks } from './support/offline-webhooks.js';
import { type Operation, readOperations } from './support/openapi-operations.js';
import { type Counterexample, keepFailure, readRegressions, replayCommand, toCounterexample, toFuzzCase } from './support/fuzz-regressions.js';
import { figure, faultSeed, reportLine } from './support/report.js';
import { rowsIn, snapshotStore, type StoreSnapshot } from '../support/store-snapshot.js';
import { PLANTED_FAULTS } from './support/planted-faults.js';
import { idCount, idsOf, type StoreIds, victimIdsIn } from './support/leak-check.js';
import { SOAK, strength } from './support/strength.js';

/**
 * Hostile input: fast-check requests to every route of the OpenAPI document, aimed a little
 * or wholly wrong (types, ranges, nesting, duplicate and prototype keys, invalid UTF-8, long
 * strings, 10 000-item arrays, odd headers, ids of another store). The fuzzing credentials
 * belong to one store; a victim store's rows must be the same afterwards, and no answer may
 * carry the victim's marker or the id of any of its records. Every answer: no 5xx, JSON, the
 * contract's error shape. The negative control plants a leak and must see it.
 */
/**
 * Cases of a run, shared by the engines: 1 500 each on SQLite and PostgreSQL (10 000 each in
 * the soak), each engine from its own seed (the run's, plus the engine's place in the list), so
 * the run sends 3 000 different cases, every run new ones. PRICEBOOK_FUZZ_RUNS sets the cases
 * of each engine.
 */
const RUN_CASES = strength(3000, 20_000);
/** A case's worst time on a busy machine, for the tests' timeouts. */
const TIMEOUT_MS = strength(300_000, 1_800_000);
/** Cases of the negative control, all to the route it makes leak. */
const CONTROL_RUNS = 200;
const seed = faultSeed();
/**
 * Seeds and requests that once failed (`fuzz-regressions.json`). Every run sends the kept
 * requests again, the fixed regression cases. The seeds' whole runs (some 2 400 cases an
 * engine, which a change to the routes or the generators turns into other cases anyway) run
 * again in the soak.
 */
const regressions = readRegressions();
/**
 * In every victim record with free text (customers' names, product and category titles, the
 * webhook's URL, where it is lower case); nothing the fuzzer generates can contain it. Records
 * without free text (variations, trade prices, orders) are recognised by their ids.
 */
const MARKER = 'VICTIM-7f3a';
const engines = await enginesUnderTest();
const RUNS = Number(process.env.PRICEBOOK_FUZZ_RUNS ?? Math.ceil(RUN_CASES / engines.length));

/** undici refuses to send some header values and bodies (a GET with a body): not the server's doing. */
function refusedByClient(error: unknown): boolean {
  const code = (error as { code?: string }).code;
  return code === 'UND_ERR_INVALID_ARG' || code === 'UND_ERR_NOT_SUPPORTED';
}

/** What one server holds for the fuzzer: two populated stores, the generators' pools, the run's named credentials. */
interface Arena {
  victim: Tenant;
  fuzzer: Tenant;
  pools: Pools;
  credentials: Record<string, string>;
  /** The victim's rows before the first request. */
  before: StoreSnapshot;
  /** The ids of each kind of the victim's records: none may appear in an answer to the fuzzer. */
  victimIds: StoreIds;
}

describe.each(engines)('hostile input on %s', (engine) => {
  const webhooks = offlineWebhooks();
  let server: TestServer;
  let arena: Arena;
  let operations: Operation[];
  let postsBefore: number;

  /** A store with one of everything; returns the ids and SKUs it made. `marker` goes in every record with free text. */
  async function populate(target: TestServer, tenant: Tenant, name: string, marker: string): Promise<{ ids: number[]; skus: string[] }> {
    const api = checkedClient(target);
    const send = async (method: string, path: string, body: unknown, status: number) => {
      const response = await api.request(method, path, { token: tenant.token, body });
      expect(response.status, response.text).toBe(status);
      return response.body as { id: number };
    };
    const post = (path: string, body: unknown) => send('POST', path, body, 201);
    const catalog = await createCatalog(target, tenant, name);
    // The catalog's customers and products get the marker too.
    for (const id of [catalog.tradeCustomer, catalog.otherTradeCustomer, catalog.regularCustomer])
      await send('PUT', `/v1/customers/${id}`, { companyName: `Company ${marker}` }, 200);
    for (const id of [catalog.tee, catalog.mug]) await send('PUT', `/v1/products/${id}`, { title: `Product ${marker}` }, 200);
    const root = await post('/v1/categories', { title: `Root ${marker}` });
    const child = await post('/v1/categories', { title: `Child ${marker}`, parentId: root.id });
    const extra = await post('/v1/products', { title: `Product ${marker}`, price: 3, categoryIds: [child.id], variations: [{ sku: `${name}-V1`, price: 4 }] });
    const customer = await post('/v1/customers', {
      email: `${name}-c@example.com`,
      firstName: `First ${marker}`,
      lastName: `Last ${marker}`,
      companyName: `Company ${marker}`,
      trade: true,
    });
    const prices = (
      await api.request('POST', '/v1/trade-customer-product-prices/bulk', {
        token: tenant.token,
        body: [
          { customerId: catalog.tradeCustomer, productId: catalog.tee, sku: catalog.skus.teeRedM, price: 9.5 },
          { customerId: customer.id, productId: catalog.mug, sku: catalog.skus.mug, price: 3.25 },
        ],
      })
    ).body as Array<{ id: number }>;
    const fixedList = await post('/v1/price-lists', { name: `Fixed ${marker}`, kind: 'fixed' });
    const percentageList = await post('/v1/price-lists', { name: `Percentage ${marker}`, kind: 'percentage', percentage: 12.5 });
    const entries = (
      await api.request('POST', `/v1/price-lists/${fixedList.id}/prices/bulk`, {
        token: tenant.token,
        body: [{ productId: catalog.mug, sku: catalog.skus.mug, price: 2.75, minQuantity: 3, validFrom: '2026-01-01T00:00:00Z' }],
      })
    ).body as Array<{ id: number }>;
    await send('PUT', `/v1/customers/${customer.id}`, { priceListIds: [fixedList.id, percentageList.id] }, 200);
    const order = await post('/v1/orders', { customerId: customer.id, lines: [{ sku: catalog.skus.teeRedM, quantity: 2 }] });
    const webhook = await post('/v1/webhooks', { topic: 'customer.created', url: `https://${marker.toLowerCase()}.example/hook` });
    const variations = (await api.request('GET', `/v1/products/${catalog.tee}/variations`, { token: tenant.token })).body as Array<{ id: number }>;
    return {
      ids: [
        catalog.tradeCustomer,
        catalog.otherTradeCustomer,
        catalog.regularCustomer,
        catalog.tee,
        catalog.mug,
        root.id,
        child.id,
        extra.id,
        customer.id,
        order.id,
        webhook.id,
        fixedList.id,
        percentageList.id,
        ...prices.map((p) => p.id),
        ...entries.map((e) => e.id),
        ...variations.map((v) => v.id),
      ],
      skus: [...Object.values(catalog.skus), `${name}-V1`],
    };
  }

  /** A victim and a fuzzing store on `target`, populated, with the pools and credentials the generators use. */
  async function prepare(target: TestServer): Promise<Arena> {
    const [victim, fuzzer] = [await target.createTenant(), await target.createTenant()];
    const readOnly = await target.services.credentials.issueKey(fuzzer.storeId, ['catalog:read', 'trade_prices:read', 'orders:read']);
    const own = await populate(target, fuzzer, `fz${engine}`, 'fuzzer');
    const theirs = await populate(target, victim, `vc${engine}`, MARKER);
    const before = await snapshotStore(target.services.database, victim.storeId);
    // The run's own credentials by name, so a kept counterexample can be sent again in another run.
    const credentials: Record<string, string> = {
      'fuzzer bearer': `Bearer ${fuzzer.token}`,
      'read-only bearer': `Bearer ${readOnly.token}`,
      'fuzzer basic': basic(fuzzer.key, fuzzer.secret),
      'fuzzer bearer, one character more': `Bearer ${fuzzer.token}x`,
      'fuzzer bearer, lower-case scheme': `bearer ${fuzzer.token}`,
      'victim basic, wrong secret': basic(victim.key, 'wrong-secret'),
    };
    const pools: Pools = {
      ids: [...new Set([...own.ids, ...theirs.ids, 1, 2, 3])],
      skus: [...own.skus, ...theirs.skus],
      credentials: [
        { weight: 80, value: credentials['fuzzer bearer'] },
        { weight: 3, value: credentials['read-only bearer'] },
        { weight: 2, value: credentials['fuzzer basic'] },
        { weight: 2, value: undefined },
        ...[
          'Bearer',
          'Bearer ',
          credentials['fuzzer bearer, one character more']!,
          credentials['fuzzer bearer, lower-case scheme']!,
          credentials['victim basic, wrong secret']!,
          basic('pk_\u0000', 'x'),
          'Basic !!!',
          'Digest x',
          `Bearer ${'a'.repeat(5000)}`,
        ].map((value) => ({ weight: 1, value })),
      ],
    };
    return { victim, fuzzer, pools, credentials, before, victimIds: idsOf(before) };
  }

  beforeAll(async () => {
    server = await startTestServer(engine, {}, { services: { webhookResolver: webhooks.resolver, webhookTransport: webhooks.transport } });
    arena = await prepare(server);
    operations = await readOperations(server);
    // Kept counterexamples and regression seeds run first: the victim is compared after all of them.
    postsBefore = webhooks.posts.length;
  });
  afterAll(() => server.close());

  // Found by this suite (500s before the fix), kept as fixed cases.
  it('refuses NUL characters, unpaired surrogates and odd Basic keys without a 5xx', async () => {
    const api = checkedClient(server);
    const token = arena.fuzzer.token;
    const [productId] = arena.pools.ids;
    const surrogate = await api.request('POST', `/v1/products/${productId}/variations`, {
      token,
      rawBody: '{"sku":"\\udfff\\ud800"}',
      headers: { 'content-type': 'application/json' },
    });
    expectError(surrogate, 400, 8, /surrogate/);
    const nulInBody = await api.request('POST', '/v1/products', { token, body: { title: 'T', price: 1, variations: [{ sku: 'ok-1' }, { sku: 'a\u0000b' }] } });
    expectError(nulInBody, 422, 10);
    expect((nulInBody.body as { errors: unknown[] }).errors).toEqual([{ field: 'variations[1].sku', message: 'must not contain the NUL character (\\u0000)' }]);
    const nulInBulk = await api.request('POST', '/v1/trade-customer-product-prices/bulk', {
      token,
      body: [
        { customerId: 1, productId: 1, sku: 'A', price: 1 },
        { customerId: 1, productId: 1, sku: 'A\u0000', price: 1 },
      ],
    });
    expectError(nulInBulk, 422, 10);
    expect((nulInBulk.body as { errors: unknown[] }).errors).toEqual([{ index: 1, field: 'sku', message: expect.stringMatching(/NUL/) }]);
    expectError(await api.request('GET', '/v1/products?sku=a%00b', { token }), 400, 9, /NUL/);
    expectError(await api.request('GET', '/v1/customers', { headers: { authorization: basic('pk_\u0000a', 'b') } }), 401, 3);
  });

  /** What of the victim's an answer to `url` shows: its marker (in any case), and the ids of its records. */
  function leaksIn(url: string, response: HttpResponse, victimIds: StoreIds): { marker: boolean; ids: string[] } {
    return { marker: response.text.toLowerCase().includes(MARKER.toLowerCase()), ids: victimIdsIn(url, response.body, victimIds) };
  }

  /** Sends one case; undefined when the client library refused to send it. */
  async function send(target: TestServer, request: FuzzCase): Promise<HttpResponse | undefined> {
    try {
      return await target.request(request.method, request.url, { headers: request.headers, rawBody: request.body });
    } catch (error) {
      if (refusedByClient(error)) return undefined;
      throw error;
    }
  }

  /**
   * The one answer the fuzzer can reach that is HTML by design: `GET /` from a browser (an
   * `Accept` naming `text/html`) gets the page that points to /admin and /docs, with the admin
   * page's security headers, and nothing of any store.
   */
  function isWelcomePage(request: FuzzCase, response: HttpResponse): boolean {
    return (
      request.method === 'GET' &&
      new URL(request.url, 'https://localhost').pathname === '/' &&
      response.status === 200 &&
      /^text\/html(;|$)/.test(String(response.headers['content-type'])) &&
      response.headers['content-security-policy'] !== undefined &&
      response.text.includes('<a href="/admin">')
    );
  }

  /**
   * The other answer that is not JSON by design: a change set's preview asked for as a CSV file
   * (`format=csv`), with its header row; the leak check below reads it all the same.
   */
  function isPreviewCsv(request: FuzzCase, response: HttpResponse): boolean {
    const url = new URL(request.url, 'https://localhost');
    return (
      request.method === 'GET' &&
      /^\/v1\/change-sets\/[^/]+\/preview$/.test(url.pathname) &&
      url.searchParams.get('format') === 'csv' &&
      response.status === 200 &&
      /^text\/csv(;|$)/.test(String(response.headers['content-type'])) &&
      response.text.startsWith('kind,resource,id,customer_id,')
    );
  }

  /** One request: well formed, no leak; undefined when the client library refused to send it. */
  async function check(request: FuzzCase): Promise<HttpResponse | undefined> {
    const response = await send(server, request);
    if (response === undefined) return undefined;
    if (!isWelcomePage(request, response) && !isPreviewCsv(request, response)) expectWellFormed(response, request.method);
    const leaks = leaksIn(request.url, response, arena.victimIds);
    expect(leaks, `the victim's data leaked: ${response.text.slice(0, 300)}`).toEqual({ marker: false, ids: [] });
    return response;
  }

  /**
   * `runs` cases from `runSeed`. A failure is kept in fuzz-regressions.json (its seed and its
   * shrunk request) and reported with the command that replays it.
   */
  async function fuzz(runSeed: number, runs: number): Promise<{ cases: number; refused: number; statuses: Map<number, number> }> {
    const statuses = new Map<number, number>();
    let refused = 0;
    let cases = 0;
    const details = await fc.check(
      fc.asyncProperty(fuzzCase(operations, arena.pools), async (request) => {
        cases += 1;
        const response = await check(request);
        if (response === undefined) refused += 1;
        else statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      }),
      { numRuns: runs, seed: runSeed },
    );
    if (details.failed) {
      const [request] = details.counterexample ?? [];
      const error = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
      const found = `${engine}, seed ${runSeed}, after ${details.numRuns} cases: ${error.split('\n')[0]}`;
      if (request !== undefined)
        keepFailure({ seed: runSeed, runs: Math.max(details.numRuns, 100), found }, toCounterexample(request, arena.credentials, found));
      throw new Error(
        `fuzz/${engine} failed (seed ${runSeed}, path ${details.counterexamplePath ?? '?'}):\n${error}\n` +
          `Counterexample: ${JSON.stringify(request === undefined ? null : toCounterexample(request, arena.credentials, found))}\n` +
          `Kept in test/faults/fuzz-regressions.json (commit it with the fix). Replay: ${replayCommand(runSeed)}`,
      );
    }
    return { cases, refused, statuses };
  }

  it.each(regressions.counterexamples.map((example): [string, Counterexample] => [`${example.method} ${example.url}`, example]))(
    'sends a kept counterexample again (%s) and gets a well-formed answer',
    async (_name, example) => {
      const response = await check(toFuzzCase(example, arena.credentials));
      expect(response, 'the client library refused a kept counterexample').toBeDefined();
    },
  );

  it.runIf(SOAK).each(regressions.seeds.map((kept): [number, number] => [kept.seed, kept.runs]))(
    'runs regression seed %i again (%i cases)',
    async (keptSeed, runs) => {
      const { cases } = await fuzz(keptSeed, runs);
      expect(cases).toBeGreaterThanOrEqual(runs);
    },
    TIMEOUT_MS,
  );

  it(
    `answers ${RUNS} hostile requests without a 5xx, always in the error shape, and leaves the victim store as it was`,
    async () => {
      const engineSeed = seed + engines.indexOf(engine);
      const { cases, refused, statuses } = await fuzz(engineSeed, RUNS);

      const after = await snapshotStore(server.services.database, arena.victim.storeId);
      expect(after).toEqual(arena.before);
      // Nothing was sent to the victim's receiver either (a verification, say).
      expect(webhooks.posts.slice(postsBefore).filter((url) => url.includes(MARKER.toLowerCase()))).toEqual([]);

      const fivexx = [...statuses].filter(([status]) => status >= 500).reduce((sum, [, n]) => sum + n, 0);
      const byStatus = [...statuses]
        .sort(([a], [b]) => a - b)
        .map(([status, n]) => `${status}×${figure(n)}`)
        .join(' ');
      reportLine(
        `fuzz/${engine}: seed ${engineSeed}, ${figure(cases)} cases over ${operations.length} operations, ${fivexx} 5xx, 0 malformed bodies, ` +
          `0 leaks (no marker, none of the victim's ${idCount(arena.victimIds)} ids), victim store unchanged (${figure(rowsIn(after))} rows compared); ` +
          `${figure(refused)} refused by the client library; statuses ${byStatus}; ` +
          `${SOAK ? `${regressions.seeds.length} regression seeds and ` : ''}${regressions.counterexamples.length} kept counterexamples run before them`,
      );
      expect(cases).toBeGreaterThanOrEqual(RUNS);
    },
    TIMEOUT_MS,
  );

  it('negative control: with the trade price list leaking every store’s records, the leak check reports the victim’s ids', async () => {
    const mutant = await startTestServer(
      engine,
      {},
      { services: { webhookResolver: webhooks.resolver, webhookTransport: webhooks.transport, unitOfWork: PLANTED_FAULTS['trade-price-list-every-store'] } },
    );
    try {
      const planted = await prepare(mutant);
      // The leaking route only: its cases are as hostile as the run's (query, headers, method), and few.
      const route = operations.filter((operation) => operation.method === 'GET' && operation.template === '/v1/trade-customer-product-prices');
      expect(route).toHaveLength(1);
      let answered = 0;
      let byId = 0;
      let byMarker = 0;
      let failedCheck = 0;
      for (const request of fc.sample(fuzzCase(route, planted.pools), { numRuns: CONTROL_RUNS, seed })) {
        const response = await send(mutant, request);
        if (response === undefined) continue;
        if (response.status === 200) answered += 1;
        const leaks = leaksIn(request.url, response, planted.victimIds);
        if (leaks.ids.length > 0) byId += 1;
        if (leaks.marker) byMarker += 1;
        if (leaks.ids.length > 0 || leaks.marker) failedCheck += 1;
      }
      reportLine(
        `fuzz/control (trade price list of every store, ${engine}): ${CONTROL_RUNS} cases to GET /v1/trade-customer-product-prices, ${answered} answered 200, ` +
          `${failedCheck} leaks reported (${byId} by the victim's ids, ${byMarker} by its marker)`,
      );
      // The victim's trade prices have no free text: only their ids give them away.
      expect(byId).toBeGreaterThan(0);
    } finally {
      await mutant.close();
    }
  }, 60_000);
});

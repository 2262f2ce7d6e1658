import fc from 'fast-check';
import { type RawBuilder, sql } from 'kysely';
import { describe, expect, inject, it } from 'vitest';
import { ChainVerifier } from '../../src/modules/history/chain-verifier.js';
import { canonicalJson } from '../../src/modules/history/history-chain.js';
import type { StatefulResource } from '../../src/modules/pricing/as-of-repository.js';
import { enginesUnderTest } from '../support/engines.js';
import { ensureRecorded, StepClock } from '../support/history-record.js';
import { suiteServer } from '../support/suite-server.js';
import type { Tenant } from '../support/test-server.js';

/**
 * A model of the history (issue 25, docs/history.md "As-of reads"). Random sequences of trade
 * price and list entry creates and deletes, list percentage changes, renames and deletions,
 * customers' list reassignments and trade flags, catalog price and SKU changes go through the
 * HTTP API, each at a moment of its own (the server's clock is the test's). After every step
 * the live effective price and quote of every customer and SKU are recorded; afterwards the
 * same questions asked `at` those moments must answer exactly the same. Then the history,
 * replayed from its first entry, must give today's live price book.
 *
 * The run's property seed (printed at the start) drives the random choices on both engines:
 * PRICEBOOK_PROPERTY_SEED=N repeats them (see `replayCommand`). A counterexample found is kept
 * in `REGRESSIONS`, so it runs on every later run.
 */
const seed = inject('propertySeed');
const RUNS = 4;
const replayCommand = `PRICEBOOK_PROPERTY_SEED=${seed} npx vitest run --project main test/http/history-model.property.test.ts`;
const TRADE = '/v1/trade-customer-product-prices';
const PRODUCTS = 3;
const CUSTOMERS = 2;
/** Fixed lists 0 and 1, percentage list 2. */
const LISTS = 3;

type Step =
  | { kind: 'tradePrice'; customer: number; product: number; units: number; minQuantity: number }
  | { kind: 'deleteTradePrice'; pick: number }
  | { kind: 'entry'; list: number; product: number; units: number; minQuantity: number }
  | { kind: 'deleteEntry'; pick: number }
  | { kind: 'percentage'; units: number }
  | { kind: 'renameList'; list: number }
  | { kind: 'deleteList'; list: number }
  | { kind: 'assign'; customer: number; lists: number[] }
  | { kind: 'tradeFlag'; customer: number; trade: boolean }
  | { kind: 'catalogPrice'; product: number; units: number }
  | { kind: 'renameSku'; product: number };

const units = fc.integer({ min: 1, max: 200_000 });
const minQuantity = fc.constantFrom(1, 1, 3, 5);
const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({ kind: fc.constant('tradePrice' as const), customer: fc.nat(CUSTOMERS - 1), product: fc.nat(PRODUCTS - 1), units, minQuantity }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('deleteTradePrice' as const), pick: fc.nat() }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('entry' as const), list: fc.nat(1), product: fc.nat(PRODUCTS - 1), units, minQuantity }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('deleteEntry' as const), pick: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('percentage' as const), units: fc.integer({ min: 0, max: 1_000_000 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('renameList' as const), list: fc.nat(LISTS - 1) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('deleteList' as const), list: fc.nat(1) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('assign' as const), customer: fc.nat(CUSTOMERS - 1), lists: fc.shuffledSubarray([0, 1, 2]) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('tradeFlag' as const), customer: fc.nat(CUSTOMERS - 1), trade: fc.boolean() }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('catalogPrice' as const), product: fc.nat(PRODUCTS - 1), units }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('renameSku' as const), product: fc.nat(PRODUCTS - 1) }) },
);
const scenario = fc.record({ steps: fc.array(step, { minLength: 1, maxLength: 16 }), quantity: fc.constantFrom(1, 4, 6) });
type Scenario = typeof scenario extends fc.Arbitrary<infer T> ? T : never;

/** Counterexamples found by earlier runs (and a hand-made sequence touching every kind of step), run first on every run. */
const REGRESSIONS: Scenario[] = [
  {
    quantity: 4,
    steps: [
      { kind: 'tradePrice', customer: 0, product: 0, units: 50_000, minQuantity: 3 },
      { kind: 'entry', list: 0, product: 0, units: 60_000, minQuantity: 1 },
      { kind: 'assign', customer: 1, lists: [2, 0] },
      { kind: 'percentage', units: 250_000 },
      { kind: 'catalogPrice', product: 0, units: 120_000 },
      { kind: 'deleteTradePrice', pick: 0 },
      { kind: 'tradeFlag', customer: 0, trade: false },
      { kind: 'deleteEntry', pick: 0 },
      { kind: 'renameSku', product: 0 },
      { kind: 'renameList', list: 2 },
      { kind: 'deleteList', list: 0 },
    ],
  },
];

/** An answer as the client saw it. */
interface Answer {
  status: number;
  body: unknown;
}

interface Observation {
  at: string;
  path: string;
  /** A quote's body without `at` (added when asked again). */
  quote?: { customerId: number; lines: Array<{ sku: string; quantity: number }> };
  answer: Answer;
}

describe.each(await enginesUnderTest())('the history as a model, on %s', (engine) => {
  const clock = new StepClock(Date.parse('2026-01-01T00:00:00.000Z'));
  const suite = suiteServer(engine, { tenants: 0, services: { clock } });

  async function answer(tenant: Tenant, method: string, path: string, body?: unknown): Promise<Answer> {
    const response = await suite.api.request(method, path, { token: tenant.token, body });
    return { status: response.status, body: response.body };
  }
  async function send<T>(tenant: Tenant, method: string, path: string, body: unknown, ...statuses: number[]): Promise<{ status: number; body: T }> {
    const response = await suite.api.request(method, path, { token: tenant.token, body });
    expect(statuses, `${method} ${path}: ${response.text.slice(0, 300)}`).toContain(response.status);
    return { status: response.status, body: response.body as T };
  }

  /** Runs one scenario on a store of its own; answers a description of the first disagreement, or undefined. */
  async function run(spec: Scenario): Promise<void> {
    const tenant = await suite.server.createTenant();
    const storeId = tenant.storeId;
    clock.step(60_000);
    /** A scalar change through the API at the next moment, made sure to be in the history. */
    const change = async <T extends { id: number }>(
      resource: StatefulResource,
      method: string,
      path: string,
      body: unknown,
      before: object | null,
      ...statuses: number[]
    ) => {
      const at = clock.step();
      const done = await send<T>(tenant, method, path, body, ...statuses);
      if (done.status >= 300) return done;
      const after = method === 'DELETE' ? null : done.body;
      if (after !== null || before !== null) {
        await ensureRecorded(suite.server, storeId, at, {
          resource,
          id: after?.id ?? (before as { id: number }).id,
          change: before === null ? 'created' : after === null ? 'deleted' : 'updated',
          before,
          after,
        });
      }
      return done;
    };

    const products: Array<{ id: number; sku: string } & object> = [];
    const skus = new Set<string>();
    for (let index = 0; index < PRODUCTS; index++) {
      const sku = `M${storeId}-P${index}`;
      products.push(
        (await change<{ id: number; sku: string }>('product', 'POST', '/v1/products', { title: `Product ${index}`, sku, price: 1 + index }, null, 201)).body,
      );
      skus.add(sku);
    }
    const lists: Array<({ id: number } & object) | null> = [];
    for (let index = 0; index < LISTS; index++) {
      const kind = index < 2 ? 'fixed' : 'percentage';
      lists.push(
        (
          await change<{ id: number }>(
            'price_list',
            'POST',
            '/v1/price-lists',
            { name: `List ${index}`, kind, ...(kind === 'percentage' && { percentage: 10 }) },
            null,
            201,
          )
        ).body,
      );
    }
    const customers: Array<{ id: number } & object> = [];
    for (let index = 0; index < CUSTOMERS; index++) {
      const body = { email: `model-${storeId}-${index}@example.com`, trade: index === 0, priceListIds: [lists[index]!.id] };
      customers.push((await change<{ id: number }>('customer', 'POST', '/v1/customers', body, null, 201)).body);
    }
    const tradePrices: number[] = [];
    const entries: Array<{ list: number; id: number }> = [];
    let renames = 0;

    const observations: Observation[] = [];
    const observe = async () => {
      const at = clock.step();
      for (const customer of customers) {
        for (const sku of skus) {
          const path = `${TRADE}/effective?customerId=${customer.id}&sku=${encodeURIComponent(sku)}&quantity=${spec.quantity}`;
          observations.push({ at, path, answer: await answer(tenant, 'GET', path) });
        }
        const quote = { customerId: customer.id, lines: [...skus].map((sku) => ({ sku, quantity: spec.quantity })) };
        observations.push({ at, path: '/v1/quotes', quote, answer: await answer(tenant, 'POST', '/v1/quotes', quote) });
      }
    };

    await observe();
    for (const next of spec.steps) {
      const at = clock.step();
      switch (next.kind) {
        case 'tradePrice': {
          const product = products[next.product]!;
          const body = [
            { customerId: customers[next.customer]!.id, productId: product.id, sku: product.sku, price: next.units / 10_000, minQuantity: next.minQuantity },
          ];
          const created = await send<Array<{ id: number }>>(tenant, 'POST', `${TRADE}/bulk`, body, 201, 422);
          if (created.status === 201) tradePrices.push(created.body[0]!.id);
          break;
        }
        case 'deleteTradePrice':
          if (tradePrices.length > 0) await send(tenant, 'DELETE', `${TRADE}/${tradePrices.splice(next.pick % tradePrices.length, 1)[0]}`, undefined, 204);
          break;
        case 'entry': {
          const list = lists[next.list];
          if (list === null || list === undefined) break;
          const product = products[next.product]!;
          const created = await send<Array<{ id: number }>>(
            tenant,
            'POST',
            `/v1/price-lists/${list.id}/prices/bulk`,
            [{ productId: product.id, sku: product.sku, price: next.units / 10_000, minQuantity: next.minQuantity }],
            201,
          );
          entries.push({ list: list.id, id: created.body[0]!.id });
          break;
        }
        case 'deleteEntry':
          if (entries.length > 0) {
            const [entry] = entries.splice(next.pick % entries.length, 1);
            await send(tenant, 'DELETE', `/v1/price-lists/${entry!.list}/prices/${entry!.id}`, undefined, 204);
          }
          break;
        case 'percentage':
          lists[2] = (
            await change<{ id: number }>('price_list', 'PUT', `/v1/price-lists/${lists[2]!.id}`, { percentage: next.units / 10_000 }, lists[2]!, 200)
          ).body;
          break;
        case 'renameList': {
          const list = lists[next.list];
          if (list !== null && list !== undefined)
            lists[next.list] = (
              await change<{ id: number }>('price_list', 'PUT', `/v1/price-lists/${list.id}`, { name: `List ${next.list} at ${at}` }, list, 200)
            ).body;
          break;
        }
        case 'deleteList': {
          const list = lists[next.list];
          if (list === null || list === undefined) break;
          await change('price_list', 'DELETE', `/v1/price-lists/${list.id}`, undefined, list, 204);
          lists[next.list] = null;
          for (let index = entries.length - 1; index >= 0; index--) if (entries[index]!.list === list.id) entries.splice(index, 1);
          // The customers lose the list without an entry of theirs (design rule 2): their records now.
          for (const [index, customer] of customers.entries())
            customers[index] = (await send<{ id: number }>(tenant, 'GET', `/v1/customers/${customer.id}`, undefined, 200)).body;
          break;
        }
        case 'assign': {
          const customer = customers[next.customer]!;
          const priceListIds = next.lists.flatMap((index) => (lists[index] ? [lists[index].id] : []));
          customers[next.customer] = (await change<{ id: number }>('customer', 'PUT', `/v1/customers/${customer.id}`, { priceListIds }, customer, 200)).body;
          break;
        }
        case 'tradeFlag': {
          const customer = customers[next.customer]!;
          if ((customer as { trade?: boolean }).trade === next.trade) break;
          customers[next.customer] = (
            await change<{ id: number }>('customer', 'PUT', `/v1/customers/${customer.id}`, { trade: next.trade }, customer, 200)
          ).body;
          break;
        }
        case 'catalogPrice': {
          const product = products[next.product]!;
          products[next.product] = (
            await change<{ id: number; sku: string }>('product', 'PUT', `/v1/products/${product.id}`, { price: next.units / 10_000 }, product, 200)
          ).body;
          break;
        }
        case 'renameSku': {
          // Refused (409) while prices of the SKU remain: then nothing changes.
          const product = products[next.product]!;
          const sku = `M${storeId}-R${++renames}`;
          const renamed = await change<{ id: number; sku: string }>('product', 'PUT', `/v1/products/${product.id}`, { sku }, product, 200, 409);
          if (renamed.status === 200) {
            products[next.product] = renamed.body;
            skus.add(sku);
          }
          break;
        }
      }
      await observe();
    }
    clock.step();

    // 1. Every answer recorded, asked again at its moment.
    for (const observation of observations) {
      const asked =
        observation.quote === undefined
          ? await answer(tenant, 'GET', `${observation.path}&at=${encodeURIComponent(observation.at)}`)
          : await answer(tenant, 'POST', '/v1/quotes', { ...observation.quote, at: observation.at });
      const live = observation.quote === undefined ? observation.answer : withAt(observation.answer, observation.at);
      expect(asked, `${observation.quote === undefined ? observation.path : `quote ${JSON.stringify(observation.quote)}`} at ${observation.at}`).toEqual(live);
    }

    // 2. The history replayed from the start gives today's price book.
    await expectReplayGivesTheBook(storeId);

    // 3. `history verify` holds: the chain, and every kept price against its entries.
    const report = await new ChainVerifier(suite.server.services.uow, { key: undefined }).verify(storeId);
    expect(report.broken, 'history verify').toEqual([]);
  }

  /** Applies every entry's `after` in order, then compares what is left with the stored book. */
  async function expectReplayGivesTheBook(storeId: number): Promise<void> {
    const { db } = suite.server.services.database;
    const entries = (
      await sql<{
        resource: string;
        resource_id: number;
        after: string | null;
      }>`select resource, resource_id, after from price_history where store_id = ${storeId} order by seq`.execute(db)
    ).rows;
    const state = new Map<string, Record<string, unknown>>();
    for (const entry of entries) {
      const key = `${entry.resource}:${Number(entry.resource_id)}`;
      if (entry.after === null) state.delete(key);
      else state.set(key, JSON.parse(entry.after) as Record<string, unknown>);
    }
    const of = (resource: string) => [...state].filter(([key]) => key.startsWith(`${resource}:`)).map(([, record]) => record);
    const rows = async <T>(query: RawBuilder<T>) => (await query.execute(db)).rows;
    const price = (record: Record<string, unknown>) =>
      canonicalJson([record.id, record.productId, record.sku, record.price, record.minQuantity, record.validFrom, record.validUntil]);
    const stored = (row: {
      id: number;
      product_id: number;
      sku: string;
      price: number;
      min_quantity: number;
      valid_from: string | null;
      valid_until: string | null;
    }) =>
      canonicalJson([Number(row.id), Number(row.product_id), row.sku, Number(row.price) / 10_000, Number(row.min_quantity), row.valid_from, row.valid_until]);

    const tradePrices = await rows(
      sql<{
        id: number;
        customer_id: number;
        product_id: number;
        sku: string;
        price: number;
        min_quantity: number;
        valid_from: string | null;
        valid_until: string | null;
      }>`select * from trade_prices where store_id = ${storeId}`,
    );
    expect(of('trade_price').map(price).sort(), 'trade prices').toEqual(tradePrices.map(stored).sort());
    const listEntries = await rows(
      sql<{
        id: number;
        product_id: number;
        sku: string;
        price: number;
        min_quantity: number;
        valid_from: string | null;
        valid_until: string | null;
      }>`select p.* from price_list_prices p join price_lists l on l.id = p.price_list_id where l.store_id = ${storeId}`,
    );
    expect(of('price_list_entry').map(price).sort(), 'list entries').toEqual(listEntries.map(stored).sort());

    const lists = await rows(
      sql<{
        id: number;
        name: string;
        kind: string;
        percentage: number | null;
      }>`select id, name, kind, percentage from price_lists where store_id = ${storeId}`,
    );
    const listOf = (record: Record<string, unknown>) => canonicalJson([record.id, record.name, record.kind, record.percentage]);
    expect(of('price_list').map(listOf).sort(), 'lists').toEqual(
      lists.map((row) => canonicalJson([Number(row.id), row.name, row.kind, row.percentage === null ? null : Number(row.percentage) / 10_000])).sort(),
    );

    // A list's deletion writes no customer entries: a replayed customer drops the lists gone since (design rule 2).
    const liveLists = new Set(of('price_list').map((record) => record.id));
    const customers = await rows(sql<{ id: number; trade: boolean | number }>`select id, trade from customers where store_id = ${storeId}`);
    const assignments = await rows(
      sql<{
        customer_id: number;
        price_list_id: number;
      }>`select customer_id, price_list_id from customer_price_lists where store_id = ${storeId} order by customer_id, position`,
    );
    const customerOf = (record: Record<string, unknown>) =>
      canonicalJson([record.id, record.trade, (record.priceListIds as number[]).filter((id) => liveLists.has(id))]);
    expect(of('customer').map(customerOf).sort(), 'customers').toEqual(
      customers
        .map((row) =>
          canonicalJson([
            Number(row.id),
            Boolean(row.trade),
            assignments.filter((a) => Number(a.customer_id) === Number(row.id)).map((a) => Number(a.price_list_id)),
          ]),
        )
        .sort(),
    );

    const products = await rows(sql<{ id: number; sku: string | null; price: number }>`select id, sku, price from products where store_id = ${storeId}`);
    expect(
      of('product')
        .map((record) => canonicalJson([record.id, record.sku, record.price]))
        .sort(),
      'products',
    ).toEqual(products.map((row) => canonicalJson([Number(row.id), row.sku, Number(row.price) / 10_000])).sort());
  }

  it('answers every past moment as it answered then, and its replay gives the book of now', { timeout: 120_000 }, async () => {
    const details = await fc.check(
      fc.asyncProperty(scenario, (spec) => run(spec)),
      { numRuns: RUNS + REGRESSIONS.length, seed, examples: REGRESSIONS.map((regression) => [regression]), endOnFailure: true },
    );
    if (details.failed) {
      const error = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
      throw new Error(
        `the history as a model on ${engine} failed (seed ${seed}, after ${details.numRuns} runs):\n${error}\n` +
          `Counterexample (keep it in REGRESSIONS): ${JSON.stringify(details.counterexample?.[0] ?? null)}\nReplay: ${replayCommand}`,
      );
    }
  });
});

/** A quote answered live carries the moment it priced at; asked again `at` it, the same. */
function withAt(answer: Answer, at: string): Answer {
  if (answer.status !== 200) return answer;
  return { ...answer, body: { ...(answer.body as object), at } };
}

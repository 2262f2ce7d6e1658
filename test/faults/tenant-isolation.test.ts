import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PriceHistoryEntry } from '../../src/contract/price-history.js';
import { checkedClient, expectError, type CheckedClient } from '../support/conventions.js';
import { enginesUnderTest } from '../support/engines.js';
import { startTestServer, type Tenant, type TestServer } from '../support/test-server.js';
import { PLANTED_FAULTS } from './support/planted-faults.js';
import { figure, faultSeed, reportLine } from './support/report.js';
import {
  effectivePrice,
  emptyStore,
  HISTORY_KINDS,
  type Kind,
  KINDS,
  listOf,
  PATHS,
  PROLOGUE,
  project,
  type Step,
  stepArbitrary,
  type StoreModel,
} from './support/tenant-model.js';
import { strength } from './support/strength.js';

/**
 * Tenant isolation: random sequences of operations by two stores, each operation given ids of
 * either store. Every answer is compared with a model of each store's records: the other
 * store's records are never returned, counted, changed or deleted, nor usable in a bulk
 * create, an order or an effective-price question, nor its SKUs found by a SKU lookup, nor its
 * changes shown in the price history. The negative control plants a leak in the
 * trade price list and must see differences.
 */
const RUNS = strength(60, 300);
/** Sequences of the negative control (each one, from its prologue on, has prices the leak shows). */
const CONTROL_RUNS = 4;
const seed = faultSeed();
const TOPIC_KINDS: Record<string, Kind> = {
  customer: 'customers',
  product: 'products',
  category: 'categories',
  trade_customer_product_price: 'prices',
  order: 'orders',
};

describe.each(await enginesUnderTest())('tenant isolation on %s', (engine) => {
  let server: TestServer;
  let run = 0;
  const figures = newFigures();

  beforeAll(async () => {
    server = await startTestServer(engine);
  });
  afterAll(() => server.close());

  /** One sequence (the prologue, then `steps`), from two empty stores. */
  async function play(target: TestServer, steps: readonly Step[], tally: Figures): Promise<void> {
    run += 1;
    const api: CheckedClient = checkedClient(target);
    const tenants: [Tenant, Tenant] = [await target.createTenant(), await target.createTenant()];
    const models: [StoreModel, StoreModel] = [emptyStore(), emptyStore()];
    /** Ids either store ever had, per kind (deleted ones stay: they must stay gone). */
    const known: Record<Kind, number[]> = { customers: [], products: [], categories: [], prices: [], orders: [] };
    const created = [new Set<string>(), new Set<string>()];
    const skuOf = new Map<number, string>();
    /** The customer of every trade price each store ever created (deleted ones too: their history stays). */
    const everPrices = [new Map<number, number>(), new Map<number, number>()] as const;
    let serial = 0;

    const call = (s: 0 | 1, method: string, path: string, body?: unknown) => {
      tally.requests += 1;
      return api.request(method, path, { token: tenants[s].token, body });
    };
    const idFrom = (kind: Kind, index: number) => known[kind][index % Math.max(known[kind].length, 1)] ?? 987_654_321;
    /** Counts the ids that belong to the other store: the attempts this test is about. */
    const note = (s: 0 | 1, kind: Kind, id: number) => {
      if (models[s === 0 ? 1 : 0][kind].has(id)) tally.crossStore += 1;
    };
    const add = (s: 0 | 1, kind: Kind, record: { id: number }) => {
      (models[s][kind] as Map<number, unknown>).set(record.id, record);
      known[kind].push(record.id);
      created[s]!.add(`${kind}:${record.id}`);
    };

    for (const step of [...PROLOGUE, ...steps]) {
      tally.steps += 1;
      const s = step.store;
      const mine = models[s];
      switch (step.op) {
        case 'create': {
          serial += 1;
          const unique = `${run}-${serial}`;
          const body =
            step.kind === 'customers'
              ? { email: `iso-${unique}@example.com`, trade: step.trade }
              : step.kind === 'products'
                ? { title: 'P', sku: `ISO-${unique}`, price: 2.5 }
                : { title: `C-${unique}` };
          const response = await call(s, 'POST', PATHS[step.kind], body);
          expect(response.status, response.text).toBe(201);
          const record = project(step.kind, response.body as Record<string, unknown>) as { id: number; sku?: string };
          if (record.sku !== undefined) skuOf.set(record.id, record.sku);
          add(s, step.kind, record);
          break;
        }
        case 'createMany': {
          const bodies = Array.from({ length: step.count }, () => {
            serial += 1;
            const unique = `${run}-${serial}`;
            return step.kind === 'customers' ? { email: `iso-${unique}@example.com`, trade: true } : { title: 'P', sku: `ISO-${unique}`, price: 3.25 };
          });
          const response = await call(s, 'POST', `${PATHS[step.kind]}/bulk`, bodies);
          expect(response.status, response.text).toBe(201);
          for (const created of response.body as Array<Record<string, unknown>>) {
            const record = project(step.kind, created) as { id: number; sku?: string };
            if (record.sku !== undefined) skuOf.set(record.id, record.sku);
            add(s, step.kind, record);
          }
          break;
        }
        case 'skus': {
          // Either store's SKUs: the other store's must be as unknown as ones that never existed.
          const skus = step.picks.map((index) => {
            const productId = idFrom('products', index);
            note(s, 'products', productId);
            return skuOf.get(productId) ?? 'NO-SUCH-SKU';
          });
          const response = await call(s, 'POST', '/v1/skus/lookup', { skus });
          expect(response.status, response.text).toBe(200);
          const owners = new Map([...mine.products.values()].map((product) => [product.sku, product]));
          const sent = [...new Set(skus)];
          expect(response.body).toEqual({
            found: sent
              .filter((sku) => owners.has(sku))
              .map((sku) => ({ sku, productId: owners.get(sku)!.id, variationId: null, price: owners.get(sku)!.price })),
            unknown: sent.filter((sku) => !owners.has(sku)),
          });
          break;
        }
        case 'bulk': {
          const items = step.items.map((item) => {
            const customerId = idFrom('customers', item.customer);
            const productId = idFrom('products', item.product);
            note(s, 'customers', customerId);
            note(s, 'products', productId);
            return { customerId, productId, sku: skuOf.get(productId) ?? 'NO-SUCH-SKU', price: item.units / 10_000 };
          });
          const valid = items.every((item) => mine.customers.get(item.customerId)?.trade === true && mine.products.has(item.productId));
          const response = await call(s, 'POST', `${PATHS.prices}/bulk`, items);
          if (!valid) {
            expectError(response, 422, 10);
            break;
          }
          expect(response.status, response.text).toBe(201);
          const records = (response.body as Array<Record<string, unknown>>).map((record) => project('prices', record) as { id: number });
          expect(records).toEqual(items.map((item) => ({ id: expect.any(Number), ...item })));
          for (const [index, record] of records.entries()) {
            add(s, 'prices', record);
            everPrices[s].set(record.id, items[index]!.customerId);
          }
          break;
        }
        case 'order': {
          const customerId = idFrom('customers', step.customer);
          const productId = idFrom('products', step.product);
          note(s, 'customers', customerId);
          note(s, 'products', productId);
          const response = await call(s, 'POST', PATHS.orders, {
            customerId,
            lines: [{ sku: skuOf.get(productId) ?? 'NO-SUCH-SKU', quantity: step.quantity }],
          });
          if (!mine.customers.has(customerId) || !mine.products.has(productId)) {
            expectError(response, 422, 10);
            break;
          }
          expect(response.status, response.text).toBe(201);
          const { price } = effectivePrice(mine, customerId, productId);
          const order = project('orders', response.body as Record<string, unknown>) as { id: number; total: number };
          expect(order.total).toBe((Math.round(price * 10_000) * step.quantity) / 10_000);
          add(s, 'orders', order);
          break;
        }
        case 'get':
        case 'delete': {
          const id = idFrom(step.kind, step.pick);
          note(s, step.kind, id);
          const owned = mine[step.kind].get(id);
          const method = step.op === 'get' || step.kind === 'orders' ? 'GET' : 'DELETE';
          const response = await call(s, method, `${PATHS[step.kind]}/${id}`);
          if (owned === undefined) {
            expectError(response, 404, 5);
          } else if (method === 'GET') {
            expect(response.status).toBe(200);
            expect(project(step.kind, response.body as Record<string, unknown>)).toEqual(owned);
          } else {
            expect(response.status, response.text).toBe(204);
            mine[step.kind].delete(id);
            // A customer's or product's trade prices go with it.
            for (const price of [...mine.prices.values()]) {
              if ((step.kind === 'customers' && price.customerId === id) || (step.kind === 'products' && price.productId === id)) mine.prices.delete(price.id);
            }
          }
          break;
        }
        case 'trade': {
          const id = idFrom('customers', step.pick);
          note(s, 'customers', id);
          const response = await call(s, 'PUT', `${PATHS.customers}/${id}`, { trade: step.trade });
          const customer = mine.customers.get(id);
          if (customer === undefined) {
            expectError(response, 404, 5);
          } else {
            expect(response.status).toBe(200);
            customer.trade = step.trade;
          }
          break;
        }
        case 'list':
        case 'count':
          await expectListed(s, step.kind, step.op);
          break;
        case 'pricesOf': {
          const customerId = idFrom('customers', step.customer);
          note(s, 'customers', customerId);
          const response = await call(s, 'GET', `${PATHS.prices}?customerId=${customerId}&count=100`);
          expect(response.status).toBe(200);
          expect((response.body as Array<Record<string, unknown>>).map((record) => project('prices', record))).toEqual(
            listOf(mine, 'prices').filter((price) => (price as { customerId: number }).customerId === customerId),
          );
          break;
        }
        case 'effective': {
          const customerId = idFrom('customers', step.customer);
          const productId = idFrom('products', step.product);
          note(s, 'customers', customerId);
          note(s, 'products', productId);
          const response = await call(
            s,
            'GET',
            `${PATHS.prices}/effective?customerId=${customerId}&sku=${encodeURIComponent(skuOf.get(productId) ?? 'NO-SUCH-SKU')}`,
          );
          if (!mine.customers.has(customerId) || !mine.products.has(productId)) {
            expectError(response, 404, 5);
          } else {
            expect(response.status).toBe(200);
            expect(response.body).toMatchObject(effectivePrice(mine, customerId, productId));
          }
          break;
        }
        case 'history': {
          // A customer's history: its own changes and its trade prices' (created ones all there), none of the other store's.
          const customerId = idFrom('customers', step.customer);
          note(s, 'customers', customerId);
          const response = await call(s, 'GET', `/v1/price-history?customerId=${customerId}&count=100`);
          expect(response.status, response.text).toBe(200);
          const entries = response.body as PriceHistoryEntry[];
          if (!created[s]!.has(`customers:${customerId}`)) {
            expect(entries).toEqual([]);
            break;
          }
          for (const entry of entries) {
            expect(
              entry.resource === 'customer' ? entry.resourceId : ((entry.after ?? entry.before) as { customerId?: number } | null)?.customerId,
              `${entry.resource} ${entry.resourceId}`,
            ).toBe(customerId);
          }
          const pricesCreated = entries.filter((entry) => entry.resource === 'trade_price' && entry.change === 'created').map((entry) => entry.resourceId);
          const expected = [...everPrices[s]].filter(([, customer]) => customer === customerId).map(([id]) => id);
          expect(pricesCreated.sort((a, b) => a - b)).toEqual(expected.sort((a, b) => a - b));
          break;
        }
      }
    }

    // Afterwards, everything each store lists and counts is its own, as the model says; its event feed and its price history name only its own records.
    for (const s of [0, 1] as const) {
      for (const kind of KINDS) {
        await expectListed(s, kind, 'list');
        await expectListed(s, kind, 'count');
      }
      const events = await call(s, 'GET', '/v1/events?count=100');
      expect(events.status).toBe(200);
      for (const event of events.body as Array<{ storeId: number; topic: string; subjectId: number }>) {
        expect(event.storeId).toBe(tenants[s].storeId);
        expect(created[s]!.has(`${TOPIC_KINDS[event.topic.split('.')[0]!]}:${event.subjectId}`), `${event.topic} ${event.subjectId}`).toBe(true);
      }
      const history = await call(s, 'GET', '/v1/price-history?count=100');
      expect(history.status).toBe(200);
      expect((history.body as PriceHistoryEntry[]).length).toBeGreaterThan(0);
      for (const entry of history.body as PriceHistoryEntry[]) {
        expect(created[s]!.has(`${HISTORY_KINDS[entry.resource]}:${entry.resourceId}`), `${entry.resource} ${entry.resourceId}`).toBe(true);
      }
    }

    async function expectListed(s: 0 | 1, kind: Kind, op: 'list' | 'count'): Promise<void> {
      if (op === 'count') {
        const response = await call(s, 'GET', `${PATHS[kind]}/count`);
        expect(response.body).toEqual({ count: models[s][kind].size });
        return;
      }
      const response = await call(s, 'GET', `${PATHS[kind]}?count=100`);
      expect(response.status).toBe(200);
      expect((response.body as Array<Record<string, unknown>>).map((record) => project(kind, record))).toEqual(listOf(models[s], kind));
    }
  }

  it(
    'never returns, counts, changes or deletes the other store’s records',
    async () => {
      await fc.assert(
        fc.asyncProperty(sequences, (steps) => play(server, steps, figures)),
        { numRuns: RUNS, seed },
      );
      reportLine(
        `isolation/${engine}: ${RUNS} random sequences, ${figure(figures.steps)} operations (${figure(figures.crossStore)} with the other store's ids), ${figure(figures.requests)} requests, 0 differences from the model`,
      );
      expect(figures.crossStore).toBeGreaterThan(0);
    },
    strength(120_000, 900_000),
  );

  it('negative control: with the trade price list leaking every store’s records, the model comparison reports differences', async () => {
    const mutant = await startTestServer(engine, {}, { services: { unitOfWork: PLANTED_FAULTS['trade-price-list-every-store'] } });
    const controlFigures = newFigures();
    const differences: string[] = [];
    try {
      for (const steps of fc.sample(sequences, { numRuns: CONTROL_RUNS, seed })) {
        try {
          await play(mutant, steps, controlFigures);
        } catch (error) {
          // A difference from the model fails an expectation; anything else is not this control's finding.
          if (!(error instanceof Error) || error.name !== 'AssertionError') throw error;
          differences.push(error.message.split('\n')[0]!);
        }
      }
    } finally {
      await mutant.close();
    }
    reportLine(
      `isolation/control (trade price list of every store, ${engine}): ${CONTROL_RUNS} random sequences, ${figure(controlFigures.steps)} operations, ${figure(controlFigures.requests)} requests, ` +
        `${differences.length} with differences from the model${differences.length > 0 ? ` (first: ${differences[0]})` : ''}`,
    );
    expect(differences.length).toBeGreaterThan(0);
  }, 60_000);
});

interface Figures {
  steps: number;
  crossStore: number;
  requests: number;
}

function newFigures(): Figures {
  return { steps: 0, crossStore: 0, requests: 0 };
}

/** The random part of a sequence, after the prologue. */
const sequences = fc.array(stepArbitrary, { minLength: 10, maxLength: 50 });

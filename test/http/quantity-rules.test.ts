import { describe, expect, it } from 'vitest';
import type { PriceListPrice, ReplacePriceListPricesResult } from '../../src/contract/price-lists.js';
import type { Product } from '../../src/contract/products.js';
import type { ProductVariation, Variation } from '../../src/contract/variations.js';
import type { ProblemBody } from '../support/bodies.js';
import { expectError } from '../support/conventions.js';
import { enginesUnderTest } from '../support/engines.js';
import { StepClock } from '../support/history-record.js';
import { snapshotStore } from '../support/store-snapshot.js';
import { suiteServer } from '../support/suite-server.js';

/**
 * Quantity rules (docs/pricing.md, "Quantity rules"): a product's or variation's fewest, most
 * and case pack of units a line may order. Quotes and orders refuse a line that breaks its
 * rule, naming the line; the effective price says the rule.
 */
const HOUR = 3_600_000;

let sequence = 0;

describe.each(await enginesUnderTest())('quantity rules on %s', (engine) => {
  const clock = new StepClock(Date.parse('2026-06-01T00:00:00.000Z'));
  const suite = suiteServer(engine, { tenants: 1, services: { clock } });
  const call = (method: string, path: string, body?: unknown) => suite.api.request(method, path, { token: suite.tenant.token, body });
  async function ok<T>(method: string, path: string, body: unknown, status: number): Promise<T> {
    const response = await call(method, path, body);
    expect(response.status, `${method} ${path}: ${response.text}`).toBe(status);
    return response.body as T;
  }
  const snapshot = () => snapshotStore(suite.server.services.database, suite.tenant.storeId);
  const problemsOf = (body: unknown) =>
    (body as ProblemBody).errors.map(({ index, field, message }) => ({ ...(index !== undefined && { index }), field, message }));
  const customer = async () => (await ok<{ id: number }>('POST', '/v1/customers', { email: `rules-${engine}-${++sequence}@example.com` }, 201)).id;
  const sku = (name: string) => `${name}-${engine}-${++sequence}`;

  it('keeps a rule on products and variations: a left-out minimum is the increment; null removes it', async () => {
    const boxed = sku('BOXED');
    const loose = sku('LOOSE');
    const product = await ok<Product>(
      'POST',
      '/v1/products',
      {
        title: 'Screws',
        sku: sku('SCREWS'),
        price: 1,
        quantityRule: { increment: 12 },
        variations: [{ sku: boxed, quantityRule: { minimum: 100, maximum: 1000, increment: 100 } }, { sku: loose }],
      },
      201,
    );
    expect(product.quantityRule).toEqual({ minimum: 12, maximum: null, increment: 12 });
    expect(product.variations.map((variation) => variation.quantityRule)).toEqual([{ minimum: 100, maximum: 1000, increment: 100 }, null]);
    expect(await ok('GET', `/v1/products/${product.id}`, undefined, 200)).toEqual(product);
    const [boxedVariation, looseVariation] = product.variations as [ProductVariation, ProductVariation];
    expect(await ok('GET', `/v1/products/${product.id}/variations/${boxedVariation.id}`, undefined, 200)).toMatchObject({
      quantityRule: { minimum: 100, maximum: 1000, increment: 100 },
    });

    const updated = await ok<Variation>('PUT', `/v1/products/${product.id}/variations/${looseVariation.id}`, { quantityRule: { minimum: 1, maximum: 5 } }, 200);
    expect(updated.quantityRule).toEqual({ minimum: 1, maximum: 5, increment: 1 });
    expect((await ok<Product>('PUT', `/v1/products/${product.id}`, { title: 'Screws, boxed' }, 200)).quantityRule).toEqual({
      minimum: 12,
      maximum: null,
      increment: 12,
    });
    expect((await ok<Product>('PUT', `/v1/products/${product.id}`, { quantityRule: null }, 200)).quantityRule).toBeNull();
    // A variations item without a rule keeps the variation's; one with null removes it.
    const synced = await ok<Product>(
      'PUT',
      `/v1/products/${product.id}`,
      {
        variations: [
          { sku: boxed, price: 3 },
          { sku: loose, quantityRule: null },
        ],
      },
      200,
    );
    expect(synced.variations.map((variation) => variation.quantityRule)).toEqual([{ minimum: 100, maximum: 1000, increment: 100 }, null]);
    const plain = await ok<Product>('POST', '/v1/products', { title: 'Plain', sku: sku('PLAIN'), price: 1 }, 201);
    expect(plain.quantityRule).toBeNull();
  });

  it.each([
    [
      'a minimum not a multiple of the increment',
      { minimum: 5, increment: 12 },
      [{ field: 'quantityRule.minimum', message: 'must be a multiple of the increment (12)' }],
    ],
    [
      'a maximum not a multiple of the increment',
      { maximum: 30, increment: 12 },
      [{ field: 'quantityRule.maximum', message: 'must be a multiple of the increment (12)' }],
    ],
    ['a maximum below the minimum', { minimum: 10, maximum: 5 }, [{ field: 'quantityRule.maximum', message: 'must be at least the minimum (10)' }]],
    ['an increment of 0', { increment: 0 }, [{ field: 'quantityRule.increment', message: expect.any(String) }]],
    ['an unknown field', { step: 2 }, [{ field: 'quantityRule.step', message: expect.any(String) }]],
    ['a minimum above 1 000 000', { minimum: 1_000_001 }, [{ field: 'quantityRule.minimum', message: expect.any(String) }]],
    ['a maximum as text', { maximum: '12' }, [{ field: 'quantityRule.maximum', message: expect.any(String) }]],
    ['a rule that is an array', [12], [{ field: 'quantityRule', message: expect.any(String) }]],
  ])('refuses %s (422 naming the field), storing nothing, on a product, a bulk item and a variation', async (_name, rule, problems) => {
    const before = await snapshot();
    const created = await call('POST', '/v1/products', { title: 'Refused', sku: sku('REFUSED'), price: 1, quantityRule: rule });
    expectError(created, 422, 10);
    expect(problemsOf(created.body)).toEqual(problems);
    const bulk = await call('POST', '/v1/products/bulk', [
      { title: 'Fine', price: 1 },
      { title: 'Refused', price: 1, variations: [{ sku: sku('V'), quantityRule: rule }] },
    ]);
    expectError(bulk, 422, 10);
    expect(problemsOf(bulk.body)).toEqual(problems.map((problem) => ({ ...problem, index: 1, field: `variations[0].${problem.field}` })));
    expect(await snapshot()).toEqual(before);
  });

  it('refuses a quote or an order line that breaks its rule, naming the line; the variation’s own rule goes before the product’s', async () => {
    const boxed = sku('BOXED');
    const loose = sku('LOOSE');
    const own = sku('OWN');
    await ok(
      'POST',
      '/v1/products',
      {
        title: 'Screws',
        sku: own,
        price: 0.5,
        quantityRule: { minimum: 24, maximum: 480, increment: 12 },
        variations: [{ sku: boxed, price: 40, quantityRule: { increment: 100 } }, { sku: loose }],
      },
      201,
    );
    const customerId = await customer();
    const lines = (quantities: [number, number, number]) => [
      { sku: own, quantity: quantities[0] },
      { sku: boxed, quantity: quantities[1] },
      { sku: loose, quantity: quantities[2] },
    ];

    const quote = await ok<{ lines: Array<{ quantity: number; lineTotal: number }> }>('POST', '/v1/quotes', { customerId, lines: lines([24, 200, 480]) }, 200);
    expect(quote.lines.map((line) => line.lineTotal)).toEqual([12, 8000, 240]);

    const before = await snapshot();
    for (const [quantities, expected] of [
      [[30, 200, 24], [{ index: 0, field: 'quantity', message: 'must be a multiple of 12' }]],
      [
        [12, 50, 492],
        [
          { index: 0, field: 'quantity', message: 'must be at least 24' },
          { index: 1, field: 'quantity', message: 'must be a multiple of 100' },
          { index: 2, field: 'quantity', message: 'must be at most 480' },
        ],
      ],
    ] as const) {
      const refusedQuote = await call('POST', '/v1/quotes', { customerId, lines: lines([...quantities]) });
      expectError(refusedQuote, 422, 10);
      expect(problemsOf(refusedQuote.body)).toEqual(expected);
      const refusedOrder = await call('POST', '/v1/orders', { customerId, lines: lines([...quantities]) });
      expectError(refusedOrder, 422, 10);
      expect(problemsOf(refusedOrder.body)).toEqual(expected);
    }
    expect(await snapshot()).toEqual(before);
    expect((await ok<{ lines: unknown[] }>('POST', '/v1/orders', { customerId, lines: lines([36, 100, 24]) }, 201)).lines).toHaveLength(3);

    const effective = await ok<{ quantityRule: unknown }>(
      'GET',
      `/v1/trade-customer-product-prices/effective?customerId=${customerId}&sku=${boxed}&quantity=7`,
      undefined,
      200,
    );
    expect(effective.quantityRule).toEqual({ minimum: 100, maximum: null, increment: 100 });
    const ofLoose = await ok<{ quantityRule: unknown }>(
      'GET',
      `/v1/trade-customer-product-prices/effective?customerId=${customerId}&sku=${loose}`,
      undefined,
      200,
    );
    expect(ofLoose.quantityRule).toEqual({ minimum: 24, maximum: 480, increment: 12 });
  });

  it('quotes a past moment by the rule then', async () => {
    const item = sku('LATER');
    const product = await ok<Product>('POST', '/v1/products', { title: 'Later', sku: item, price: 2 }, 201);
    const customerId = await customer();
    const before = clock.step(HOUR);
    clock.step(HOUR);
    await ok('PUT', `/v1/products/${product.id}`, { quantityRule: { increment: 6 } }, 200);
    clock.step(HOUR);
    expect((await call('POST', '/v1/quotes', { customerId, at: before, lines: [{ sku: item, quantity: 1 }] })).status).toBe(200);
    expectError(await call('POST', '/v1/quotes', { customerId, lines: [{ sku: item, quantity: 1 }] }), 422, 10);
    const history = await ok<Array<{ before: { quantityRule: unknown }; after: { quantityRule: unknown } }>>(
      'GET',
      `/v1/price-history?productId=${product.id}&resource=product`,
      undefined,
      200,
    );
    expect(history[0]).toMatchObject({ before: { quantityRule: null }, after: { quantityRule: { minimum: 6, maximum: null, increment: 6 } } });
  });

  describe('on a price list entry', () => {
    const effectiveRule = async (customerId: number, item: string, quantity: number) =>
      await ok<{ quantityRule: unknown; priceListPriceId: number | null }>(
        'GET',
        `/v1/trade-customer-product-prices/effective?customerId=${customerId}&sku=${item}&quantity=${quantity}`,
        undefined,
        200,
      );
    const quoteProblems = async (customerId: number, item: string, quantity: number, at?: string) => {
      const response = await call('POST', '/v1/quotes', { customerId, ...(at !== undefined && { at }), lines: [{ sku: item, quantity }] });
      return response.status === 200 ? [] : problemsOf(response.body);
    };

    it('keeps its own rule (null by default), and a line it prices takes that rule instead of the SKU’s', async () => {
      const item = sku('CASE');
      const product = await ok<Product>('POST', '/v1/products', { title: 'Cased', sku: item, price: 2, quantityRule: { increment: 12 } }, 201);
      const list = await ok<{ id: number }>('POST', '/v1/price-lists', { name: `Packs ${++sequence}`, kind: 'fixed' }, 201);
      const entries = await ok<PriceListPrice[]>(
        'POST',
        `/v1/price-lists/${list.id}/prices/bulk`,
        [
          { productId: product.id, sku: item, price: 1.5, quantityRule: { minimum: 10, increment: 5 } },
          { productId: product.id, sku: item, price: 1.2, minQuantity: 100 },
        ],
        201,
      );
      expect(entries.map((entry) => entry.quantityRule)).toEqual([{ minimum: 10, maximum: null, increment: 5 }, null]);
      expect(await ok('GET', `/v1/price-lists/${list.id}/prices/${entries[0]!.id}`, undefined, 200)).toMatchObject({
        quantityRule: { minimum: 10, maximum: null, increment: 5 },
      });
      const withList = (await ok<{ id: number }>('POST', '/v1/customers', { email: `packs-${engine}-${++sequence}@example.com`, priceListIds: [list.id] }, 201))
        .id;
      const without = await customer();

      // The first entry prices 1–99 units: its rule. At 100 the second prices, with no rule of its own: the product's.
      expect(await quoteProblems(withList, item, 15)).toEqual([]);
      expect(await quoteProblems(withList, item, 12)).toEqual([{ index: 0, field: 'quantity', message: 'must be a multiple of 5' }]);
      expect(await quoteProblems(withList, item, 5)).toEqual([{ index: 0, field: 'quantity', message: 'must be at least 10' }]);
      expect(await quoteProblems(withList, item, 100)).toEqual([{ index: 0, field: 'quantity', message: 'must be a multiple of 12' }]);
      expect(await quoteProblems(withList, item, 108)).toEqual([]);
      expect(await quoteProblems(without, item, 15)).toEqual([{ index: 0, field: 'quantity', message: 'must be a multiple of 12' }]);
      const before = await snapshot();
      expectError(await call('POST', '/v1/orders', { customerId: withList, lines: [{ sku: item, quantity: 12 }] }), 422, 10);
      expect(await snapshot()).toEqual(before);
      expect((await ok<{ total: number }>('POST', '/v1/orders', { customerId: withList, lines: [{ sku: item, quantity: 15 }] }, 201)).total).toBe(22.5);

      expect(await effectiveRule(withList, item, 15)).toMatchObject({
        priceListPriceId: entries[0]!.id,
        quantityRule: { minimum: 10, maximum: null, increment: 5 },
      });
      expect(await effectiveRule(withList, item, 100)).toMatchObject({
        priceListPriceId: entries[1]!.id,
        quantityRule: { minimum: 12, maximum: null, increment: 12 },
      });
      expect(await effectiveRule(without, item, 15)).toMatchObject({ priceListPriceId: null, quantityRule: { minimum: 12, maximum: null, increment: 12 } });

      // A trade price the customer has wins over the list: the SKU's rule applies again.
      await ok('PUT', `/v1/customers/${withList}`, { trade: true }, 200);
      await ok('POST', '/v1/trade-customer-product-prices/bulk', [{ customerId: withList, productId: product.id, sku: item, price: 1 }], 201);
      expect(await quoteProblems(withList, item, 15)).toEqual([{ index: 0, field: 'quantity', message: 'must be a multiple of 12' }]);
    });

    it('refuses a rule that could not be kept, naming the item, storing nothing; a replace keeps only entries with the same rule', async () => {
      const item = sku('RULED');
      const product = await ok<Product>('POST', '/v1/products', { title: 'Ruled', sku: item, price: 2 }, 201);
      const list = await ok<{ id: number }>('POST', `/v1/price-lists`, { name: `Ruled ${++sequence}`, kind: 'fixed' }, 201);
      const before = await snapshot();
      const refused = await call('POST', `/v1/price-lists/${list.id}/prices/bulk`, [
        { productId: product.id, sku: item, price: 1, quantityRule: { minimum: 5, increment: 12 } },
        { productId: product.id, sku: item, price: 1, quantityRule: { increment: 0 } },
        { productId: product.id, sku: item, price: 1, quantityRule: 'twelve' },
      ]);
      expectError(refused, 422, 10);
      expect(problemsOf(refused.body)).toEqual([
        { index: 0, field: 'quantityRule.minimum', message: 'must be a multiple of the increment (12)' },
        { index: 1, field: 'quantityRule.increment', message: expect.any(String) },
        { index: 2, field: 'quantityRule', message: expect.any(String) },
      ]);
      expect(await snapshot()).toEqual(before);

      const kept = (
        await ok<PriceListPrice[]>(
          'POST',
          `/v1/price-lists/${list.id}/prices/bulk`,
          [{ productId: product.id, sku: item, price: 1, quantityRule: { increment: 6 } }],
          201,
        )
      )[0]!;
      const replace = (rule: unknown, dryRun: boolean) =>
        ok<ReplacePriceListPricesResult>(
          'POST',
          `/v1/price-lists/${list.id}/prices/replace`,
          { scope: 'list', dryRun, prices: [{ productId: product.id, sku: item, price: 1, quantityRule: rule }] },
          200,
        );
      expect(await replace({ minimum: 6, increment: 6 }, false)).toEqual({ created: [], deleted: [], unchanged: 1, overlaps: [] });
      const planned = await replace({ increment: 3 }, true);
      expect(planned.created).toEqual([expect.objectContaining({ id: null, quantityRule: { minimum: 3, maximum: null, increment: 3 } })]);
      expect(planned.deleted.map((entry) => entry.id)).toEqual([kept.id]);
      const done = await replace(null, false);
      expect(done.created).toEqual([expect.objectContaining({ quantityRule: null })]);
      expect(done.deleted).toEqual([expect.objectContaining({ id: kept.id, quantityRule: { minimum: 6, maximum: null, increment: 6 } })]);
    });

    it('is set by a change set’s entry, and a revert’s restore brings the entry back with its rule', async () => {
      const item = sku('STAGED');
      const product = await ok<Product>('POST', '/v1/products', { title: 'Staged', sku: item, price: 2 }, 201);
      const list = await ok<{ id: number }>('POST', '/v1/price-lists', { name: `Staged ${++sequence}`, kind: 'fixed' }, 201);
      const set = await ok<{ id: number }>('POST', '/v1/change-sets', { name: 'Cases' }, 201);
      await ok(
        'POST',
        `/v1/change-sets/${set.id}/operations`,
        [{ type: 'price_list_entry.create', priceListId: list.id, productId: product.id, sku: item, price: 1, quantityRule: { increment: 6 } }],
        201,
      );
      await ok('POST', `/v1/change-sets/${set.id}/apply`, {}, 200);
      const [entry] = await ok<PriceListPrice[]>('GET', `/v1/price-lists/${list.id}/prices`, undefined, 200);
      expect(entry?.quantityRule).toEqual({ minimum: 6, maximum: null, increment: 6 });
      await ok('DELETE', `/v1/price-lists/${list.id}/prices/${entry!.id}`, undefined, 204);
      const undo = await ok<{ id: number }>('POST', '/v1/change-sets', { name: 'Put it back' }, 201);
      await ok('POST', `/v1/change-sets/${undo.id}/operations`, [{ type: 'price_list_entry.restore', priceListId: list.id, id: entry!.id }], 201);
      await ok('POST', `/v1/change-sets/${undo.id}/apply`, {}, 200);
      expect(await ok('GET', `/v1/price-lists/${list.id}/prices/${entry!.id}`, undefined, 200)).toEqual(
        expect.objectContaining({ id: entry!.id, quantityRule: { minimum: 6, maximum: null, increment: 6 } }),
      );
    });

    it('quotes a past moment by the rule of the entry that priced it then, though the entry is gone', async () => {
      const item = sku('GONE');
      const product = await ok<Product>('POST', '/v1/products', { title: 'Gone', sku: item, price: 2 }, 201);
      const list = await ok<{ id: number }>('POST', '/v1/price-lists', { name: `Gone ${++sequence}`, kind: 'fixed' }, 201);
      const entry = (
        await ok<PriceListPrice[]>(
          'POST',
          `/v1/price-lists/${list.id}/prices/bulk`,
          [{ productId: product.id, sku: item, price: 1, quantityRule: { increment: 4 } }],
          201,
        )
      )[0]!;
      const customerId = (
        await ok<{ id: number }>('POST', '/v1/customers', { email: `gone-${engine}-${++sequence}@example.com`, priceListIds: [list.id] }, 201)
      ).id;
      const then = clock.step(HOUR);
      clock.step(HOUR);
      await ok('DELETE', `/v1/price-lists/${list.id}/prices/${entry.id}`, undefined, 204);
      clock.step(HOUR);
      expect(await quoteProblems(customerId, item, 3, then)).toEqual([{ index: 0, field: 'quantity', message: 'must be a multiple of 4' }]);
      expect(await quoteProblems(customerId, item, 8, then)).toEqual([]);
      expect(await quoteProblems(customerId, item, 3)).toEqual([]);
    });
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { enginesUnderTest } from '../support/engines.js';
import { suiteServer } from '../support/suite-server.js';

const PATH = '/v1/trade-customer-product-prices';

type Cause = 'customerId' | 'productId' | 'sku' | 'missing' | 'structure';
const CAUSES: readonly Cause[] = ['customerId', 'productId', 'sku', 'missing', 'structure'];

describe.each(await enginesUnderTest())('bulk create properties on %s', (engine) => {
  const suite = suiteServer(engine, { catalogs: true });

  const count = async () => ((await suite.server.request('GET', `${PATH}/count`, { token: suite.tenant.token })).body as { count: number }).count;

  /** A valid item: a trade customer, and a SKU that belongs to the product. */
  const validItem = () =>
    fc
      .record({
        customerId: fc.constantFrom(suite.catalog.tradeCustomer, suite.catalog.otherTradeCustomer),
        pair: fc.constantFrom<[number, string]>(
          [suite.catalog.tee, suite.catalog.skus.tee],
          [suite.catalog.tee, suite.catalog.skus.teeRedM],
          [suite.catalog.tee, suite.catalog.skus.teeRedL],
          [suite.catalog.mug, suite.catalog.skus.mug],
        ),
        // Any price with at most 4 decimals below 1e9, as integer ten-thousandths.
        units: fc.oneof(fc.integer({ min: 0, max: 9_999_999_999_999 }), fc.integer({ min: 0, max: 100_000 })),
      })
      .map(({ customerId, pair: [productId, sku], units }) => ({ customerId, productId, sku, price: units / 10_000 }));

  const invalidItem = (cause: Cause) =>
    validItem().chain((item): fc.Arbitrary<unknown> => {
      switch (cause) {
        case 'customerId':
          return fc.constantFrom(suite.catalog.regularCustomer, suite.foreign.tradeCustomer, 987_654_321).map((customerId) => ({ ...item, customerId }));
        case 'productId':
          return fc.constantFrom(suite.foreign.tee, 987_654_321).map((productId) => ({ ...item, productId }));
        case 'sku':
          return fc
            .constantFrom(
              suite.foreign.skus.tee,
              item.productId === suite.catalog.mug ? suite.catalog.skus.tee : suite.catalog.skus.mug,
              'NO-SUCH-SKU',
              item.sku.toLowerCase(),
            )
            .map((sku) => ({ ...item, sku }));
        case 'missing':
          return fc
            .constantFrom('customerId', 'productId', 'sku', 'price')
            .map((field) => Object.fromEntries(Object.entries(item).filter(([key]) => key !== field)));
        case 'structure':
          return fc.constantFrom<unknown>(null, 42, 'item', [item], true);
      }
    });

  it('a batch with invalid items creates nothing and reports exactly the invalid indexes', async () => {
    const batch = fc
      .array(
        fc.oneof(
          validItem().map((item) => ({ item, cause: undefined as Cause | undefined })),
          fc.constantFrom(...CAUSES).chain((cause) => invalidItem(cause).map((item) => ({ item, cause }))),
        ),
        { minLength: 1, maxLength: 40 },
      )
      .filter((entries) => entries.some((entry) => entry.cause !== undefined));
    await fc.assert(
      fc.asyncProperty(batch, async (entries) => {
        const before = await count();
        const response = await suite.server.request('POST', `${PATH}/bulk`, { token: suite.tenant.token, body: entries.map((entry) => entry.item) });
        expect(response.status).toBe(422);
        const body = response.body as { code: number; errors: Array<{ index: number }> };
        expect(body.code).toBe(10);
        const invalid = entries.flatMap((entry, index) => (entry.cause === undefined ? [] : [index]));
        expect([...new Set(body.errors.map((error) => error.index))]).toEqual(invalid);
        expect(await count()).toBe(before);
      }),
      { numRuns: 40 },
    );
  });

  it('a valid batch creates exactly its items, every value returned as sent', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(validItem(), { minLength: 1, maxLength: 60 }), async (items) => {
        const before = await count();
        const response = await suite.server.request('POST', `${PATH}/bulk`, { token: suite.tenant.token, body: items });
        expect(response.status).toBe(201);
        const records = response.body as Array<{ id: number; customerId: number; productId: number; sku: string; price: number }>;
        expect(records.map(({ customerId, productId, sku, price }) => ({ customerId, productId, sku, price }))).toEqual(items);
        // Exact on the wire too: each record's price, read from the raw text, is the JSON text
        // JSON.stringify gives for the price sent (no rounding, padding or exponent of its own).
        const priceTexts = records.map((record) => new RegExp(`\\{"id":${record.id},[^{}]*?"price":([^,}]*)[,}]`).exec(response.text)?.[1]);
        expect(priceTexts).toEqual(items.map((item) => JSON.stringify(item.price)));
        expect(await count()).toBe(before + items.length);
        const stored = await suite.server.request('GET', `${PATH}/${records[records.length - 1]!.id}`, { token: suite.tenant.token });
        expect(stored.body).toEqual(records[records.length - 1]);
      }),
      { numRuns: 40 },
    );
  });
});

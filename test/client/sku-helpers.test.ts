import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Pricebook, PricebookError, type TradePriceInput, UnknownSkusError, type WithOptionalProductId } from '../../packages/client/src/index.js';
import { enginesUnderTest } from '../support/engines.js';
import { suiteServer } from '../support/suite-server.js';

/** The client's bulk catalog creates, the SKU lookup, and the helper that fills `productId` from SKUs. */
describe.each(await enginesUnderTest())('the client for integrators who know SKUs, on %s', (engine) => {
  const suite = suiteServer(engine, { tenants: 1 });
  let client: Pricebook;

  beforeAll(() => {
    client = new Pricebook({ baseUrl: suite.server.baseUrl, token: suite.tenant.token, ca: suite.server.ca });
  });
  afterAll(() => client.close());

  it('creates customers and products in bulk, and looks SKUs up', async () => {
    const customers = await client.customers.createMany([{ email: 'erp-1@example.com', trade: true }, { email: 'erp-2@example.com' }], {
      idempotencyKey: 'erp-customers',
    });
    expect(customers.map((customer) => [customer.email, customer.trade])).toEqual([
      ['erp-1@example.com', true],
      ['erp-2@example.com', false],
    ]);
    // The same key and body replays: still two customers.
    expect(
      await client.customers.createMany([{ email: 'erp-1@example.com', trade: true }, { email: 'erp-2@example.com' }], { idempotencyKey: 'erp-customers' }),
    ).toEqual(customers);
    expect(await client.customers.count()).toBe(2);

    const [shirt, mug] = await client.products.createMany([
      { title: 'Shirt', sku: 'ERP-SHIRT', price: 20, variations: [{ sku: 'ERP-SHIRT-M', price: 21.5 }] },
      { title: 'Mug', sku: 'ERP-MUG', price: 4.2 },
    ]);
    expect(await client.skus.lookup(['ERP-SHIRT-M', 'ERP-NOPE', 'ERP-MUG'])).toEqual({
      found: [
        { sku: 'ERP-SHIRT-M', productId: shirt!.id, variationId: shirt!.variations[0]!.id, price: 21.5 },
        { sku: 'ERP-MUG', productId: mug!.id, variationId: null, price: 4.2 },
      ],
      unknown: ['ERP-NOPE'],
    });

    const refused = await client.products.createMany([{ title: 'Again', sku: 'ERP-MUG', price: 1 }]).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(PricebookError);
    expect(refused).toMatchObject({ status: 422, code: 10, errors: [{ index: 0, field: 'sku', message: "SKU 'ERP-MUG' is already in use in this store" }] });
  });

  it('fills productId from SKUs, 1000 a lookup, for a bulk create and a replace', async () => {
    const variations = (from: number, count: number) => Array.from({ length: count }, (_, index) => ({ sku: `FILL-${from + index}` }));
    const [first, second] = await client.products.createMany([
      { title: 'Thousand', price: 1, variations: variations(0, 1000) },
      { title: 'Five hundred', sku: 'FILL-OWN', price: 2, variations: variations(1000, 500) },
    ]);
    const [customer] = await client.customers.createMany([{ email: 'fill@example.com', trade: true }]);
    const skus = [...Array.from({ length: 1500 }, (_, index) => `FILL-${index}`), 'FILL-OWN'];
    // Each SKU twice, and one item that already names its product: 1501 distinct SKUs to look up.
    const items = [...skus, ...skus].map((sku, index) => ({ customerId: customer!.id, sku, price: index % 100 }));
    const given = { customerId: customer!.id, productId: second!.id, sku: 'FILL-OWN', price: 9 };
    const requestsBefore = client.counters.requests;
    const filled = await client.skus.fillProductIds<WithOptionalProductId<TradePriceInput>>([...items, given]);
    expect(client.counters.requests - requestsBefore).toBe(2);
    const productOf = (sku: string) => (sku === 'FILL-OWN' || Number(sku.slice(5)) >= 1000 ? second!.id : first!.id);
    expect(filled).toEqual([...items.map((item) => ({ ...item, productId: productOf(item.sku) })), given]);

    const created = await client.tradePrices.bulkCreate(filled);
    expect(created.records).toHaveLength(filled.length);
    expect(created.records[1234]).toMatchObject({ sku: filled[1234]!.sku, productId: filled[1234]!.productId });

    const prices = await client.skus.fillProductIds([
      { sku: 'FILL-7', price: 3 },
      { sku: 'FILL-OWN', price: 4 },
    ]);
    const replaced = await client.replaceCustomerPrices(customer!.id, prices, { scope: 'skus' });
    expect(replaced.created.map(({ productId, sku, price }) => ({ productId, sku, price }))).toEqual([
      { productId: first!.id, sku: 'FILL-7', price: 3 },
      { productId: second!.id, sku: 'FILL-OWN', price: 4 },
    ]);
  });

  it('throws an UnknownSkusError listing every SKU the store does not have, and returns nothing', async () => {
    const [product] = await client.products.createMany([{ title: 'Known', sku: 'KNOWN-1', price: 1 }]);
    const missing = Array.from({ length: 25 }, (_, index) => `MISSING-${index}`);
    const error = await client.skus
      .fillProductIds([
        { sku: 'KNOWN-1', price: 1 },
        ...missing.map((sku) => ({ sku, price: 1 })),
        { sku: 'MISSING-0', price: 2 },
        { productId: product!.id, sku: 'NOT-LOOKED-UP', price: 1 },
      ])
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UnknownSkusError);
    expect((error as UnknownSkusError).skus).toEqual(missing);
    expect((error as UnknownSkusError).message).toBe(
      `25 SKUs are not in this store: ${missing
        .slice(0, 20)
        .map((sku) => `"${sku}"`)
        .join(', ')} and 5 more`,
    );
    const one = await client.skus.fillProductIds([{ sku: 'ONLY-MISSING', price: 1 }]).catch((caught: unknown) => caught);
    expect((one as Error).message).toBe('1 SKU is not in this store: "ONLY-MISSING"');
  });
});

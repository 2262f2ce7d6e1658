import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import type { EffectivePrice } from '../../src/contract/trade-prices.js';
import { enginesUnderTest } from '../support/engines.js';
import { ensureRecorded, StepClock } from '../support/history-record.js';
import { suiteServer } from '../support/suite-server.js';

/**
 * An effective price or a quote asked `at` a past moment answers as the server answered then
 * (docs/history.md, "As-of reads"): trade prices and entries deleted since, the catalog price,
 * the list's percentage, the customer's lists and trade flag as they were, and a customer
 * deleted since still answered from its history.
 */
const TRADE = '/v1/trade-customer-product-prices';
const HOUR = 3_600_000;

describe.each(await enginesUnderTest())('as-of effective prices and quotes, on %s', (engine) => {
  const clock = new StepClock(Date.parse('2026-06-01T00:00:00.000Z'));
  const suite = suiteServer(engine, { tenants: 1, services: { clock } });
  const request = (method: string, path: string, body?: unknown) => suite.api.request(method, path, { token: suite.tenant.token, body });
  const ok = async <T>(method: string, path: string, body?: unknown, status = 200): Promise<T> => {
    const response = await request(method, path, body);
    expect(response.status, `${method} ${path}: ${response.text}`).toBe(status);
    return response.body as T;
  };
  /** Makes a change at the next moment, making sure the history has it. */
  const change = async <T extends { id: number }>(
    resource: 'customer' | 'price_list' | 'product',
    method: string,
    path: string,
    body: unknown,
    before: object | null,
  ): Promise<T> => {
    const at = clock.step(HOUR);
    const after = await ok<T>(method, path, body, method === 'POST' ? 201 : 200);
    await ensureRecorded(suite.server, suite.tenant.storeId, at, { resource, id: after.id, change: before === null ? 'created' : 'updated', before, after });
    return after;
  };

  const sku = `ASOF-${engine}`;
  const world = {
    product: 0,
    fixed: 0,
    percent: 0,
    customer: 0,
    tradePrice: 0,
    entry: 0,
    moments: { catalogOnly: '', priced: '', reassigned: '', deleted: '' },
  };
  const effective = (at?: string, customer = world.customer) =>
    request('GET', `${TRADE}/effective?customerId=${customer}&sku=${sku}&quantity=2${at === undefined ? '' : `&at=${encodeURIComponent(at)}`}`);
  const effectiveAt = async (at?: string, customer = world.customer) => {
    const response = await effective(at, customer);
    expect(response.status, response.text).toBe(200);
    return response.body as EffectivePrice;
  };
  const quoteAt = (at: string) => request('POST', '/v1/quotes', { customerId: world.customer, at, lines: [{ sku, quantity: 2 }] });

  beforeAll(async () => {
    // t0: the catalog, two lists and a trade customer of the fixed one.
    const product = await change<{ id: number; price: number }>('product', 'POST', '/v1/products', { title: 'As of', sku, price: 10 }, null);
    world.product = product.id;
    const fixed = await change<{ id: number }>('price_list', 'POST', '/v1/price-lists', { name: `Fixed ${engine}`, kind: 'fixed' }, null);
    world.fixed = fixed.id;
    const percent = await change<{ id: number }>(
      'price_list',
      'POST',
      '/v1/price-lists',
      { name: `Percent ${engine}`, kind: 'percentage', percentage: 10 },
      null,
    );
    world.percent = percent.id;
    const customer = await change<{ id: number }>(
      'customer',
      'POST',
      '/v1/customers',
      { email: `asof-${engine}@example.com`, trade: true, priceListIds: [world.fixed] },
      null,
    );
    world.customer = customer.id;
    world.moments.catalogOnly = clock.step(HOUR);

    // t1: a trade price and an entry.
    clock.step(HOUR);
    world.tradePrice = (
      await ok<Array<{ id: number }>>('POST', `${TRADE}/bulk`, [{ customerId: world.customer, productId: world.product, sku, price: 8 }], 201)
    )[0]!.id;
    world.entry = (
      await ok<Array<{ id: number }>>('POST', `/v1/price-lists/${world.fixed}/prices/bulk`, [{ productId: world.product, sku, price: 9 }], 201)
    )[0]!.id;
    world.moments.priced = clock.step(HOUR);

    // t2: the catalog price, the percentage and the customer change.
    await change('product', 'PUT', `/v1/products/${world.product}`, { price: 12 }, product);
    await change('price_list', 'PUT', `/v1/price-lists/${world.percent}`, { percentage: 20 }, percent);
    await change('customer', 'PUT', `/v1/customers/${world.customer}`, { trade: false, priceListIds: [world.percent, world.fixed] }, customer);
    world.moments.reassigned = clock.step(HOUR);

    // t3: the trade price and the entry are deleted; then now.
    clock.step(HOUR);
    await ok('DELETE', `${TRADE}/${world.tradePrice}`, undefined, 204);
    await ok('DELETE', `/v1/price-lists/${world.fixed}/prices/${world.entry}`, undefined, 204);
    world.moments.deleted = clock.step(HOUR);
    clock.step(HOUR);
  });

  it('answers the live book without at, and with a moment not in the past', async () => {
    const live = await effectiveAt();
    expect(live).toMatchObject({ price: 9.6, source: 'price_list', priceListId: world.percent, tradePriceId: null });
    const future = await effectiveAt(new Date(clock.moment + HOUR).toISOString());
    expect(future).toMatchObject({ price: 9.6, source: 'price_list', priceListId: world.percent });
  });

  it('sees a trade price and an entry deleted since, with the customer a trade customer of the fixed list then', async () => {
    const then = await effectiveAt(world.moments.priced);
    expect(then).toMatchObject({ price: 8, source: 'trade', tradePriceId: world.tradePrice, priceListId: null, candidateCount: 2 });
    expect(
      then.candidates.map(({ source, tradePriceId, priceListPriceId, price, applies, reason }) => ({
        source,
        tradePriceId,
        priceListPriceId,
        price,
        applies,
        reason,
      })),
    ).toEqual([
      { source: 'trade', tradePriceId: world.tradePrice, priceListPriceId: null, price: 8, applies: true, reason: null },
      { source: 'price_list', tradePriceId: null, priceListPriceId: world.entry, price: 9, applies: false, reason: 'trade price wins' },
    ]);
    const quote = await quoteAt(world.moments.priced);
    expect(quote.status, quote.text).toBe(200);
    expect(quote.body).toMatchObject({
      at: world.moments.priced,
      total: 16,
      lines: [{ unitPrice: 8, lineTotal: 16, source: 'trade', tradePriceId: world.tradePrice }],
    });
  });

  it('prices from the catalog price of the moment before any trade price or entry', async () => {
    expect(await effectiveAt(world.moments.catalogOnly)).toMatchObject({ price: 10, source: 'product', candidateCount: 0 });
    const quote = await quoteAt(world.moments.catalogOnly);
    expect(quote.body).toMatchObject({ lines: [{ unitPrice: 10, source: 'product' }] });
  });

  it('takes the list order, percentage, trade flag and catalog price of the moment', async () => {
    // Reassigned: no longer a trade customer, the percentage list (20 % by then) first, of 12.
    const then = await effectiveAt(world.moments.reassigned);
    expect(then).toMatchObject({ price: 9.6, source: 'price_list', priceListId: world.percent, priceListPriceId: null });
    expect(then.candidates.map(({ source, applies, reason }) => ({ source, applies, reason }))).toEqual([
      { source: 'trade', applies: false, reason: 'customer is not a trade customer' },
      { source: 'price_list', applies: true, reason: null },
      { source: 'price_list', applies: false, reason: 'earlier price list wins' },
    ]);
    expect(await effectiveAt(world.moments.deleted)).toMatchObject({ price: 9.6, candidateCount: 1 });
  });

  it('answers for a customer deleted since from its history, and 404 before it existed', async () => {
    const gone = await change<{ id: number }>('customer', 'POST', '/v1/customers', { email: `gone-${engine}@example.com`, trade: true }, null);
    const existed = clock.step(HOUR);
    const record = await ok<object>('GET', `/v1/customers/${gone.id}`);
    const deletedAt = clock.step(HOUR);
    await ok('DELETE', `/v1/customers/${gone.id}`, undefined, 204);
    await ensureRecorded(suite.server, suite.tenant.storeId, deletedAt, { resource: 'customer', id: gone.id, change: 'deleted', before: record, after: null });
    clock.step(HOUR);

    expect((await effective(undefined, gone.id)).status).toBe(404);
    const asOf = await effective(existed, gone.id);
    expect(asOf.status, asOf.text).toBe(200);
    expect(asOf.body).toMatchObject({ customerId: gone.id, price: 12, source: 'product' });
    const before = await effective(world.moments.catalogOnly, gone.id);
    expect(before.status, before.text).toBe(404);
    const quote = await request('POST', '/v1/quotes', { customerId: gone.id, at: world.moments.catalogOnly, lines: [{ sku, quantity: 1 }] });
    expect(quote.status).toBe(422);
  });

  it('takes a customer without history (made before the history began) as its row, from the moment it was created', async () => {
    const before = clock.step(HOUR);
    const made = await change<{ id: number; createdAt: string }>(
      'customer',
      'POST',
      '/v1/customers',
      { email: `old-${engine}@example.com`, trade: true, priceListIds: [world.fixed] },
      null,
    );
    // As data from before the history: the row, and no entry.
    await sql`delete from price_history where store_id = ${suite.tenant.storeId} and resource = 'customer' and resource_id = ${made.id}`.execute(
      suite.server.services.database.db,
    );
    clock.step(HOUR);
    expect((await effective(before, made.id)).status).toBe(404);
    const since = await effective(made.createdAt, made.id);
    expect(since.status, since.text).toBe(200);
    expect(since.body).toMatchObject({ customerId: made.id, source: 'product' });
  });

  it("takes each list's policy of the moment: a list made a lowest-price list since took its turn in the walk before", async () => {
    const base = await change<{ id: number }>('price_list', 'POST', '/v1/price-lists', { name: `Base ${engine}`, kind: 'fixed' }, null);
    const sale = await change<{ id: number; name: string }>('price_list', 'POST', '/v1/price-lists', { name: `Sale ${engine}`, kind: 'fixed' }, null);
    clock.step(HOUR);
    await ok('POST', `/v1/price-lists/${base.id}/prices/bulk`, [{ productId: world.product, sku, price: 11 }], 201);
    const saleEntry = (
      await ok<Array<{ id: number }>>('POST', `/v1/price-lists/${sale.id}/prices/bulk`, [{ productId: world.product, sku, price: 7 }], 201)
    )[0]!.id;
    const buyer = await change<{ id: number }>(
      'customer',
      'POST',
      '/v1/customers',
      { email: `policy-${engine}@example.com`, priceListIds: [base.id, sale.id] },
      null,
    );
    const walked = clock.step(HOUR);
    await change('price_list', 'PUT', `/v1/price-lists/${sale.id}`, { policy: 'lowest' }, sale);
    const lowest = clock.step(HOUR);
    clock.step(HOUR);

    // Then: Base came first and won. Since: Sale stands aside and is lower.
    expect((await effective(walked, buyer.id)).body).toMatchObject({ price: 11, priceListId: base.id });
    const since = await effective(lowest, buyer.id);
    expect(since.body).toMatchObject({ price: 7, priceListId: sale.id, priceListPriceId: saleEntry });
    expect((since.body as EffectivePrice).candidates.map(({ priceListId, applies, reason }) => ({ priceListId, applies, reason }))).toEqual([
      { priceListId: base.id, applies: false, reason: 'lower price wins' },
      { priceListId: sale.id, applies: true, reason: null },
    ]);
    expect((await effective(undefined, buyer.id)).body).toMatchObject({ price: 7, priceListId: sale.id });
    const quote = await request('POST', '/v1/quotes', { customerId: buyer.id, at: walked, lines: [{ sku, quantity: 2 }] });
    expect(quote.body).toMatchObject({ lines: [{ unitPrice: 11, priceListId: base.id }] });
  });

  it("takes a percentage list's rounding of the moment", async () => {
    const whole = await change<{ id: number; name: string }>(
      'price_list',
      'POST',
      '/v1/price-lists',
      { name: `Whole ${engine}`, kind: 'percentage', percentage: 10, rounding: { increment: 1, mode: 'up' } },
      null,
    );
    const buyer = await change<{ id: number }>(
      'customer',
      'POST',
      '/v1/customers',
      { email: `rounding-${engine}@example.com`, priceListIds: [whole.id] },
      null,
    );
    const rounded = clock.step(HOUR);
    await change('price_list', 'PUT', `/v1/price-lists/${whole.id}`, { rounding: null }, whole);
    const pennies = clock.step(HOUR);
    clock.step(HOUR);
    // 10 % off 12: 10.80, charged 11 while the list rounded up to whole units, 10.8 since.
    expect((await effective(rounded, buyer.id)).body).toMatchObject({
      price: 11,
      priceListId: whole.id,
      candidates: [expect.objectContaining({ price: 11, unroundedPrice: 10.8 })],
    });
    expect((await effective(pennies, buyer.id)).body).toMatchObject({
      price: 10.8,
      candidates: [expect.objectContaining({ price: 10.8, unroundedPrice: 10.8 })],
    });
  });

  it('explains a moment with more records than a page (2000) of live and since-deleted ones, every one a candidate', async () => {
    const buyer = await change<{ id: number }>('customer', 'POST', '/v1/customers', { email: `many-${engine}@example.com`, trade: true }, null);
    const createdAt = clock.step(HOUR);
    const items = Array.from({ length: 2100 }, (_, n) => ({
      customerId: buyer.id,
      productId: world.product,
      sku,
      price: 1 + n / 100,
      minQuantity: 1,
      validFrom: null,
      validUntil: null,
    }));
    const records = await suite.server.services.uow.transaction((repos) => repos.tradePrices.insertMany(suite.tenant.storeId, items, createdAt));
    const then = clock.step(HOUR);
    clock.step(HOUR);
    for (const record of records.slice(-3)) await ok('DELETE', `${TRADE}/${record.id}`, undefined, 204);
    clock.step(HOUR);
    // Then: all 2100 (the newest, deleted since, won); now: 2097.
    const asOf = await effectiveAt(then, buyer.id);
    expect(asOf).toMatchObject({ tradePriceId: records.at(-1)!.id, candidateCount: 2100 });
    expect(asOf.shadowedTradePriceIds).toEqual(
      records
        .slice(0, -1)
        .map((record) => record.id)
        .reverse(),
    );
    expect(await effectiveAt(undefined, buyer.id)).toMatchObject({ tradePriceId: records.at(-4)!.id, candidateCount: 2097 });
  });

  it('refuses a SKU that no product had at the moment', async () => {
    const later = `ASOF-LATER-${engine}`;
    const before = clock.step(HOUR);
    await change('product', 'POST', '/v1/products', { title: 'Later', sku: later, price: 5 }, null);
    clock.step(HOUR);
    const response = await request('GET', `${TRADE}/effective?customerId=${world.customer}&sku=${later}&at=${encodeURIComponent(before)}`);
    expect(response.status, response.text).toBe(404);
    const quote = await request('POST', '/v1/quotes', { customerId: world.customer, at: before, lines: [{ sku: later, quantity: 1 }] });
    expect(quote.status).toBe(422);
    expect(quote.body).toMatchObject({ errors: [{ index: 0, field: 'sku' }] });
  });
});

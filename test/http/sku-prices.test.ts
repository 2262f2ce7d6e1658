import { describe, expect, it } from 'vitest';
import type { Event } from '../../src/contract/events.js';
import { expectError } from '../support/conventions.js';
import { enginesUnderTest } from '../support/engines.js';
import { suiteServer } from '../support/suite-server.js';
import type { HttpResponse } from '../support/test-server.js';
import type { Import } from '../../src/contract/imports.js';
import type { Order, OrderLine } from '../../src/contract/orders.js';
import type { Product } from '../../src/contract/products.js';
import type { Quote } from '../../src/contract/quotes.js';
import type { EffectivePrice } from '../../src/contract/trade-prices.js';
import { CLI_ORIGIN } from '../../src/modules/history/change-records.js';

/** How a price was arrived at, as effective prices, quote lines and order lines all say it. */
type PricedAnswer = Pick<OrderLine, 'productId' | 'variationId' | 'source' | 'tradePriceId' | 'priceListPriceId'>;

let sequence = 0;
/** Names unique per test run, so tests sharing a store do not collide. */
const unique = (name: string) => `${name}-${++sequence}`;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A trade price or price list entry belongs to the product it was recorded for
 * (docs/pricing.md, "A price belongs to its product"): a SKU rename is refused while prices of
 * it remain, a deleted variation takes its prices along, and a freed SKU taken by another
 * product is priced as that product's. The first two tests are the reproductions.
 */
describe.each(await enginesUnderTest())('prices of a SKU that leaves its product, on %s', (engine) => {
  const suite = suiteServer(engine, { tenants: 1 });

  const call = (method: string, path: string, body?: unknown) => suite.api.request(method, path, { token: suite.tenant.token, body });
  async function ok<T>(method: string, path: string, body: unknown, status: number): Promise<T> {
    const response = await call(method, path, body);
    expect(response.status, `${method} ${path}: ${response.text.slice(0, 300)}`).toBe(status);
    return response.body as T;
  }
  const product = (body: object) => ok<Product>('POST', '/v1/products', { title: 'Product', ...body }, 201);
  const customer = (body: object = {}) => ok<{ id: number }>('POST', '/v1/customers', { email: `${unique('buyer')}@example.com`, trade: true, ...body }, 201);
  const tradePrices = (items: object[]) => ok<Array<{ id: number }>>('POST', '/v1/trade-customer-product-prices/bulk', items, 201);
  const priceList = () => ok<{ id: number }>('POST', '/v1/price-lists', { name: unique('List'), kind: 'fixed' }, 201);
  const entries = (listId: number, items: object[]) => ok<Array<{ id: number }>>('POST', `/v1/price-lists/${listId}/prices/bulk`, items, 201);
  const effective = (customerId: number, sku: string) =>
    ok<EffectivePrice>('GET', `/v1/trade-customer-product-prices/effective?customerId=${customerId}&sku=${sku}`, undefined, 200);
  const quoteLine = async (customerId: number, sku: string) =>
    (await ok<Quote>('POST', '/v1/quotes', { customerId, lines: [{ sku, quantity: 1 }] }, 200)).lines[0]!;
  const orderLine = async (customerId: number, sku: string) =>
    (await ok<Order>('POST', '/v1/orders', { customerId, lines: [{ sku, quantity: 1 }] }, 201)).lines[0]!;
  /** What a customer pays for one unit of `sku`, asked three ways; the three must agree. */
  async function pricedThreeWays(customerId: number, sku: string) {
    const [answer, quoted, ordered] = [await effective(customerId, sku), await quoteLine(customerId, sku), await orderLine(customerId, sku)];
    const pick = ({ productId, variationId, source, tradePriceId, priceListPriceId }: PricedAnswer, price: number) => ({
      productId,
      variationId,
      source,
      tradePriceId,
      priceListPriceId,
      price,
    });
    const seen = pick(answer, answer.price);
    expect([pick(quoted, quoted.unitPrice), pick(ordered, ordered.unitPrice)]).toEqual([seen, seen]);
    return seen;
  }
  async function lastEventId(): Promise<number> {
    let after = 0;
    for (let page = 0; page < 1000; page++) {
      const batch = await ok<Event[]>('GET', `/v1/events?after=${after}&count=100`, undefined, 200);
      if (batch.length === 0) return after;
      after = batch.at(-1)!.id;
    }
    throw new Error('too many events');
  }
  const eventsAfter = (after: number) => ok<Event[]>('GET', `/v1/events?after=${after}&count=100`, undefined, 200);

  it('issue reproduction: a renamed SKU’s trade price never prices the product that takes the SKU next', async () => {
    const [x1, y1] = [unique('X'), unique('Y')];
    const a = await product({ sku: x1, price: 10 });
    const c = await customer();
    const [price] = await tradePrices([{ customerId: c.id, productId: a.id, sku: x1, price: 1 }]);
    const before = await lastEventId();

    const refused = await call('PUT', `/v1/products/${a.id}`, { sku: y1 });
    expectError(refused, 409, 15);
    expect((refused.body as { message: string }).message).toBe(`SKU '${x1}' has 1 trade price (id ${price!.id}): delete it before renaming the SKU`);
    // Nothing changed: the product, its SKU, its price and the events.
    expect(await ok('GET', `/v1/products/${a.id}`, undefined, 200)).toEqual(a);
    expectError(await call('POST', '/v1/products', { title: 'B', sku: x1, price: 100 }), 422, 10, /Validation failed/);
    expect(await eventsAfter(before)).toEqual([]);
    expect(await pricedThreeWays(c.id, x1)).toEqual({
      productId: a.id,
      variationId: null,
      source: 'trade',
      tradePriceId: price!.id,
      priceListPriceId: null,
      price: 1,
    });

    // Once its price is gone the rename goes through, and product B takes X-1 at its own price.
    expect((await call('DELETE', `/v1/trade-customer-product-prices/${price!.id}`)).status).toBe(204);
    expect(await ok<Product>('PUT', `/v1/products/${a.id}`, { sku: y1 }, 200)).toMatchObject({ sku: y1 });
    const b = await product({ sku: x1, price: 100 });
    expect(await pricedThreeWays(c.id, x1)).toEqual({
      productId: b.id,
      variationId: null,
      source: 'product',
      tradePriceId: null,
      priceListPriceId: null,
      price: 100,
    });
  });

  it('issue reproduction: a deleted variation’s prices go with it, with their events, and never price another product’s new variation', async () => {
    const [v1, own] = [unique('V'), unique('P')];
    const p = await product({ sku: own, price: 20, variations: [{ sku: v1, price: 9 }] });
    const q = await product({ price: 30 });
    const list = await priceList();
    const trader = await customer();
    const listed = await customer({ priceListIds: [list.id] });
    const [variationPrice, ownPrice] = await tradePrices([
      { customerId: trader.id, productId: p.id, sku: v1, price: 3 },
      { customerId: trader.id, productId: p.id, sku: own, price: 4 },
    ]);
    const [entry] = await entries(list.id, [{ productId: p.id, sku: v1, price: 5 }]);
    expect((await pricedThreeWays(trader.id, v1)).price).toBe(3);
    const before = await lastEventId();
    const deletedPrice = await ok<Record<string, unknown>>('GET', `/v1/trade-customer-product-prices/${variationPrice!.id}`, undefined, 200);
    const deletedEntry = await ok<Record<string, unknown>>('GET', `/v1/price-lists/${list.id}/prices/${entry!.id}`, undefined, 200);

    expect((await call('DELETE', `/v1/products/${p.id}/variations/${p.variations[0]!.id}`)).status).toBe(204);
    expect((await call('GET', `/v1/trade-customer-product-prices/${variationPrice!.id}`)).status).toBe(404);
    expect((await call('GET', `/v1/price-lists/${list.id}/prices/${entry!.id}`)).status).toBe(404);
    // The product's own SKU keeps its price.
    expect((await call('GET', `/v1/trade-customer-product-prices/${ownPrice!.id}`)).status).toBe(200);
    const events = await eventsAfter(before);
    expect(events.map((event) => `${event.topic}:${event.subjectId}`)).toEqual([
      `trade_customer_product_price.deleted:${variationPrice!.id}`,
      `price_list_price.deleted:${entry!.id}`,
      `product.updated:${p.id}`,
    ]);
    expect(events.slice(0, 2).map((event) => event.data)).toEqual([deletedPrice, deletedEntry]);

    // Product Q takes the freed SKU: every customer pays Q's variation price.
    const created = await ok<{ id: number }>('POST', `/v1/products/${q.id}/variations`, { sku: v1, price: 7 }, 201);
    const atQ = { productId: q.id, variationId: created.id, source: 'variation', tradePriceId: null, priceListPriceId: null, price: 7 };
    expect(await pricedThreeWays(trader.id, v1)).toEqual(atQ);
    expect(await pricedThreeWays(listed.id, v1)).toEqual(atQ);
  });

  it('names what a refused rename waits for: counts, the first ids, the entries’ lists; and changes nothing', async () => {
    const [own, size] = [unique('OWN'), unique('SIZE')];
    const p = await product({ sku: own, price: 10, variations: [{ sku: size }] });
    const [first, second] = [await priceList(), await priceList()];
    const c = await customer();
    const trade = await tradePrices(Array.from({ length: 7 }, (_item, index) => ({ customerId: c.id, productId: p.id, sku: own, price: index + 1 })));
    const [ownEntry] = await entries(first.id, [{ productId: p.id, sku: own, price: 2 }]);
    const [sizeEntry] = await entries(second.id, [{ productId: p.id, sku: size, price: 3 }]);
    const [otherEntry] = await entries(first.id, [{ productId: p.id, sku: size, price: 4 }]);
    const before = await lastEventId();

    const cleared = await call('PUT', `/v1/products/${p.id}`, { sku: null, title: 'Renamed' });
    expectError(cleared, 409, 15);
    const shown = trade.slice(0, 5).map((record) => record.id);
    expect((cleared.body as { message: string }).message).toBe(
      `SKU '${own}' has 7 trade prices (ids ${shown.join(', ')}, …) and 1 price list entry (id ${ownEntry!.id} of list ${first.id}): delete them before removing the SKU`,
    );
    const renamed = await call('PUT', `/v1/products/${p.id}/variations/${p.variations[0]!.id}`, { sku: unique('NEW'), stock: 5 });
    expectError(renamed, 409, 15);
    expect((renamed.body as { message: string }).message).toBe(
      `SKU '${size}' has 2 price list entries (ids ${sizeEntry!.id} of list ${second.id}, ${otherEntry!.id} of list ${first.id}): delete them before renaming the SKU`,
    );
    // A rename together with other changes is refused whole.
    expectError(await call('PUT', `/v1/products/${p.id}`, { sku: unique('OTHER'), variations: [], price: 99 }), 409, 15);
    expect(await ok('GET', `/v1/products/${p.id}`, undefined, 200)).toEqual(p);
    expect((await call('GET', `/v1/trade-customer-product-prices/count?productId=${p.id}`)).body).toEqual({ count: 7 });
    expect(await eventsAfter(before)).toEqual([]);

    // A write that keeps the SKU where it is is no rename.
    expect(await ok<Product>('PUT', `/v1/products/${p.id}`, { sku: own, title: 'Kept' }, 200)).toMatchObject({ sku: own, title: 'Kept' });
    expect(await ok('PUT', `/v1/products/${p.id}/variations/${p.variations[0]!.id}`, { sku: size, stock: 2 }, 200)).toMatchObject({ sku: size, stock: 2 });
  });

  it('a variation left out of a product’s variations takes its prices along; a SKU moving within its product keeps them', async () => {
    const [own, keep, drop] = [unique('OWN'), unique('KEEP'), unique('DROP')];
    const p = await product({ sku: own, price: 10, variations: [{ sku: keep }, { sku: drop }] });
    const c = await customer();
    const [ownPrice, keepPrice, dropPrice] = await tradePrices(
      [own, keep, drop].map((sku, index) => ({ customerId: c.id, productId: p.id, sku, price: index + 1 })),
    );
    const before = await lastEventId();

    await ok('PUT', `/v1/products/${p.id}`, { variations: [{ sku: keep }] }, 200);
    expect((await call('GET', `/v1/trade-customer-product-prices/${dropPrice!.id}`)).status).toBe(404);
    expect((await eventsAfter(before)).map((event) => `${event.topic}:${event.subjectId}`)).toEqual([
      `trade_customer_product_price.deleted:${dropPrice!.id}`,
      `product.updated:${p.id}`,
    ]);

    // The own SKU and the kept variation's swap places: both stay with the product, and so do their prices.
    const swapped = await ok<Product>('PUT', `/v1/products/${p.id}`, { sku: keep, variations: [{ sku: own, price: 12 }] }, 200);
    expect(swapped).toMatchObject({ sku: keep, variations: [{ sku: own, price: 12 }] });
    expect(await pricedThreeWays(c.id, own)).toEqual({
      productId: p.id,
      variationId: swapped.variations[0]!.id,
      source: 'trade',
      tradePriceId: ownPrice!.id,
      priceListPriceId: null,
      price: 1,
    });
    expect(await pricedThreeWays(c.id, keep)).toEqual({
      productId: p.id,
      variationId: null,
      source: 'trade',
      tradePriceId: keepPrice!.id,
      priceListPriceId: null,
      price: 2,
    });
    expect((await ok<Array<{ sku: string }>>('GET', `/v1/products?sku=${own}`, undefined, 200)).map((found) => found.sku)).toEqual([keep]);
    // The dropped SKU is free for another product, at that product's price.
    const other = await product({ sku: drop, price: 50 });
    expect(await pricedThreeWays(c.id, drop)).toEqual({
      productId: other.id,
      variationId: null,
      source: 'product',
      tradePriceId: null,
      priceListPriceId: null,
      price: 50,
    });
  });

  it('a price write whose check has passed holds its SKU: a rename waits for it, then is refused', async () => {
    const [x, y] = [unique('HELD'), unique('AFTER')];
    const p = await product({ sku: x, price: 10 });
    const c = await customer();
    let rename: Promise<HttpResponse> | undefined;
    let price: { id: number } | undefined;
    await suite.server.services.uow.transaction(async () => {
      [price] = await suite.server.services.tradePrices.bulkCreate(suite.tenant.storeId, CLI_ORIGIN, [{ customerId: c.id, productId: p.id, sku: x, price: 2 }]);
      rename = call('PUT', `/v1/products/${p.id}`, { sku: y });
      expect(await Promise.race([rename.then(() => 'answered'), sleep(300).then(() => 'waiting')])).toBe('waiting');
    });
    const answer = await rename!;
    expectError(answer, 409, 15);
    expect((answer.body as { message: string }).message).toBe(`SKU '${x}' has 1 trade price (id ${price!.id}): delete it before renaming the SKU`);
  });

  it('a SKU being renamed is held: a price write checked against it waits, then is refused', async () => {
    const [x, y] = [unique('GOING'), unique('GONE')];
    const p = await product({ sku: x, price: 10 });
    const c = await customer();
    let write: Promise<HttpResponse> | undefined;
    await suite.server.services.uow.transaction(async () => {
      await suite.server.services.products.update(suite.tenant.storeId, CLI_ORIGIN, p.id, { sku: y });
      write = call('POST', '/v1/trade-customer-product-prices/bulk', [{ customerId: c.id, productId: p.id, sku: x, price: 2 }]);
      expect(await Promise.race([write.then(() => 'answered'), sleep(300).then(() => 'waiting')])).toBe('waiting');
    });
    const answer = await write!;
    expectError(answer, 422, 10);
    expect((answer.body as { errors: unknown[] }).errors).toEqual([{ index: 0, field: 'sku', message: `SKU '${x}' does not belong to product ${p.id}` }]);
    expect((await call('GET', `/v1/trade-customer-product-prices/count?productId=${p.id}`)).body).toEqual({ count: 0 });
  });

  it('documents the 409 of the writes that rename SKUs', async () => {
    const document = (await suite.api.request('GET', '/openapi.json')).body as {
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
    };
    expect(Object.keys(document.paths['/v1/products/{id}']!.put!.responses)).toContain('409');
    expect(Object.keys(document.paths['/v1/products/{id}/variations/{variationId}']!.put!.responses)).toContain('409');
  });
});

/**
 * An import checks its rows, then applies them in one transaction: a SKU renamed or deleted in
 * between must not leave a price recorded against a product that no longer owns it. The apply
 * looks its SKUs up again, holding them, and fails the import, changing nothing.
 */
describe.each(await enginesUnderTest())('an import whose SKU leaves its product between its check and its apply, on %s', (engine) => {
  const suite = suiteServer(engine, { tenants: 1, importRunner: false });

  const call = (method: string, path: string, body?: unknown) => suite.api.request(method, path, { token: suite.tenant.token, body });

  /** Uploads `csv`, then works the import here: `beforeApply` runs once its rows are checked, just before the apply transaction. */
  async function importWith(csv: string, beforeApply: () => Promise<void>): Promise<Import> {
    const upload = await suite.api.request('POST', '/v1/imports?mode=replace', {
      token: suite.tenant.token,
      rawBody: csv,
      headers: { 'content-type': 'text/csv' },
    });
    expect(upload.status, upload.text).toBe(202);
    const { imports } = suite.server.services;
    const claim = await imports.claimNext();
    expect(claim?.id).toBe((upload.body as Import).id);
    let applying = false;
    const pacer = {
      pace: async () => undefined,
      aside: async <T>(work: () => Promise<T>): Promise<T> => {
        if (!applying) {
          applying = true;
          await beforeApply();
        }
        return work();
      },
    };
    const outcome = await imports.process(claim!, () => false, pacer);
    expect(outcome).toEqual({ ended: true });
    return (await call('GET', `/v1/imports/${claim!.id}`)).body as Import;
  }

  it.each(['renamed', 'given to another product'] as const)('fails the import and stores nothing when a SKU it names is %s meanwhile', async (change) => {
    const [x, y] = [`IMP-${change.length}-X`, `IMP-${change.length}-Y`];
    const first = (await call('POST', '/v1/products', { title: 'First', sku: x, price: 10 })).body as { id: number };
    const buyer = (await call('POST', '/v1/customers', { email: `importer-${change.length}@example.com`, trade: true })).body as { id: number };
    const ended = await importWith(`customer_id,sku,price\n${buyer.id},${x},1\n`, async () => {
      expect((await call('PUT', `/v1/products/${first.id}`, { sku: y })).status).toBe(200);
      if (change === 'given to another product') expect((await call('POST', '/v1/products', { title: 'Second', sku: x, price: 100 })).status).toBe(201);
    });
    expect(ended).toMatchObject({ status: 'failed', errorCount: 1, result: null });
    expect(ended.errors).toEqual([
      {
        row: 1,
        field: null,
        message: `SKU '${x}' stopped belonging to product ${first.id} (renamed or deleted) while the import ran; nothing was changed: send the file again`,
      },
    ]);
    expect((await call('GET', `/v1/trade-customer-product-prices/count?customerId=${buyer.id}`)).body).toEqual({ count: 0 });
    if (change === 'given to another product') {
      const answer = (await call('GET', `/v1/trade-customer-product-prices/effective?customerId=${buyer.id}&sku=${x}`)).body as {
        source: string;
        price: number;
      };
      expect(answer).toMatchObject({ source: 'product', price: 100 });
    }
  });
});

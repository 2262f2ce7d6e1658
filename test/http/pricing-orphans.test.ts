import { beforeAll, describe, expect, it } from 'vitest';
import type { Order, OrderLine } from '../../src/contract/orders.js';
import type { Quote } from '../../src/contract/quotes.js';
import type { EffectivePrice } from '../../src/contract/trade-prices.js';
import { enginesUnderTest } from '../support/engines.js';
import { suiteServer } from '../support/suite-server.js';

/**
 * A trade price or a list entry belongs to the product it was recorded for, not to its SKU's
 * text: a record left behind by a product that no longer owns the SKU (renamed or deleted
 * before renames were refused while prices exist) never prices the product that took the SKU,
 * on any read path: the effective price (and its candidates), quotes and orders. The API no
 * longer lets such a record come about, so it is written straight through the repositories, as
 * an older version left it.
 */
const TRADE = '/v1/trade-customer-product-prices';
let sequence = 0;

type Origin = Pick<OrderLine, 'source' | 'tradePriceId' | 'priceListId' | 'priceListPriceId'>;

describe.each(await enginesUnderTest())('records of a product that no longer owns the SKU, on %s', (engine) => {
  const suite = suiteServer(engine, { tenants: 1 });
  const request = (method: string, path: string, body?: unknown) => suite.api.request(method, path, { token: suite.tenant.token, body });
  const created = async <T>(path: string, body: unknown): Promise<T> => {
    const response = await request('POST', path, body);
    expect(response.status, response.text).toBe(201);
    return response.body as T;
  };
  const origin = ({ source, tradePriceId, priceListId, priceListPriceId }: Origin): Origin => ({ source, tradePriceId, priceListId, priceListPriceId });

  /** The SKU now owned by `owner` (price 100), which `former` (price 10) once had. */
  const world = { sku: '', former: 0, owner: 0, customer: 0, list: 0, ownTrade: 0, ownEntry: 0, orphanTrade: [] as number[], orphanEntry: [] as number[] };

  beforeAll(async () => {
    const n = ++sequence;
    world.sku = `TAKEN-${engine}-${n}`;
    world.former = (await created<{ id: number }>('/v1/products', { title: 'Former owner', sku: `RENAMED-${engine}-${n}`, price: 10 })).id;
    world.owner = (await created<{ id: number }>('/v1/products', { title: 'Owner now', sku: world.sku, price: 100 })).id;
    world.list = (await created<{ id: number }>('/v1/price-lists', { name: `Orphans ${engine} ${n}`, kind: 'fixed' })).id;
    world.customer = (
      await created<{ id: number }>('/v1/customers', { email: `orphans-${engine}-${n}@example.com`, trade: true, priceListIds: [world.list] })
    ).id;
  });

  /** Records of the former owner under the SKU, newer than anything of the owner's: they would win if they counted. */
  const orphan = async () => {
    const createdAt = new Date().toISOString();
    const record = { productId: world.former, sku: world.sku, price: 1, minQuantity: 1, validFrom: null, validUntil: null };
    await suite.server.services.uow.transaction(async (repos) => {
      world.orphanTrade.push(
        ...(await repos.tradePrices.insertMany(suite.tenant.storeId, [{ ...record, customerId: world.customer }], createdAt)).map((row) => row.id),
      );
      world.orphanEntry.push(
        ...(await repos.priceLists.insertPrices(suite.tenant.storeId, world.list, [{ ...record, quantityRule: null }], createdAt)).map((row) => row.id),
      );
    });
  };

  const effective = async () => {
    const response = await request('GET', `${TRADE}/effective?customerId=${world.customer}&sku=${world.sku}`);
    expect(response.status, response.text).toBe(200);
    return response.body as EffectivePrice;
  };
  const quoted = async () => {
    const response = await request('POST', '/v1/quotes', { customerId: world.customer, lines: [{ sku: world.sku, quantity: 1 }] });
    expect(response.status, response.text).toBe(200);
    return (response.body as Quote).lines[0]!;
  };
  const ordered = async () => {
    const response = await request('POST', '/v1/orders', { customerId: world.customer, lines: [{ sku: world.sku, quantity: 1 }] });
    expect(response.status, response.text).toBe(201);
    return (response.body as Order).lines[0]!;
  };

  it('with nothing of its own, the owner is priced at its catalog price', async () => {
    await orphan();
    const catalogPrice = { source: 'product', tradePriceId: null, priceListId: null, priceListPriceId: null };
    const body = await effective();
    expect({ price: body.price, productId: body.productId, ...origin(body) }).toEqual({ price: 100, productId: world.owner, ...catalogPrice });
    expect(body).toMatchObject({ shadowedTradePriceIds: [], candidateCount: 0, candidates: [] });
    for (const line of [await quoted(), await ordered()])
      expect({ unitPrice: line.unitPrice, productId: line.productId, ...origin(line) }).toEqual({ unitPrice: 100, productId: world.owner, ...catalogPrice });
  });

  it("the owner's own list entry applies, not a newer one of the former owner", async () => {
    world.ownEntry = (
      await created<Array<{ id: number }>>(`/v1/price-lists/${world.list}/prices/bulk`, [{ productId: world.owner, sku: world.sku, price: 50 }])
    )[0]!.id;
    await orphan();
    const fromList = { source: 'price_list', tradePriceId: null, priceListId: world.list, priceListPriceId: world.ownEntry };
    const body = await effective();
    expect({ price: body.price, ...origin(body) }).toEqual({ price: 50, ...fromList });
    expect(body.candidates.map(origin)).toEqual([fromList]);
    for (const line of [await quoted(), await ordered()]) expect({ unitPrice: line.unitPrice, ...origin(line) }).toEqual({ unitPrice: 50, ...fromList });
  });

  it("the owner's own trade price applies, not a newer one of the former owner, which is neither shadowed nor a candidate", async () => {
    world.ownTrade = (
      await created<Array<{ id: number }>>(`${TRADE}/bulk`, [{ customerId: world.customer, productId: world.owner, sku: world.sku, price: 20 }])
    )[0]!.id;
    await orphan();
    const fromTrade = { source: 'trade', tradePriceId: world.ownTrade, priceListId: null, priceListPriceId: null };
    const body = await effective();
    expect({ price: body.price, ...origin(body) }).toEqual({ price: 20, ...fromTrade });
    expect(body.shadowedTradePriceIds).toEqual([]);
    expect(body.candidates.map(origin)).toEqual([
      fromTrade,
      { source: 'price_list', tradePriceId: null, priceListId: world.list, priceListPriceId: world.ownEntry },
    ]);
    for (const line of [await quoted(), await ordered()]) expect({ unitPrice: line.unitPrice, ...origin(line) }).toEqual({ unitPrice: 20, ...fromTrade });
    // The orphans are still stored (they are the former owner's records, listed as such).
    const listed = await request('GET', `${TRADE}?customerId=${world.customer}&productId=${world.former}`);
    expect((listed.body as Array<{ id: number }>).map((record) => record.id)).toEqual(world.orphanTrade);
  });
});

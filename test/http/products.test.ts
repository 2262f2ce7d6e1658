import { beforeAll, describe, expect, it } from 'vitest';
import type { Product } from '../../src/contract/products.js';
import { TIMESTAMP } from '../support/bodies.js';
import { enginesUnderTest } from '../support/engines.js';
import { suiteServer } from '../support/suite-server.js';
import type { Tenant } from '../support/test-server.js';

let sequence = 0;
/** SKUs unique per test run, so tests sharing a store do not collide. */
const sku = (name: string) => `${name}-${++sequence}`;

describe.each(await enginesUnderTest())('products on %s', (engine) => {
  const suite = suiteServer(engine);
  let apparel: number;
  let workwear: number;

  beforeAll(async () => {
    apparel = await createCategory(suite.tenant, 'Apparel');
    workwear = await createCategory(suite.tenant, 'Workwear');
  });

  async function createCategory(owner: Tenant, title: string): Promise<number> {
    const response = await suite.server.request('POST', '/v1/categories', { token: owner.token, body: { title } });
    expect(response.status).toBe(201);
    return (response.body as { id: number }).id;
  }

  async function createProduct(body: object, owner = suite.tenant): Promise<Product> {
    const response = await suite.server.request('POST', '/v1/products', { token: owner.token, body });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    return response.body as Product;
  }

  const get = (path: string, owner = suite.tenant) => suite.server.request('GET', path, { token: owner.token });

  it('creates a product with variations and categories, and reads it back', async () => {
    const [tee, red, blue] = [sku('TEE'), sku('TEE-RED-M'), sku('TEE-BLUE-M')];
    const created = await suite.server.request('POST', '/v1/products', {
      token: suite.tenant.token,
      body: {
        title: 'Classic T-shirt',
        sku: tee,
        price: 12.5,
        categoryIds: [workwear, apparel],
        variations: [{ sku: red, price: 13.0001, stock: 40 }, { sku: blue }],
      },
    });
    expect(created.status).toBe(201);
    const product = created.body as Product;
    expect(product).toEqual({
      id: expect.any(Number),
      title: 'Classic T-shirt',
      sku: tee,
      price: 12.5,
      active: true,
      quantityRule: null,
      categoryIds: [apparel, workwear].sort((a, b) => a - b),
      variations: [
        { id: expect.any(Number), sku: red, price: 13.0001, stock: 40, quantityRule: null },
        { id: expect.any(Number), sku: blue, price: null, stock: null, quantityRule: null },
      ],
      createdAt: expect.stringMatching(TIMESTAMP),
    });
    expect(created.text).toContain('"price":13.0001,');
    expect(product.variations[0]!.id).toBeLessThan(product.variations[1]!.id);

    const fetched = await get(`/v1/products/${product.id}`);
    expect(fetched.status).toBe(200);
    expect(fetched.body).toEqual(product);
  });

  it('applies defaults: no sku, active, no categories, no variations', async () => {
    const product = await createProduct({ title: 'Gift card', price: 0 });
    expect(product).toMatchObject({ title: 'Gift card', sku: null, price: 0, active: true, categoryIds: [], variations: [] });
  });

  it('finds the product owning a SKU, its own or a variation’s, and counts with the same filters', async () => {
    const [own, variation] = [sku('MUG'), sku('MUG-BLUE')];
    const mug = await createProduct({ title: 'Mug', sku: own, price: 4.2, categoryIds: [apparel], variations: [{ sku: variation }] });
    expect((await get(`/v1/products?sku=${own}`)).body).toEqual([mug]);
    expect((await get(`/v1/products?sku=${variation}`)).body).toEqual([mug]);
    expect((await get(`/v1/products/count?sku=${variation}`)).body).toEqual({ count: 1 });
    expect((await get('/v1/products?sku=NOPE')).body).toEqual([]);
    expect((await get(`/v1/products?sku=${variation}`, suite.other)).body).toEqual([]);

    const inApparel = (await get(`/v1/products?categoryId=${apparel}&count=100`)).body as Product[];
    expect(inApparel.map((product) => product.id)).toContain(mug.id);
    expect(inApparel.every((product) => product.categoryIds.includes(apparel))).toBe(true);
    expect((await get(`/v1/products/count?categoryId=${apparel}`)).body).toEqual({ count: inApparel.length });
    expect((await get(`/v1/products?sku=${own}&categoryId=${workwear}`)).body).toEqual([]);
  });

  it('lists by id with count, offset and fields', async () => {
    for (let index = 0; index < 3; index++) await createProduct({ title: `Paged ${index}`, price: 1, variations: [{ sku: sku('PAGED') }] });
    const all = (await get('/v1/products?count=100')).body as Product[];
    const ids = all.map((product) => product.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect((await get('/v1/products/count')).body).toEqual({ count: all.length });
    expect((await get('/v1/products?count=2&offset=1')).body).toEqual(all.slice(1, 3));

    const slim = await get('/v1/products?fields=id,title,variations&count=1');
    expect(slim.body).toEqual([{ id: all[0]!.id, title: all[0]!.title, variations: all[0]!.variations }]);
    const one = await get(`/v1/products/${all[0]!.id}?fields=sku,price`);
    expect(one.body).toEqual({ sku: all[0]!.sku, price: all[0]!.price });
    expect(await get('/v1/products?fields=colour')).toMatchObject({ status: 400, body: { code: 9 } });
    expect(await get('/v1/products?categoryId=abc')).toMatchObject({ status: 400, body: { code: 9 } });
  });

  it('updates some fields, replacing variations by sku and the category set', async () => {
    const [keep, drop, add, own] = [sku('HOOD-M'), sku('HOOD-L'), sku('HOOD-XL'), sku('HOOD')];
    const product = await createProduct({
      title: 'Hoodie',
      price: 30,
      categoryIds: [apparel],
      variations: [
        { sku: keep, stock: 5 },
        { sku: drop, price: 31 },
      ],
    });
    const [kept, dropped] = product.variations;

    const titled = await suite.server.request('PUT', `/v1/products/${product.id}`, { token: suite.tenant.token, body: { title: 'Zip hoodie', active: false } });
    expect(titled.status).toBe(200);
    expect(titled.body).toEqual({ ...product, title: 'Zip hoodie', active: false });

    const replaced = await suite.server.request('PUT', `/v1/products/${product.id}`, {
      token: suite.tenant.token,
      body: {
        sku: own,
        categoryIds: [workwear],
        variations: [
          { sku: add, price: 33.3 },
          { sku: keep, price: 29.99 },
        ],
      },
    });
    expect(replaced.status).toBe(200);
    const body = replaced.body as Product;
    expect(body).toEqual({
      ...product,
      title: 'Zip hoodie',
      active: false,
      sku: own,
      categoryIds: [workwear],
      // Ascending by id: the kept variation keeps its id; the new one gets a new id. Omitted stock is null.
      variations: [
        { id: kept!.id, sku: keep, price: 29.99, stock: null, quantityRule: null },
        { id: expect.any(Number), sku: add, price: 33.3, stock: null, quantityRule: null },
      ],
    });
    expect(body.variations[1]!.id).toBeGreaterThan(dropped!.id);
    expect((await get(`/v1/products/${product.id}`)).body).toEqual(body);
    expect((await get(`/v1/products/${product.id}/variations/${dropped!.id}`)).status).toBe(404);
    // The dropped SKU is free again; the new ones are taken.
    await createProduct({ title: 'Reuses a freed SKU', sku: drop, price: 1 });
    expect((await get(`/v1/products?sku=${add}`)).body).toEqual([body]);

    const cleared = await suite.server.request('PUT', `/v1/products/${product.id}`, {
      token: suite.tenant.token,
      body: { sku: null, variations: [], categoryIds: [] },
    });
    expect(cleared.body).toMatchObject({ sku: null, variations: [], categoryIds: [] });
    await createProduct({ title: 'Reuses the old own SKU', sku: own, price: 1, variations: [{ sku: keep }] });
  });

  it('lets a product move a SKU between itself and its variations', async () => {
    const [first, second] = [sku('MOVE-A'), sku('MOVE-B')];
    const product = await createProduct({ title: 'Mover', sku: first, price: 2, variations: [{ sku: second }] });
    const swapped = await suite.server.request('PUT', `/v1/products/${product.id}`, {
      token: suite.tenant.token,
      body: { sku: second, variations: [{ sku: first }] },
    });
    expect(swapped.status).toBe(200);
    expect(swapped.body).toMatchObject({ sku: second, variations: [{ sku: first, price: null, stock: null }] });
    expect((await get(`/v1/products?sku=${first}`)).body).toEqual([swapped.body]);
  });

  it('deletes a product with its variations and frees its SKUs', async () => {
    const [own, variation] = [sku('GONE'), sku('GONE-S')];
    const product = await createProduct({ title: 'Short-lived', sku: own, price: 1, categoryIds: [apparel], variations: [{ sku: variation }] });
    const deleted = await suite.server.request('DELETE', `/v1/products/${product.id}`, { token: suite.tenant.token });
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    expect((await get(`/v1/products/${product.id}`)).status).toBe(404);
    expect((await suite.server.request('DELETE', `/v1/products/${product.id}`, { token: suite.tenant.token })).status).toBe(404);
    await createProduct({ title: 'Takes the SKUs', sku: variation, price: 1, variations: [{ sku: own }] });
  });

  it('deletes the product’s trade prices with it', async () => {
    const product = await createProduct({ title: 'Priced', price: 10, variations: [{ sku: sku('PRICED-M') }] });
    const customer = await suite.server.request('POST', '/v1/customers', {
      token: suite.tenant.token,
      body: { email: `buyer-${++sequence}@example.com`, trade: true },
    });
    const customerId = (customer.body as { id: number }).id;
    const prices = await suite.server.request('POST', '/v1/trade-customer-product-prices/bulk', {
      token: suite.tenant.token,
      body: [{ customerId, productId: product.id, sku: product.variations[0]!.sku, price: 8 }],
    });
    expect(prices.status).toBe(201);
    const [price] = prices.body as { id: number }[];
    expect((await suite.server.request('DELETE', `/v1/products/${product.id}`, { token: suite.tenant.token })).status).toBe(204);
    expect((await get(`/v1/trade-customer-product-prices/${price!.id}`)).status).toBe(404);
  });

  describe('validation', () => {
    const post = (body: unknown) => suite.server.request('POST', '/v1/products', { token: suite.tenant.token, body });

    it('reports missing, unknown and malformed fields', async () => {
      expect(await post({ price: 1 })).toMatchObject({ status: 422, body: { code: 10, errors: [{ field: 'title', message: 'is required' }] } });
      expect(await post({ title: 'X', price: 1, colour: 'red' })).toMatchObject({ status: 422, body: { code: 10, errors: [{ field: 'colour' }] } });
      expect(await post({ title: 'X', price: '12' })).toMatchObject({ status: 422, body: { code: 10, errors: [{ field: 'price' }] } });
      expect(await post({ title: 'X', price: 1.00001 })).toMatchObject({ status: 422, body: { code: 10, errors: [{ field: 'price' }] } });
      expect(await post({ title: '', price: 1 })).toMatchObject({ status: 422, body: { errors: [{ field: 'title' }] } });
      expect(await post({ title: 'X', price: 1, variations: [{ price: 2 }] })).toMatchObject({
        status: 422,
        body: { errors: [{ field: 'variations[0].sku', message: 'is required' }] },
      });
      expect(await post({ title: 'X', price: 1, variations: [{ sku: 'V', stock: -1 }] })).toMatchObject({
        status: 422,
        body: { errors: [{ field: 'variations[0].stock' }] },
      });
      expect(await post({ title: 'X', price: 1, categoryIds: [apparel, apparel] })).toMatchObject({
        status: 422,
        body: { errors: [{ field: 'categoryIds' }] },
      });
      const update = await suite.server.request('PUT', '/v1/products/1', { token: suite.tenant.token, body: {} });
      expect(update).toMatchObject({ status: 422, body: { code: 10, errors: [{ field: null }] } });
    });

    it('refuses a SKU named twice in one body, naming the later field', async () => {
      const [own, variation] = [sku('DUP'), sku('DUP-V')];
      const twice = await post({ title: 'X', sku: own, price: 1, variations: [{ sku: variation }, { sku: variation }] });
      expect(twice).toMatchObject({ status: 422, body: { code: 10, errors: [{ field: 'variations[1].sku' }] } });
      const ownAgain = await post({ title: 'X', sku: own, price: 1, variations: [{ sku: own }] });
      expect(ownAgain).toMatchObject({ status: 422, body: { code: 10, errors: [{ field: 'variations[0].sku' }] } });
      expect((await get(`/v1/products?sku=${own}`)).body).toEqual([]);
    });

    it('refuses SKUs already in use in the store, listing every one', async () => {
      const [own, variation] = [sku('USED'), sku('USED-V')];
      const existing = await createProduct({ title: 'Owner', sku: own, price: 1, variations: [{ sku: variation }] });
      const clash = await post({ title: 'X', sku: variation, price: 1, variations: [{ sku: 'FREE-' + own }, { sku: own }] });
      expect(clash.status).toBe(422);
      expect(clash.body).toEqual({
        code: 10,
        message: expect.any(String),
        errors: [
          { field: 'sku', message: `SKU '${variation}' is already in use in this store` },
          { field: 'variations[1].sku', message: `SKU '${own}' is already in use in this store` },
        ],
      });
      const update = await createProduct({ title: 'Other', price: 1 });
      const put = await suite.server.request('PUT', `/v1/products/${update.id}`, { token: suite.tenant.token, body: { variations: [{ sku: variation }] } });
      expect(put).toMatchObject({
        status: 422,
        body: { code: 10, errors: [{ field: 'variations[0].sku', message: `SKU '${variation}' is already in use in this store` }] },
      });
      expect((await get(`/v1/products/${update.id}`)).body).toEqual(update);
      expect((await get(`/v1/products?sku=${variation}`)).body).toEqual([existing]);
      // SKUs are compared exactly and are per store.
      await createProduct({ title: 'Lower case', sku: own.toLowerCase(), price: 1 });
      await createProduct({ title: 'Elsewhere', sku: own, price: 1, variations: [{ sku: variation }] }, suite.other);
    });

    it('refuses categories that are missing or another store’s', async () => {
      const foreign = await createCategory(suite.other, 'Foreign');
      const response = await post({ title: 'X', price: 1, categoryIds: [apparel, foreign, 999_999] });
      expect(response).toMatchObject({
        status: 422,
        body: { code: 10, errors: [{ field: 'categoryIds', message: `Category ${foreign} does not exist in this store` }, { field: 'categoryIds' }] },
      });
    });
  });

  describe('concurrent writers', () => {
    it('lets exactly one of several simultaneous creates claim a SKU', async () => {
      const contested = sku('RACE');
      const attempts = await Promise.all(
        Array.from({ length: 6 }, (_, index) =>
          suite.server.request('POST', '/v1/products', {
            token: suite.tenant.token,
            body:
              index % 2 === 0 ? { title: `Racer ${index}`, sku: contested, price: 1 } : { title: `Racer ${index}`, price: 1, variations: [{ sku: contested }] },
          }),
        ),
      );
      const statuses = attempts.map((attempt) => attempt.status).sort();
      expect(statuses).toEqual([201, 422, 422, 422, 422, 422]);
      for (const attempt of attempts.filter((response) => response.status === 422)) {
        expect(attempt.body).toMatchObject({
          code: 10,
          errors: [{ field: expect.stringMatching(/^(sku|variations\[0\]\.sku)$/), message: `SKU '${contested}' is already in use in this store` }],
        });
      }
      expect((await get(`/v1/products/count?sku=${contested}`)).body).toEqual({ count: 1 });
    });

    it('settles a SKU claimed by a transaction still in flight when the create checked', async () => {
      const contested = sku('INFLIGHT');
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      let claimed!: () => void;
      const hasClaimed = new Promise<void>((resolve) => (claimed = resolve));
      const holder = suite.server.services.uow.transaction(async (repos) => {
        const productId = await repos.products.insert(
          suite.tenant.storeId,
          { title: 'Holder', sku: contested, price: 1, active: true, quantityRule: null },
          new Date().toISOString(),
        );
        await repos.skus.claim(suite.tenant.storeId, [{ sku: contested, productId, variationId: null }]);
        claimed();
        await released;
      });
      await hasClaimed;
      const racing = suite.server.request('POST', '/v1/products', {
        token: suite.tenant.token,
        body: { title: 'Late', price: 1, variations: [{ sku: contested }] },
      });
      await new Promise((resolve) => setTimeout(resolve, 200));
      release();
      await holder;
      expect(await racing).toMatchObject({
        status: 422,
        body: { code: 10, errors: [{ field: 'variations[0].sku', message: `SKU '${contested}' is already in use in this store` }] },
      });
      expect((await get(`/v1/products/count?sku=${contested}`)).body).toEqual({ count: 1 });
    });
  });

  it('hides other stores’ products and changes nothing for them', async () => {
    const product = await createProduct({ title: 'Private', sku: sku('PRIV'), price: 5, variations: [{ sku: sku('PRIV-V') }] });
    expect((await get(`/v1/products/${product.id}`, suite.other)).status).toBe(404);
    expect((await suite.server.request('PUT', `/v1/products/${product.id}`, { token: suite.other.token, body: { title: 'Mine now' } })).status).toBe(404);
    expect((await suite.server.request('DELETE', `/v1/products/${product.id}`, { token: suite.other.token })).status).toBe(404);
    expect((await get('/v1/products/abc')).status).toBe(404);
    expect((await get(`/v1/products/${product.id}`)).body).toEqual(product);
  });
});

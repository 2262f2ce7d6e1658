import { describe, expect, it } from 'vitest';
import type { Product } from '../../src/contract/products.js';
import type { Variation } from '../../src/contract/variations.js';
import { TIMESTAMP } from '../support/bodies.js';
import { enginesUnderTest } from '../support/engines.js';
import { suiteServer } from '../support/suite-server.js';

let sequence = 0;
const sku = (name: string) => `${name}-${++sequence}`;

describe.each(await enginesUnderTest())('product variations on %s', (engine) => {
  const suite = suiteServer(engine);

  async function createProduct(body: object, owner = suite.tenant): Promise<Product> {
    const response = await suite.server.request('POST', '/v1/products', { token: owner.token, body });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    return response.body as Product;
  }

  const get = (path: string, owner = suite.tenant) => suite.server.request('GET', path, { token: owner.token });
  const post = (productId: number, body: unknown, owner = suite.tenant) =>
    suite.server.request('POST', `/v1/products/${productId}/variations`, { token: owner.token, body });
  const put = (productId: number, id: number, body: unknown, owner = suite.tenant) =>
    suite.server.request('PUT', `/v1/products/${productId}/variations/${id}`, { token: owner.token, body });

  it('creates, reads, lists, counts, updates and deletes variations', async () => {
    const product = await createProduct({ title: 'Polo shirt', sku: sku('POLO'), price: 18 });
    const [navyM, navyL] = [sku('POLO-NAVY-M'), sku('POLO-NAVY-L')];

    const created = await post(product.id, { sku: navyM, price: 19.95, stock: 12 });
    expect(created.status).toBe(201);
    const variation = created.body as Variation;
    expect(variation).toEqual({
      id: expect.any(Number),
      productId: product.id,
      sku: navyM,
      price: 19.95,
      stock: 12,
      quantityRule: null,
      createdAt: expect.stringMatching(TIMESTAMP),
    });
    const second = (await post(product.id, { sku: navyL })).body as Variation;
    expect(second).toMatchObject({ productId: product.id, sku: navyL, price: null, stock: null });

    expect((await get(`/v1/products/${product.id}/variations/${variation.id}`)).body).toEqual(variation);
    expect((await get(`/v1/products/${product.id}/variations`)).body).toEqual([variation, second]);
    expect((await get(`/v1/products/${product.id}/variations?count=1&offset=1`)).body).toEqual([second]);
    expect((await get(`/v1/products/${product.id}/variations?fields=sku,stock`)).body).toEqual([
      { sku: navyM, stock: 12 },
      { sku: navyL, stock: null },
    ]);
    expect((await get(`/v1/products/${product.id}/variations/${variation.id}?fields=id,price`)).body).toEqual({ id: variation.id, price: 19.95 });
    expect((await get(`/v1/products/${product.id}/variations/count`)).body).toEqual({ count: 2 });
    // The product lists them too.
    expect(((await get(`/v1/products/${product.id}`)).body as Product).variations).toEqual([
      { id: variation.id, sku: navyM, price: 19.95, stock: 12, quantityRule: null },
      { id: second.id, sku: navyL, price: null, stock: null, quantityRule: null },
    ]);

    const updated = await put(product.id, variation.id, { price: null, stock: 0 });
    expect(updated.status).toBe(200);
    expect(updated.body).toEqual({ ...variation, price: null, stock: 0 });
    const renamed = sku('POLO-NAVY-MEDIUM');
    expect((await put(product.id, variation.id, { sku: renamed })).body).toEqual({ ...variation, sku: renamed, price: null, stock: 0 });
    expect((await get(`/v1/products?sku=${renamed}`)).body).toMatchObject([{ id: product.id }]);
    expect((await get(`/v1/products?sku=${navyM}`)).body).toEqual([]);
    // Sending its own SKU again is no change, not a conflict.
    expect((await put(product.id, variation.id, { sku: renamed, stock: 3 })).body).toMatchObject({ sku: renamed, stock: 3 });

    const deleted = await suite.server.request('DELETE', `/v1/products/${product.id}/variations/${variation.id}`, { token: suite.tenant.token });
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    expect((await get(`/v1/products/${product.id}/variations/${variation.id}`)).status).toBe(404);
    expect((await get(`/v1/products/${product.id}/variations/count`)).body).toEqual({ count: 1 });
    // Its SKU is free again.
    expect((await post(product.id, { sku: renamed })).status).toBe(201);
  });

  it('refuses SKUs in use anywhere in the store, its own product’s included', async () => {
    const [own, taken] = [sku('CAP'), sku('CAP-RED')];
    const product = await createProduct({ title: 'Cap', sku: own, price: 8, variations: [{ sku: taken }] });
    const elsewhere = await createProduct({ title: 'Beanie', sku: sku('BEANIE'), price: 9 });

    for (const used of [own, taken, elsewhere.sku!]) {
      const response = await post(product.id, { sku: used });
      expect(response).toMatchObject({ status: 422, body: { code: 10, errors: [{ field: 'sku', message: `SKU '${used}' is already in use in this store` }] } });
    }
    const fresh = (await post(product.id, { sku: sku('CAP-BLUE') })).body as Variation;
    const clash = await put(product.id, fresh.id, { sku: elsewhere.sku, price: 1 });
    expect(clash).toMatchObject({
      status: 422,
      body: { code: 10, errors: [{ field: 'sku', message: `SKU '${elsewhere.sku!}' is already in use in this store` }] },
    });
    expect((await get(`/v1/products/${product.id}/variations/${fresh.id}`)).body).toEqual(fresh);
    expect((await get(`/v1/products/${product.id}/variations/count`)).body).toEqual({ count: 2 });
  });

  it('lets exactly one of two simultaneous creates claim a SKU', async () => {
    const [first, second] = [await createProduct({ title: 'A', price: 1 }), await createProduct({ title: 'B', price: 1 })];
    const contested = sku('RACE-V');
    const attempts = await Promise.all([post(first.id, { sku: contested }), post(second.id, { sku: contested })]);
    expect(attempts.map((attempt) => attempt.status).sort()).toEqual([201, 422]);
    expect(attempts.find((attempt) => attempt.status === 422)?.body).toMatchObject({ code: 10, errors: [{ field: 'sku' }] });
    expect((await get(`/v1/products/count?sku=${contested}`)).body).toEqual({ count: 1 });
  });

  it('validates bodies strictly', async () => {
    const product = await createProduct({ title: 'Socks', price: 3 });
    expect(await post(product.id, { price: 1 })).toMatchObject({ status: 422, body: { code: 10, errors: [{ field: 'sku', message: 'is required' }] } });
    expect(await post(product.id, { sku: 'S', stock: 1.5 })).toMatchObject({ status: 422, body: { errors: [{ field: 'stock' }] } });
    expect(await post(product.id, { sku: 'S', stock: '4' })).toMatchObject({ status: 422, body: { errors: [{ field: 'stock' }] } });
    expect(await post(product.id, { sku: 'S', price: -1 })).toMatchObject({ status: 422, body: { errors: [{ field: 'price' }] } });
    expect(await post(product.id, { sku: 'S', size: 'M' })).toMatchObject({ status: 422, body: { errors: [{ field: 'size' }] } });
    expect(await put(product.id, 1, {})).toMatchObject({ status: 422, body: { code: 10 } });
    expect((await get(`/v1/products/${product.id}/variations/count`)).body).toEqual({ count: 0 });
  });

  it('answers 404 for another store’s product, another product’s variation and malformed ids, changing nothing', async () => {
    const product = await createProduct({ title: 'Private', price: 5, variations: [{ sku: sku('PRIV-V') }] });
    const variation = product.variations[0]!;
    const sibling = await createProduct({ title: 'Sibling', price: 5 });
    const path = `/v1/products/${product.id}/variations/${variation.id}`;

    expect((await get(`/v1/products/${product.id}/variations`, suite.other)).status).toBe(404);
    expect((await get(`/v1/products/${product.id}/variations/count`, suite.other)).status).toBe(404);
    expect((await get(path, suite.other)).status).toBe(404);
    expect((await post(product.id, { sku: sku('INTRUDER') }, suite.other)).status).toBe(404);
    expect((await put(product.id, variation.id, { stock: 1 }, suite.other)).status).toBe(404);
    expect((await suite.server.request('DELETE', path, { token: suite.other.token })).status).toBe(404);
    expect((await get(`/v1/products/${sibling.id}/variations/${variation.id}`)).status).toBe(404);
    expect((await put(sibling.id, variation.id, { stock: 1 })).status).toBe(404);
    expect((await get(`/v1/products/${product.id}/variations/x1`)).status).toBe(404);
    expect((await get(`/v1/products/0/variations`)).status).toBe(404);

    expect((await get(`/v1/products/${product.id}`)).body).toEqual(product);
  });
});

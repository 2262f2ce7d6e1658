import { describe, expect, it } from 'vitest';
import type { Category } from '../../src/contract/categories.js';
import { TIMESTAMP } from '../support/bodies.js';
import { enginesUnderTest } from '../support/engines.js';
import { suiteServer } from '../support/suite-server.js';

describe.each(await enginesUnderTest())('categories on %s', (engine) => {
  const suite = suiteServer(engine);

  async function createCategory(title: string, parentId: number | null = null, owner = suite.tenant): Promise<Category> {
    const response = await suite.server.request('POST', '/v1/categories', { token: owner.token, body: { title, parentId } });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    return response.body as Category;
  }

  const get = (path: string, owner = suite.tenant) => suite.server.request('GET', path, { token: owner.token });
  const put = (id: number, body: unknown, owner = suite.tenant) => suite.server.request('PUT', `/v1/categories/${id}`, { token: owner.token, body });

  it('creates, reads, updates, lists, counts and deletes', async () => {
    const created = await suite.server.request('POST', '/v1/categories', { token: suite.tenant.token, body: { title: 'Apparel' } });
    expect(created.status).toBe(201);
    const apparel = created.body as Category;
    expect(apparel).toEqual({ id: expect.any(Number), title: 'Apparel', parentId: null, createdAt: expect.stringMatching(TIMESTAMP) });
    const shirts = await createCategory('Shirts', apparel.id);
    expect(shirts).toMatchObject({ title: 'Shirts', parentId: apparel.id });

    expect((await get(`/v1/categories/${apparel.id}`)).body).toEqual(apparel);
    const renamed = await put(shirts.id, { title: 'T-shirts' });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toEqual({ ...shirts, title: 'T-shirts' });
    const root = await put(shirts.id, { parentId: null });
    expect(root.body).toEqual({ ...shirts, title: 'T-shirts', parentId: null });

    const listed = (await get('/v1/categories?count=100')).body as Category[];
    expect(listed.slice(-2)).toEqual([apparel, root.body]);
    expect((await get('/v1/categories?fields=title&count=100')).body).toEqual(listed.map(({ title }) => ({ title })));
    expect((await get('/v1/categories/count')).body).toEqual({ count: listed.length });

    const deleted = await suite.server.request('DELETE', `/v1/categories/${shirts.id}`, { token: suite.tenant.token });
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    expect((await get(`/v1/categories/${shirts.id}`)).status).toBe(404);
    expect((await get('/v1/categories/count')).body).toEqual({ count: listed.length - 1 });
  });

  it('embeds the ancestors, root first, on one category and on a list', async () => {
    const clothing = await createCategory('Clothing');
    const tops = await createCategory('Tops', clothing.id);
    const tees = await createCategory('Tees', tops.id);
    const vNeck = await createCategory('V-neck', tees.id);

    const one = await get(`/v1/categories/${vNeck.id}?embed=parents`);
    expect(one.status).toBe(200);
    expect(one.body).toEqual({ ...vNeck, parents: [clothing, tops, tees] });
    expect((await get(`/v1/categories/${clothing.id}?embed=parents`)).body).toEqual({ ...clothing, parents: [] });
    expect((await get(`/v1/categories/${vNeck.id}?embed=parents&fields=title`)).body).toEqual({ title: 'V-neck', parents: [clothing, tops, tees] });

    const page = await get(`/v1/categories?embed=parents&count=4&offset=${(await countCategories()) - 4}`);
    expect(page.body).toEqual([
      { ...clothing, parents: [] },
      { ...tops, parents: [clothing] },
      { ...tees, parents: [clothing, tops] },
      { ...vNeck, parents: [clothing, tops, tees] },
    ]);
    // Without embed, no parents.
    expect((await get(`/v1/categories/${vNeck.id}`)).body).toEqual(vNeck);
    expect(await get('/v1/categories?embed=children')).toMatchObject({ status: 400, body: { code: 9 } });
    expect(await get('/v1/categories/count?embed=parents')).toMatchObject({ status: 400, body: { code: 9 } });
  });

  async function countCategories(): Promise<number> {
    return ((await get('/v1/categories/count')).body as { count: number }).count;
  }

  it('refuses a parent that is missing, another store’s, the category itself or a descendant', async () => {
    const foreign = await createCategory('Foreign', null, suite.other);
    const top = await createCategory('Top');
    const middle = await createCategory('Middle', top.id);
    const bottom = await createCategory('Bottom', middle.id);

    for (const parentId of [999_999, foreign.id]) {
      const response = await suite.server.request('POST', '/v1/categories', { token: suite.tenant.token, body: { title: 'Orphan', parentId } });
      expect(response).toMatchObject({
        status: 422,
        body: { code: 10, errors: [{ field: 'parentId', message: `Category ${parentId} does not exist in this store` }] },
      });
      expect(await put(middle.id, { parentId })).toMatchObject({ status: 422, body: { code: 10, errors: [{ field: 'parentId' }] } });
    }
    for (const parentId of [top.id, middle.id, bottom.id]) {
      expect(await put(top.id, { title: 'Loop', parentId })).toMatchObject({ status: 422, body: { code: 10, errors: [{ field: 'parentId' }] } });
    }
    expect((await get(`/v1/categories/${top.id}`)).body).toEqual(top);
    expect(await put(top.id, { parentId: '1' })).toMatchObject({ status: 422, body: { code: 10, errors: [{ field: 'parentId' }] } });
    expect(await put(top.id, {})).toMatchObject({ status: 422, body: { code: 10 } });
    expect(await suite.server.request('POST', '/v1/categories', { token: suite.tenant.token, body: { parentId: null } })).toMatchObject({
      status: 422,
      body: { code: 10, errors: [{ field: 'title', message: 'is required' }] },
    });

    // Moving a branch elsewhere is fine.
    const elsewhere = await createCategory('Elsewhere');
    expect((await put(middle.id, { parentId: elsewhere.id })).body).toEqual({ ...middle, parentId: elsewhere.id });
    expect((await get(`/v1/categories/${bottom.id}?embed=parents`)).body).toMatchObject({ parents: [elsewhere, { ...middle, parentId: elsewhere.id }] });
  });

  it('never lets two simultaneous moves make a cycle', async () => {
    const first = await createCategory('First');
    const second = await createCategory('Second');
    // One move is still in its transaction when the opposite move arrives.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let moved!: () => void;
    const hasMoved = new Promise<void>((resolve) => (moved = resolve));
    const holder = suite.server.services.uow.transaction(async () => {
      await suite.server.services.categories.update(suite.tenant.storeId, first.id, { parentId: second.id });
      moved();
      await released;
    });
    await hasMoved;
    const opposite = put(second.id, { parentId: first.id });
    await new Promise((resolve) => setTimeout(resolve, 200));
    release();
    await holder;
    expect(await opposite).toMatchObject({ status: 422, body: { code: 10, errors: [{ field: 'parentId' }] } });
    expect((await get(`/v1/categories/${second.id}`)).body).toEqual(second);
  });

  it('refuses to delete a category with subcategories, and unlinks products when deleting', async () => {
    const parent = await createCategory('Parent');
    const child = await createCategory('Child', parent.id);
    const refused = await suite.server.request('DELETE', `/v1/categories/${parent.id}`, { token: suite.tenant.token });
    expect(refused.status).toBe(422);
    expect(refused.body).toEqual({ code: 10, message: expect.any(String), errors: [{ field: null, message: expect.stringContaining('has subcategories') }] });
    expect((await get(`/v1/categories/${parent.id}`)).body).toEqual(parent);

    const product = await suite.server.request('POST', '/v1/products', {
      token: suite.tenant.token,
      body: { title: 'Linked', price: 1, categoryIds: [parent.id, child.id] },
    });
    const productId = (product.body as { id: number }).id;
    expect((await suite.server.request('DELETE', `/v1/categories/${child.id}`, { token: suite.tenant.token })).status).toBe(204);
    expect((await get(`/v1/products/${productId}`)).body).toMatchObject({ categoryIds: [parent.id] });
    expect((await get(`/v1/products/count?categoryId=${child.id}`)).body).toEqual({ count: 0 });
    expect((await suite.server.request('DELETE', `/v1/categories/${parent.id}`, { token: suite.tenant.token })).status).toBe(204);
    expect((await get(`/v1/products/${productId}`)).body).toMatchObject({ categoryIds: [] });
  });

  it('hides other stores’ categories and changes nothing for them', async () => {
    const mine = await createCategory('Private');
    expect((await get(`/v1/categories/${mine.id}`, suite.other)).status).toBe(404);
    expect((await get(`/v1/categories/${mine.id}?embed=parents`, suite.other)).status).toBe(404);
    expect((await put(mine.id, { title: 'Taken' }, suite.other)).status).toBe(404);
    expect((await suite.server.request('DELETE', `/v1/categories/${mine.id}`, { token: suite.other.token })).status).toBe(404);
    expect((await get('/v1/categories/-1')).status).toBe(404);
    expect((await get(`/v1/categories/${mine.id}`)).body).toEqual(mine);
  });
});

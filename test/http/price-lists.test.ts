import { describe, expect, it } from 'vitest';
import type { Customer } from '../../src/contract/customers.js';
import type { Event } from '../../src/contract/events.js';
import type { PriceList, PriceListPrice } from '../../src/contract/price-lists.js';
import type { Scope } from '../../src/modules/stores/scopes.js';
import { type ProblemBody, TIMESTAMP } from '../support/bodies.js';
import { expectError } from '../support/conventions.js';
import { enginesUnderTest } from '../support/engines.js';
import { snapshotStore } from '../support/store-snapshot.js';
import { suiteServer } from '../support/suite-server.js';

const LISTS = '/v1/price-lists';

describe.each(await enginesUnderTest())('price lists on %s', (engine) => {
  const suite = suiteServer(engine, { catalogs: true });

  const call = (method: string, path: string, body?: unknown, token = suite.tenant.token, headers: Record<string, string> = {}) =>
    suite.api.request(method, path, { token, body, headers });
  const expectStatus = async (method: string, path: string, body: unknown, status: number, token = suite.tenant.token) => {
    const response = await call(method, path, body, token);
    expect(response.status, `${method} ${path}: ${response.text}`).toBe(status);
    return response.body;
  };
  const createList = async (body: object, token = suite.tenant.token) => (await expectStatus('POST', LISTS, body, 201, token)) as PriceList;
  const addEntries = async (listId: number, items: object[], token = suite.tenant.token) =>
    (await expectStatus('POST', `${LISTS}/${listId}/prices/bulk`, items, 201, token)) as PriceListPrice[];
  const createCustomer = async (body: object) => (await expectStatus('POST', '/v1/customers', body, 201)) as Customer;
  const keyWith = async (scopes: Scope[]) => (await suite.server.services.credentials.issueKey(suite.tenant.storeId, scopes)).token;
  const snapshot = () => snapshotStore(suite.server.services.database, suite.tenant.storeId);
  const fieldsOf = (body: unknown) => (body as ProblemBody).errors.map(({ index, field }) => (index === undefined ? field : [index, field]));
  /** The last event id of the tenant's feed: what a test's own changes add comes after it. */
  const lastEventId = async () => {
    let after = 0;
    for (let page = 0; page < 1000; page++) {
      const events = (await call('GET', `/v1/events?after=${after}&count=100`)).body as Event[];
      if (events.length === 0) return after;
      after = events.at(-1)!.id;
    }
    throw new Error('the feed did not end');
  };
  const eventsAfter = async (after: number, token = suite.tenant.token) => {
    const response = await call('GET', `/v1/events?after=${after}&count=100`, undefined, token);
    expect(response.status).toBe(200);
    return response.body as Event[];
  };
  const topics = (events: Event[]) => events.map((event) => `${event.topic}:${event.subjectId}`);

  it('creates, reads, lists, counts, updates and deletes price lists', async () => {
    const { token } = await suite.server.createTenant();
    const created = await call('POST', LISTS, { name: 'Trade A', kind: 'fixed' }, token);
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(Number),
      name: 'Trade A',
      kind: 'fixed',
      percentage: null,
      policy: 'first',
      rounding: null,
      createdAt: expect.stringMatching(TIMESTAMP),
    });
    const fixed = created.body as PriceList;
    const nulled = await createList({ name: 'Trade B', kind: 'fixed', percentage: null }, token);
    const half = await call('POST', LISTS, { name: 'Half', kind: 'percentage', percentage: 12.5, policy: 'lowest' }, token);
    expect(half.body).toEqual({
      id: expect.any(Number),
      name: 'Half',
      kind: 'percentage',
      percentage: 12.5,
      policy: 'lowest',
      rounding: null,
      createdAt: expect.stringMatching(TIMESTAMP),
    });
    const third = await call('POST', LISTS, { name: 'Third', kind: 'percentage', percentage: 33.3333, rounding: { increment: 0.05, mode: 'up' } }, token);
    expect(third.text).toContain('"percentage":33.3333,');
    expect(third.body).toMatchObject({ rounding: { increment: 0.05, mode: 'up' } });
    const all = [fixed, nulled, half.body, third.body] as PriceList[];
    expect(all.map((list) => list.id)).toEqual([...all.map((list) => list.id)].sort((a, b) => a - b));
    for (const list of all) expect((await call('GET', `${LISTS}/${list.id}`, undefined, token)).body).toEqual(list);

    expect((await call('GET', LISTS, undefined, token)).body).toEqual(all);
    expect((await call('GET', `${LISTS}?kind=percentage`, undefined, token)).body).toEqual(all.slice(2));
    expect((await call('GET', `${LISTS}?count=2&offset=1`, undefined, token)).body).toEqual(all.slice(1, 3));
    expect((await call('GET', `${LISTS}?fields=id,name`, undefined, token)).body).toEqual(all.map(({ id, name }) => ({ id, name })));
    expect((await call('GET', `${LISTS}/${fixed.id}?fields=kind`, undefined, token)).body).toEqual({ kind: 'fixed' });
    expect((await call('GET', `${LISTS}/count`, undefined, token)).body).toEqual({ count: 4 });
    expect((await call('GET', `${LISTS}/count?kind=fixed`, undefined, token)).body).toEqual({ count: 2 });
    expectError(await call('GET', `${LISTS}?kind=tiered`, undefined, token), 400, 9, /kind/);
    expectError(await call('GET', `${LISTS}/not-an-id`, undefined, token), 404, 5);

    const percentage = half.body as PriceList;
    const put = (id: number, body: unknown) => call('PUT', `${LISTS}/${id}`, body, token);
    expect((await put(fixed.id, { name: 'Renamed' })).body).toEqual({ ...fixed, name: 'Renamed' });
    expect((await put(percentage.id, { percentage: 20.25 })).body).toEqual({ ...percentage, percentage: 20.25 });
    expect((await put(percentage.id, { kind: 'percentage', name: 'Fifth' })).body).toEqual({ ...percentage, percentage: 20.25, name: 'Fifth' });
    expect((await put(nulled.id, { kind: 'fixed', percentage: null })).body).toEqual(nulled);
    expect((await put(nulled.id, { policy: 'lowest' })).body).toEqual({ ...nulled, policy: 'lowest' });
    expect((await put(nulled.id, { policy: 'first', name: nulled.name })).body).toEqual(nulled);
    expect((await put(percentage.id, { rounding: { increment: 1, mode: 'down' } })).body).toMatchObject({ rounding: { increment: 1, mode: 'down' } });
    expect((await put(percentage.id, { rounding: null })).body).toMatchObject({ rounding: null });
    expect((await put(nulled.id, { rounding: null })).body).toEqual(nulled);
    for (const [id, body, field] of [
      [fixed.id, { kind: 'percentage' }, 'kind'],
      [percentage.id, { kind: 'fixed', percentage: null }, 'kind'],
      [percentage.id, { percentage: null }, 'percentage'],
      [fixed.id, { percentage: 5 }, 'percentage'],
      [percentage.id, { percentage: 101 }, 'percentage'],
      [fixed.id, { colour: 'red' }, 'colour'],
      [fixed.id, { policy: 'cheapest' }, 'policy'],
      [fixed.id, { rounding: { increment: 0.05, mode: 'up' } }, 'rounding'],
      [percentage.id, { rounding: { increment: 0, mode: 'up' } }, 'rounding.increment'],
      [percentage.id, { rounding: { increment: 0.00001, mode: 'up' } }, 'rounding.increment'],
      [percentage.id, { rounding: { increment: 0.05, mode: 'ceiling' } }, 'rounding.mode'],
      [percentage.id, { rounding: { increment: 0.05 } }, 'rounding.mode'],
      [fixed.id, { policy: null }, 'policy'],
      [fixed.id, {}, null],
    ] as const) {
      const refused = await put(id, body);
      expectError(refused, 422, 10);
      expect(fieldsOf(refused.body), JSON.stringify(body)).toContain(field);
    }
    expect((await call('GET', `${LISTS}/${fixed.id}`, undefined, token)).body).toEqual({ ...fixed, name: 'Renamed' });
    expect((await call('GET', `${LISTS}/${percentage.id}`, undefined, token)).body).toEqual({ ...percentage, percentage: 20.25, name: 'Fifth' });

    const deleted = await call('DELETE', `${LISTS}/${fixed.id}`, undefined, token);
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    expectError(await call('GET', `${LISTS}/${fixed.id}`, undefined, token), 404, 5);
    expectError(await call('PUT', `${LISTS}/${fixed.id}`, { name: 'Back' }, token), 404, 5);
    expectError(await call('DELETE', `${LISTS}/${fixed.id}`, undefined, token), 404, 5);
    expect((await call('GET', `${LISTS}/count`, undefined, token)).body).toEqual({ count: 3 });
  });

  it.each([
    ['name missing', { kind: 'fixed' }, 'name'],
    ['name empty', { name: '', kind: 'fixed' }, 'name'],
    ['kind missing', { name: 'X' }, 'kind'],
    ['kind not in the enum', { name: 'X', kind: 'tiered' }, 'kind'],
    ['policy not in the enum', { name: 'X', kind: 'fixed', policy: 'Lowest' }, 'policy'],
    ['percentage above 100', { name: 'X', kind: 'percentage', percentage: 100.0001 }, 'percentage'],
    ['percentage below 0', { name: 'X', kind: 'percentage', percentage: -1 }, 'percentage'],
    ['percentage with 5 decimals', { name: 'X', kind: 'percentage', percentage: 1.23456 }, 'percentage'],
    ['percentage as a string', { name: 'X', kind: 'percentage', percentage: '10' }, 'percentage'],
    ['no percentage for a percentage list', { name: 'X', kind: 'percentage' }, 'percentage'],
    ['null percentage for a percentage list', { name: 'X', kind: 'percentage', percentage: null }, 'percentage'],
    ['a percentage for a fixed list', { name: 'X', kind: 'fixed', percentage: 10 }, 'percentage'],
    ['an unknown field', { name: 'X', kind: 'fixed', colour: 'red' }, 'colour'],
  ])('refuses a list with %s (422 code 10 naming the field), storing nothing', async (_name, body, field) => {
    const before = await snapshot();
    const response = await call('POST', LISTS, body);
    expectError(response, 422, 10);
    expect(fieldsOf(response.body)).toContain(field);
    expect(await snapshot()).toEqual(before);
  });

  it('adds entries in request order with their defaults and canonical timestamps; lists, counts, gets and deletes them', async () => {
    const { catalog } = suite;
    const list = await createList({ name: 'Entries', kind: 'fixed' });
    const items = [
      { productId: catalog.tee, sku: catalog.skus.teeRedM, price: 9.5 },
      { productId: catalog.tee, sku: catalog.skus.tee, price: 8, minQuantity: 10, validFrom: '2026-01-01T02:00:00+02:00', validUntil: '2026-07-01T00:00:00Z' },
      { productId: catalog.mug, sku: catalog.skus.mug, price: 0.1234, minQuantity: 1_000_000, validFrom: null, validUntil: '2027-01-01T00:00:00.000Z' },
    ];
    const response = await call('POST', `${LISTS}/${list.id}/prices/bulk`, items);
    expect(response.status, response.text).toBe(201);
    const entries = response.body as PriceListPrice[];
    const record = {
      id: expect.any(Number),
      priceListId: list.id,
      minQuantity: 1,
      validFrom: null,
      validUntil: null,
      quantityRule: null,
      createdAt: expect.stringMatching(TIMESTAMP),
    };
    expect(entries).toEqual([
      { ...record, ...items[0] },
      { ...record, ...items[1], validFrom: '2026-01-01T00:00:00.000Z', validUntil: '2026-07-01T00:00:00.000Z' },
      { ...record, ...items[2] },
    ]);
    expect(response.text).toContain('"price":0.1234,');
    expect(entries.map((entry) => entry.id)).toEqual([...entries.map((entry) => entry.id)].sort((a, b) => a - b));
    for (const entry of entries) expect((await call('GET', `${LISTS}/${list.id}/prices/${entry.id}`)).body).toEqual(entry);

    const [a, b, c] = entries as [PriceListPrice, PriceListPrice, PriceListPrice];
    const filtered = async (query: string, expected: PriceListPrice[]) => {
      expect((await call('GET', `${LISTS}/${list.id}/prices${query}`)).body, query).toEqual(expected);
      expect((await call('GET', `${LISTS}/${list.id}/prices/count${query}`)).body, query).toEqual({ count: expected.length });
    };
    await filtered('', entries);
    expect((await call('GET', `${LISTS}/${list.id}/prices?count=1&offset=1`)).body).toEqual([b]);
    await filtered(`?productId=${catalog.tee}`, [a, b]);
    await filtered(`?sku=${catalog.skus.mug}`, [c]);
    await filtered(`?productId=${catalog.mug}&sku=${catalog.skus.tee}`, []);
    await filtered('?validAt=2025-06-01T00:00:00Z', [a, c]);
    await filtered('?validAt=2026-01-01T00:00:00Z', entries);
    await filtered(`?validAt=${encodeURIComponent('2026-01-01T01:59:59+02:00')}`, [a, c]);
    await filtered('?validAt=2026-07-01T00:00:00Z', [a, c]);
    await filtered('?validAt=2027-01-01T00:00:00Z', [a]);
    expect((await call('GET', `${LISTS}/${list.id}/prices?fields=id,sku`)).body).toEqual(entries.map(({ id, sku }) => ({ id, sku })));
    for (const path of [`${LISTS}/${list.id}/prices?validAt=garbage`, `${LISTS}/${list.id}/prices/count?validAt=garbage`])
      expectError(await call('GET', path), 400, 9, /validAt/);

    const otherList = await createList({ name: 'Other entries', kind: 'fixed' });
    const [elsewhere] = await addEntries(otherList.id, [{ productId: catalog.mug, sku: catalog.skus.mug, price: 1 }]);
    expectError(await call('GET', `${LISTS}/${list.id}/prices/${elsewhere!.id}`), 404, 5);
    expectError(await call('DELETE', `${LISTS}/${list.id}/prices/${elsewhere!.id}`), 404, 5);
    expect((await call('GET', `${LISTS}/${otherList.id}/prices/${elsewhere!.id}`)).body).toEqual(elsewhere);

    const deleted = await call('DELETE', `${LISTS}/${list.id}/prices/${b.id}`);
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    expectError(await call('GET', `${LISTS}/${list.id}/prices/${b.id}`), 404, 5);
    expectError(await call('DELETE', `${LISTS}/${list.id}/prices/${b.id}`), 404, 5);
    await filtered('', [a, c]);
  });

  it('refuses a bulk with any invalid item, listing each with its index and field, and stores nothing', async () => {
    const { catalog, foreign } = suite;
    const list = await createList({ name: 'All or nothing', kind: 'fixed' });
    const valid = { productId: catalog.tee, sku: catalog.skus.tee, price: 5 };
    const before = await snapshot();
    const response = await call('POST', `${LISTS}/${list.id}/prices/bulk`, [
      valid,
      { ...valid, productId: 999_999 },
      { ...valid, productId: foreign.tee, sku: foreign.skus.tee },
      { ...valid, sku: catalog.skus.mug },
      { ...valid, minQuantity: 0 },
      { ...valid, minQuantity: 1_000_001 },
      { ...valid, validFrom: 'next tuesday' },
      { ...valid, validUntil: '2026-02-30T00:00:00Z' },
      { ...valid, validFrom: '2026-05-01T00:00:00Z', validUntil: '2026-04-01T00:00:00Z' },
      { ...valid, validFrom: '2026-05-01T02:00:00+02:00', validUntil: '2026-05-01T00:00:00Z' },
      { ...valid, colour: 'red' },
      'not an object',
      { productId: catalog.tee, sku: catalog.skus.tee },
    ]);
    expectError(response, 422, 10, /12 of 13 items are invalid/);
    expect(fieldsOf(response.body)).toEqual([
      [1, 'productId'],
      [2, 'productId'],
      [3, 'sku'],
      [4, 'minQuantity'],
      [5, 'minQuantity'],
      [6, 'validFrom'],
      [7, 'validUntil'],
      [8, 'validUntil'],
      [9, 'validUntil'],
      [10, 'colour'],
      [11, null],
      [12, 'price'],
    ]);
    expect(await snapshot()).toEqual(before);

    // The store's problems of an item come with the schema's, in one answer.
    const both = await call('POST', `${LISTS}/${list.id}/prices/bulk`, [
      { ...valid, productId: 999_999, minQuantity: 0 },
      { ...valid, productId: 'p', sku: 'NO-SUCH-SKU' },
    ]);
    expectError(both, 422, 10, /2 of 2 items are invalid/);
    expect(fieldsOf(both.body)).toEqual([
      [0, 'minQuantity'],
      [0, 'productId'],
      [1, 'productId'],
      [1, 'sku'],
    ]);
    expect(await snapshot()).toEqual(before);

    const percentage = await createList({ name: 'Share', kind: 'percentage', percentage: 10 });
    const intoPercentage = await call('POST', `${LISTS}/${percentage.id}/prices/bulk`, [valid]);
    expectError(intoPercentage, 422, 10);
    expect((intoPercentage.body as ProblemBody).errors).toEqual([{ field: null, message: expect.stringMatching(/percentage list/) }]);
    const theirs = await createList({ name: 'Theirs', kind: 'fixed' }, suite.other.token);
    const snapshotBefore = await snapshot();
    for (const id of [999_999, theirs.id]) expectError(await call('POST', `${LISTS}/${id}/prices/bulk`, [valid]), 404, 5);
    expect(await snapshot()).toEqual(snapshotBefore);
  });

  describe("customers' priceListIds", () => {
    const threeLists = async () =>
      [
        (await createList({ name: 'First', kind: 'fixed' })).id,
        (await createList({ name: 'Second', kind: 'percentage', percentage: 5 })).id,
        (await createList({ name: 'Third', kind: 'fixed' })).id,
      ] as const;

    it('keeps them in the order given on create, get, list and update; filters and counts by them', async () => {
      const [a, b, c] = await threeLists();
      const customer = await createCustomer({ email: `ordered-${engine}@example.com`, trade: true, priceListIds: [c, a, b] });
      expect(customer.priceListIds).toEqual([c, a, b]);
      expect((await call('GET', `/v1/customers/${customer.id}`)).body).toEqual(customer);
      expect((await call('GET', `/v1/customers?priceListId=${a}`)).body).toEqual([customer]);
      expect((await call('GET', `/v1/customers/count?priceListId=${a}`)).body).toEqual({ count: 1 });

      const updated = await call('PUT', `/v1/customers/${customer.id}`, { priceListIds: [b, c] });
      expect(updated.body).toEqual({ ...customer, priceListIds: [b, c] });
      expect((await call('GET', `/v1/customers?priceListId=${b}`)).body).toEqual([updated.body]);
      expect((await call('GET', `/v1/customers?priceListId=${a}`)).body).toEqual([]);
      expect((await call('GET', `/v1/customers/count?priceListId=${a}`)).body).toEqual({ count: 0 });
      expect((await call('PUT', `/v1/customers/${customer.id}`, { firstName: 'Kept' })).body).toMatchObject({ priceListIds: [b, c] });
      expect((await call('PUT', `/v1/customers/${customer.id}`, { priceListIds: [] })).body).toMatchObject({ priceListIds: [] });
      expect((await call('GET', `/v1/customers/count?priceListId=${b}`)).body).toEqual({ count: 0 });
    });

    it.each([
      ['more than 20', () => Array.from({ length: 21 }, (_, i) => i + 1), 'priceListIds'],
      ['a duplicate', (ids: readonly number[]) => [ids[0], ids[1], ids[0]], 'priceListIds'],
      ['an unknown id', (ids: readonly number[]) => [ids[0], 999_999], 'priceListIds[1]'],
      ["another store's list", (ids: readonly number[], theirs: number) => [ids[0], ids[1], theirs], 'priceListIds[2]'],
      ['a string id', (ids: readonly number[]) => [String(ids[0])], 'priceListIds[0]'],
    ])('refuses %s (422 code 10) on create and update, changing nothing', async (_name, make, field) => {
      const ids = await threeLists();
      const theirs = (await createList({ name: 'Not yours', kind: 'fixed' }, suite.other.token)).id;
      const customer = await createCustomer({ email: `refused-${engine}-${ids[0]}@example.com`, priceListIds: [ids[2]] });
      const before = await snapshot();
      const created = await call('POST', '/v1/customers', { email: `never-${engine}-${ids[0]}@example.com`, priceListIds: make(ids, theirs) });
      expectError(created, 422, 10);
      expect(fieldsOf(created.body)).toContain(field);
      const updated = await call('PUT', `/v1/customers/${customer.id}`, { lastName: 'Changed', priceListIds: make(ids, theirs) });
      expectError(updated, 422, 10);
      expect(fieldsOf(updated.body)).toContain(field);
      expect(await snapshot()).toEqual(before);
      expect((await call('GET', `/v1/customers/${customer.id}`)).body).toEqual(customer);
    });

    it('setting them needs trade_prices:write (403 code 4); other fields need only catalog:write', async () => {
      const [a, b] = await threeLists();
      const token = await keyWith(['catalog:read', 'catalog:write']);
      const customer = await createCustomer({ email: `scoped-${engine}-${a}@example.com`, priceListIds: [a] });
      const before = await snapshot();
      expectError(
        await call('POST', '/v1/customers', { email: `scoped-new-${engine}-${a}@example.com`, priceListIds: [b] }, token),
        403,
        4,
        /trade_prices:write/,
      );
      expectError(await call('PUT', `/v1/customers/${customer.id}`, { priceListIds: [b] }, token), 403, 4, /trade_prices:write/);
      expectError(await call('PUT', `/v1/customers/${customer.id}`, { firstName: 'No', priceListIds: [] }, token), 403, 4);
      // The scope is checked before the body is validated (contract order: 403 before 422).
      expectError(await call('POST', '/v1/customers', { email: 'not an email', priceListIds: [b, b] }, token), 403, 4);
      expectError(await call('PUT', `/v1/customers/${customer.id}`, { active: 'yes', priceListIds: Array(21).fill(a) }, token), 403, 4);
      expect(await snapshot()).toEqual(before);
      const renamed = await call('PUT', `/v1/customers/${customer.id}`, { firstName: 'Yes' }, token);
      expect(renamed.status).toBe(200);
      expect(renamed.body).toEqual({ ...customer, firstName: 'Yes' });
      expect((await call('POST', '/v1/customers', { email: `scoped-plain-${engine}-${a}@example.com` }, token)).body).toMatchObject({ priceListIds: [] });
    });
  });

  it('announces creating, updating and deleting lists and entries in the event feed', async () => {
    const seen = await lastEventId();
    const list = await createList({ name: 'Announced', kind: 'fixed' });
    const entries = await addEntries(list.id, [
      { productId: suite.catalog.mug, sku: suite.catalog.skus.mug, price: 2 },
      { productId: suite.catalog.tee, sku: suite.catalog.skus.tee, price: 3 },
    ]);
    const renamed = (await call('PUT', `${LISTS}/${list.id}`, { name: 'Renamed' })).body;
    expect((await call('DELETE', `${LISTS}/${list.id}/prices/${entries[0]!.id}`)).status).toBe(204);
    const events = await eventsAfter(seen);
    expect(events.map(({ topic, subjectId, data }) => ({ topic, subjectId, data }))).toEqual([
      { topic: 'price_list.created', subjectId: list.id, data: list },
      { topic: 'price_list_price.created', subjectId: entries[0]!.id, data: entries[0] },
      { topic: 'price_list_price.created', subjectId: entries[1]!.id, data: entries[1] },
      { topic: 'price_list.updated', subjectId: list.id, data: renamed },
      { topic: 'price_list_price.deleted', subjectId: entries[0]!.id, data: entries[0] },
    ]);
  });

  it("deleting a list deletes its entries and takes it out of every customer's lists, keeping their order", async () => {
    const { catalog } = suite;
    const doomed = await createList({ name: 'Doomed', kind: 'fixed' });
    const kept = await createList({ name: 'Kept', kind: 'percentage', percentage: 7.5 });
    const last = await createList({ name: 'Last', kind: 'fixed' });
    const entries = await addEntries(doomed.id, [
      { productId: catalog.mug, sku: catalog.skus.mug, price: 2 },
      { productId: catalog.tee, sku: catalog.skus.teeRedL, price: 3, minQuantity: 5 },
    ]);
    const keptEntry = (await addEntries(last.id, [{ productId: catalog.mug, sku: catalog.skus.mug, price: 1 }]))[0]!;
    const x = await createCustomer({ email: `x-${engine}-${doomed.id}@example.com`, priceListIds: [kept.id, doomed.id, last.id] });
    const y = await createCustomer({ email: `y-${engine}-${doomed.id}@example.com`, priceListIds: [doomed.id, kept.id] });
    const z = await createCustomer({ email: `z-${engine}-${doomed.id}@example.com`, priceListIds: [last.id, kept.id] });
    const seen = await lastEventId();

    expect((await call('DELETE', `${LISTS}/${doomed.id}`)).status).toBe(204);
    const after = {
      x: { ...x, priceListIds: [kept.id, last.id] },
      y: { ...y, priceListIds: [kept.id] },
    };
    expect((await call('GET', `/v1/customers/${x.id}`)).body).toEqual(after.x);
    expect((await call('GET', `/v1/customers/${y.id}`)).body).toEqual(after.y);
    expect((await call('GET', `/v1/customers/${z.id}`)).body).toEqual(z);
    expect((await call('GET', `/v1/customers?priceListId=${kept.id}`)).body).toEqual([after.x, after.y, z]);
    expect((await call('GET', `/v1/customers/count?priceListId=${doomed.id}`)).body).toEqual({ count: 0 });
    expectError(await call('GET', `${LISTS}/${doomed.id}/prices`), 404, 5);
    expectError(await call('GET', `${LISTS}/${doomed.id}/prices/${entries[0]!.id}`), 404, 5);
    expect((await call('GET', `${LISTS}/${last.id}/prices`)).body).toEqual([keptEntry]);

    const events = await eventsAfter(seen);
    expect(events.map(({ topic, subjectId, data }) => ({ topic, subjectId, data }))).toEqual([
      { topic: 'price_list_price.deleted', subjectId: entries[0]!.id, data: entries[0] },
      { topic: 'price_list_price.deleted', subjectId: entries[1]!.id, data: entries[1] },
      { topic: 'customer.updated', subjectId: x.id, data: after.x },
      { topic: 'customer.updated', subjectId: y.id, data: after.y },
      { topic: 'price_list.deleted', subjectId: doomed.id, data: doomed },
    ]);
  });

  it('deleting a product deletes its entries from every list, each with its event', async () => {
    const product = (await expectStatus(
      'POST',
      '/v1/products',
      { title: 'Short-lived', sku: `GONE-${engine}`, price: 3, variations: [{ sku: `GONE-${engine}-V` }] },
      201,
    )) as { id: number };
    const one = await createList({ name: 'One', kind: 'fixed' });
    const two = await createList({ name: 'Two', kind: 'fixed' });
    const [gone1, stays] = await addEntries(one.id, [
      { productId: product.id, sku: `GONE-${engine}-V`, price: 1 },
      { productId: suite.catalog.mug, sku: suite.catalog.skus.mug, price: 1 },
    ]);
    const [gone2] = await addEntries(two.id, [{ productId: product.id, sku: `GONE-${engine}`, price: 2 }]);
    const seen = await lastEventId();
    expect((await call('DELETE', `/v1/products/${product.id}`)).status).toBe(204);
    expect((await call('GET', `${LISTS}/${one.id}/prices`)).body).toEqual([stays]);
    expect((await call('GET', `${LISTS}/${two.id}/prices/count`)).body).toEqual({ count: 0 });
    expect(topics(await eventsAfter(seen))).toEqual([
      `price_list_price.deleted:${gone1!.id}`,
      `price_list_price.deleted:${gone2!.id}`,
      `product.deleted:${product.id}`,
    ]);
  });

  it('trade_prices:read reads lists and entries but may not change them; without it even reading is 403', async () => {
    const list = await createList({ name: 'Read only', kind: 'fixed' });
    const [entry] = await addEntries(list.id, [{ productId: suite.catalog.mug, sku: suite.catalog.skus.mug, price: 4 }]);
    const reads = [
      LISTS,
      `${LISTS}/count`,
      `${LISTS}/${list.id}`,
      `${LISTS}/${list.id}/prices`,
      `${LISTS}/${list.id}/prices/count`,
      `${LISTS}/${list.id}/prices/${entry!.id}`,
    ];
    const writes: Array<[string, string, unknown]> = [
      ['POST', LISTS, { name: 'No', kind: 'fixed' }],
      ['PUT', `${LISTS}/${list.id}`, { name: 'No' }],
      ['DELETE', `${LISTS}/${list.id}`, undefined],
      ['POST', `${LISTS}/${list.id}/prices/bulk`, [{ productId: suite.catalog.mug, sku: suite.catalog.skus.mug, price: 1 }]],
      ['DELETE', `${LISTS}/${list.id}/prices/${entry!.id}`, undefined],
    ];
    const reader = await keyWith(['trade_prices:read']);
    for (const path of reads) expect((await call('GET', path, undefined, reader)).status, path).toBe(200);
    const before = await snapshot();
    for (const [method, path, body] of writes) expectError(await call(method, path, body, reader), 403, 4, /trade_prices:write/);
    expect(await snapshot()).toEqual(before);
    const outsider = await keyWith(['catalog:read', 'catalog:write', 'orders:read', 'orders:write', 'webhooks']);
    for (const path of reads) expectError(await call('GET', path, undefined, outsider), 403, 4, /trade_prices:read/);
  });

  it('the feed shows price list events only to a credential with trade_prices:read', async () => {
    const seen = await lastEventId();
    const list = await createList({ name: 'Watched', kind: 'fixed' });
    const [entry] = await addEntries(list.id, [{ productId: suite.catalog.mug, sku: suite.catalog.skus.mug, price: 4 }]);
    await call('PUT', `${LISTS}/${list.id}`, { name: 'Watched more' });
    await createCustomer({ email: `watched-${engine}@example.com`, priceListIds: [list.id] });
    expect((await call('DELETE', `${LISTS}/${list.id}`)).status).toBe(204);
    const customerIdOf = (events: Event[]) => events.find((event) => event.topic === 'customer.created')!.subjectId;
    const all = await eventsAfter(seen);
    const customer = customerIdOf(all);
    const priceListTopics = [
      `price_list.created:${list.id}`,
      `price_list_price.created:${entry!.id}`,
      `price_list.updated:${list.id}`,
      `price_list_price.deleted:${entry!.id}`,
      `price_list.deleted:${list.id}`,
    ];
    expect(topics(all)).toEqual([
      ...priceListTopics.slice(0, 3),
      `customer.created:${customer}`,
      priceListTopics[3],
      `customer.updated:${customer}`,
      priceListTopics[4],
    ]);
    expect(topics(await eventsAfter(seen, await keyWith(['webhooks', 'trade_prices:read'])))).toEqual(priceListTopics);
    expect(topics(await eventsAfter(seen, await keyWith(['webhooks', 'catalog:read'])))).toEqual([
      `customer.created:${customer}`,
      `customer.updated:${customer}`,
    ]);
    expect(await eventsAfter(seen, await keyWith(['webhooks']))).toEqual([]);
  });

  it("another store's lists and entries are 404 everywhere and never listed", async () => {
    const mine = await createList({ name: 'Mine', kind: 'fixed' });
    const [entry] = await addEntries(mine.id, [{ productId: suite.catalog.mug, sku: suite.catalog.skus.mug, price: 4 }]);
    const theirs = await createList({ name: 'Theirs', kind: 'fixed' }, suite.other.token);
    const [theirEntry] = await addEntries(theirs.id, [{ productId: suite.foreign.mug, sku: suite.foreign.skus.mug, price: 5 }], suite.other.token);
    const before = await snapshot();
    const other = suite.other.token;
    for (const [method, path, body] of [
      ['GET', `${LISTS}/${mine.id}`, undefined],
      ['PUT', `${LISTS}/${mine.id}`, { name: 'Stolen' }],
      ['DELETE', `${LISTS}/${mine.id}`, undefined],
      ['GET', `${LISTS}/${mine.id}/prices`, undefined],
      ['GET', `${LISTS}/${mine.id}/prices/count`, undefined],
      ['POST', `${LISTS}/${mine.id}/prices/bulk`, [{ productId: suite.foreign.mug, sku: suite.foreign.skus.mug, price: 1 }]],
      ['GET', `${LISTS}/${mine.id}/prices/${entry!.id}`, undefined],
      ['DELETE', `${LISTS}/${mine.id}/prices/${entry!.id}`, undefined],
      ['GET', `${LISTS}/${theirs.id}/prices/${entry!.id}`, undefined],
    ] as const) {
      expectError(await call(method, path, body, other), 404, 5);
    }
    // And the other way round: the tenant's own list does not reach the other store's entry.
    expectError(await call('GET', `${LISTS}/${mine.id}/prices/${theirEntry!.id}`), 404, 5);
    expectError(await call('GET', `${LISTS}/${theirs.id}`), 404, 5);
    expect(await snapshot()).toEqual(before);
    const theirLists = (await call('GET', `${LISTS}?count=100`, undefined, other)).body as PriceList[];
    expect(theirLists.map((list) => list.id)).toContain(theirs.id);
    expect(theirLists.map((list) => list.id)).not.toContain(mine.id);
    expect((await call('GET', `${LISTS}/${mine.id}`)).body).toEqual(mine);
  });

  it('replays a list creation for the same Idempotency-Key and creates nothing more', async () => {
    const { token, storeId } = await suite.server.createTenant();
    const key = `price-list-${engine}`;
    const body = { name: 'Once', kind: 'percentage', percentage: 2.5 };
    const first = await call('POST', LISTS, body, token, { 'idempotency-key': key });
    expect(first.status).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const before = await snapshotStore(suite.server.services.database, storeId);
    const second = await call('POST', LISTS, body, token, { 'idempotency-key': key });
    expect(second.status).toBe(201);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.text).toBe(first.text);
    expect(await snapshotStore(suite.server.services.database, storeId)).toEqual(before);
    expect((await call('GET', LISTS, undefined, token)).body).toEqual([first.body]);
    expectError(await call('POST', LISTS, { ...body, name: 'Twice' }, token, { 'idempotency-key': key }), 422, 13);
    expect((await call('GET', `${LISTS}/count`, undefined, token)).body).toEqual({ count: 1 });
  });
});

import { describe, expect, it } from 'vitest';
import {
  MAX_LIST_REPLACE_STORED,
  MAX_OVERLAP_KEY_ENTRIES,
  type PriceListEntryOverlap,
  type PriceListPrice,
  type ReplacePriceListPricesResult,
} from '../../src/contract/price-lists.js';
import { expectError } from '../support/conventions.js';
import { enginesUnderTest } from '../support/engines.js';
import { suiteServer } from '../support/suite-server.js';
import type { HttpResponse } from '../support/test-server.js';

const LISTS = '/v1/price-lists';

/**
 * `GET /v1/price-lists/{id}/overlaps` (docs/pricing.md, "Overlaps"): the entries of one SKU,
 * product and break whose windows meet, as the tie rule weighs them, from outside.
 */
describe.each(await enginesUnderTest())('price list overlaps on %s', (engine) => {
  const suite = suiteServer(engine, { catalogs: true });
  const call = (method: string, path: string, body?: unknown, token = suite.tenant.token) => suite.api.request(method, path, { token, body });
  const created = async (method: string, path: string, body: unknown) => {
    const response = await call(method, path, body);
    expect(response.status, `${method} ${path}: ${response.text}`).toBe(201);
    return response.body;
  };
  const overlaps = async (listId: number, query = '') => {
    const response = await call('GET', `${LISTS}/${listId}/overlaps${query}`);
    expect(response.status, response.text).toBe(200);
    return response.body as PriceListEntryOverlap[];
  };
  const shown = ({ id, price, validFrom, validUntil }: PriceListPrice) => ({ id, price, validFrom, validUntil });

  it('groups same-SKU, same-break entries whose windows meet, newest first, in key order; the newest valid one is what the customer pays', async () => {
    const { catalog } = suite;
    const list = (await created('POST', LISTS, { name: 'Overlapping', kind: 'fixed' })) as { id: number };
    const tee = (price: number, extra: object = {}) => ({ productId: catalog.tee, sku: catalog.skus.teeRedM, price, ...extra });
    const mug = (price: number, validFrom: string | null, validUntil: string | null) => ({
      productId: catalog.mug,
      sku: catalog.skus.mug,
      price,
      validFrom,
      validUntil,
    });
    const [a, b, , d, e, f, g] = (await created('POST', `${LISTS}/${list.id}/prices/bulk`, [
      tee(9.5),
      tee(9),
      // Another break: never weighed against the two above.
      tee(8, { minQuantity: 10 }),
      mug(3, '2027-01-01T00:00:00Z', '2027-02-01T00:00:00Z'),
      mug(2.5, '2027-01-15T00:00:00Z', '2027-03-01T00:00:00Z'),
      // Starts as the one before ends: windows are half-open, so they do not meet.
      mug(2, '2027-03-01T00:00:00Z', null),
      mug(1.5, '2027-06-01T00:00:00Z', '2027-07-01T00:00:00Z'),
      // Alone in its break.
      { ...mug(1, null, null), minQuantity: 5 },
    ])) as PriceListPrice[] as [PriceListPrice, PriceListPrice, PriceListPrice, PriceListPrice, PriceListPrice, PriceListPrice, PriceListPrice, PriceListPrice];

    const duplicate: PriceListEntryOverlap = {
      sku: catalog.skus.teeRedM,
      productId: catalog.tee,
      minQuantity: 1,
      kind: 'duplicate',
      from: null,
      until: null,
      entryCount: 2,
      entries: [shown(b), shown(a)],
    };
    const january: PriceListEntryOverlap = {
      sku: catalog.skus.mug,
      productId: catalog.mug,
      minQuantity: 1,
      kind: 'overlap',
      from: '2027-01-01T00:00:00.000Z',
      until: '2027-03-01T00:00:00.000Z',
      entryCount: 2,
      entries: [shown(e), shown(d)],
    };
    const june: PriceListEntryOverlap = {
      sku: catalog.skus.mug,
      productId: catalog.mug,
      minQuantity: 1,
      kind: 'overlap',
      from: '2027-03-01T00:00:00.000Z',
      until: null,
      entryCount: 2,
      entries: [shown(g), shown(f)],
    };
    // In order of SKU (MUG… before TEE…), product, break, start.
    const all = [january, june, duplicate].sort((x, y) => (x.sku < y.sku ? -1 : x.sku > y.sku ? 1 : 0));
    expect(await overlaps(list.id)).toEqual(all);
    expect(await overlaps(list.id, '?count=1&offset=1')).toEqual([all[1]]);
    expect(await overlaps(list.id, '?offset=3')).toEqual([]);
    expect(await overlaps(list.id, `?sku=${catalog.skus.mug}`)).toEqual([january, june]);
    expect(await overlaps(list.id, `?productId=${catalog.tee}`)).toEqual([duplicate]);
    expect(await overlaps(list.id, `?productId=${catalog.tee}&sku=${catalog.skus.mug}`)).toEqual([]);
    expect(await overlaps(list.id, '?fields=sku,kind')).toEqual(all.map(({ sku, kind }) => ({ sku, kind })));

    // What the tie rule decides: inside each overlap, the first valid entry of `entries` applies.
    const customer = (await created('POST', '/v1/customers', { email: `overlaps-${engine}@example.com`, priceListIds: [list.id] })) as { id: number };
    const paid = async (sku: string, at: string) => {
      const response = await call('GET', `/v1/trade-customer-product-prices/effective?customerId=${customer.id}&sku=${sku}&at=${at}`);
      expect(response.status, response.text).toBe(200);
      return (response.body as { priceListPriceId: number | null }).priceListPriceId;
    };
    expect(await paid(catalog.skus.teeRedM, '2027-01-01T00:00:00Z')).toBe(b.id);
    expect(await paid(catalog.skus.mug, '2027-01-10T00:00:00Z')).toBe(d.id);
    expect(await paid(catalog.skus.mug, '2027-01-20T00:00:00Z')).toBe(e.id);
    expect(await paid(catalog.skus.mug, '2027-06-10T00:00:00Z')).toBe(g.id);
    expect(await paid(catalog.skus.mug, '2027-07-01T00:00:00Z')).toBe(f.id);
  });

  it('follows one SKU and break across the reads of 1000 entries at a time', async () => {
    const { catalog } = suite;
    const list = (await created('POST', LISTS, { name: 'Many duplicates', kind: 'fixed' })) as { id: number };
    const item = (sku: string, productId: number, price: number) => ({ productId, sku, price });
    const first = (await created(
      'POST',
      `${LISTS}/${list.id}/prices/bulk`,
      Array.from({ length: 1000 }, (_, i) => item(catalog.skus.tee, catalog.tee, (100 + i) / 100)),
    )) as PriceListPrice[];
    const more = (await created('POST', `${LISTS}/${list.id}/prices/bulk`, [
      item(catalog.skus.tee, catalog.tee, 20),
      item(catalog.skus.teeRedL, catalog.tee, 21),
      item(catalog.skus.teeRedL, catalog.tee, 22),
    ])) as PriceListPrice[];
    const found = await overlaps(list.id);
    expect(found.map((overlap) => [overlap.sku, overlap.kind, overlap.entryCount, overlap.entries.length])).toEqual([
      [catalog.skus.tee, 'duplicate', 1001, 100],
      [catalog.skus.teeRedL, 'duplicate', 2, 2],
    ]);
    // The newest 100 of the 1001, newest first.
    expect(found[0]!.entries.map((entry) => entry.id)).toEqual([more[0]!.id, ...first.map((entry) => entry.id).reverse()].slice(0, 100));
    expect(await overlaps(list.id, '?offset=1')).toEqual([found[1]]);
  });

  it('answers [] for a percentage list, 404 for a list that is not the store’s, 400 for a bad parameter', async () => {
    const percentage = (await created('POST', LISTS, { name: 'Ten off', kind: 'percentage', percentage: 10 })) as { id: number };
    expect(await overlaps(percentage.id)).toEqual([]);
    expectError(await call('GET', `${LISTS}/987654/overlaps`), 404, 5);
    const theirs = (await suite.api.request('POST', LISTS, { token: suite.other.token, body: { name: 'Theirs', kind: 'fixed' } })).body as { id: number };
    expectError(await call('GET', `${LISTS}/${theirs.id}/overlaps`), 404, 5);
    for (const query of ['count=0', 'count=101', 'offset=-1', 'validAt=2027-01-01T00:00:00Z', 'sku=', 'fields=nope']) {
      expectError(await call('GET', `${LISTS}/${percentage.id}/overlaps?${query}`), 400, 9);
    }
    const reader = (await suite.server.services.credentials.issueKey(suite.tenant.storeId, ['catalog:read'])).token;
    expectError(await call('GET', `${LISTS}/${percentage.id}/overlaps`, undefined, reader), 403, 4);
  });
});

/** `POST /v1/price-lists/{id}/prices/replace`: a list's entries kept as a customer's trade prices are. */
describe.each(await enginesUnderTest())('price list replace on %s', (engine) => {
  const suite = suiteServer(engine, { catalogs: true });
  const call = (method: string, path: string, body?: unknown, token = suite.tenant.token, headers: Record<string, string> = {}) =>
    suite.api.request(method, path, { token, body, headers });
  const newList = async (name: string) => {
    const response = await call('POST', LISTS, { name, kind: 'fixed' });
    expect(response.status, response.text).toBe(201);
    return (response.body as { id: number }).id;
  };
  const entriesOf = async (listId: number) =>
    (await call('GET', `${LISTS}/${listId}/prices?count=100`)).body as Array<{ id: number; sku: string; price: number; minQuantity: number }>;
  /** Every entry of the list, page by page. */
  const entriesOfAll = async (listId: number) => {
    const all: Array<{ id: number }> = [];
    for (let offset = 0; offset < 100_000; offset += 100) {
      const page = (await call('GET', `${LISTS}/${listId}/prices?count=100&offset=${offset}`)).body as Array<{ id: number }>;
      all.push(...page);
      if (page.length < 100) return all;
    }
    throw new Error('the list did not end');
  };
  /** A 422's problems as `field: message` lines. */
  const problems = (response: HttpResponse) => {
    expectError(response, 422, 10);
    return (response.body as { errors: Array<{ field: string | null; message: string }> }).errors.map(({ field, message }) => `${field}: ${message}`);
  };
  const replace = async (listId: number, body: object, status = 200) => {
    const response = await call('POST', `${LISTS}/${listId}/prices/replace`, body);
    expect(response.status, response.text).toBe(status);
    return response.body as ReplacePriceListPricesResult;
  };
  const eventTopics = async (after: number) => {
    const events = (await call('GET', `/v1/events?after=${after}&count=100`)).body as Array<{ id: number; topic: string; subjectId: number }>;
    return events.map((event) => `${event.topic}:${event.subjectId}`);
  };
  const lastEventId = async () => {
    let after = 0;
    for (let page = 0; page < 1000; page++) {
      const events = (await call('GET', `/v1/events?after=${after}&count=100`)).body as Array<{ id: number }>;
      if (events.length === 0) return after;
      after = events.at(-1)!.id;
    }
    throw new Error('the feed did not end');
  };

  it('keeps equal entries with their ids, creates the rest, deletes what is left over, and says where the result overlaps; a dry run changes nothing', async () => {
    const { catalog } = suite;
    const listId = await newList('Replaced');
    const mug = { productId: catalog.mug, sku: catalog.skus.mug };
    const tee = { productId: catalog.tee, sku: catalog.skus.teeRedM };
    const added = await call('POST', `${LISTS}/${listId}/prices/bulk`, [
      { ...mug, price: 3 },
      { ...mug, price: 2, minQuantity: 10 },
      { ...tee, price: 9 },
    ]);
    expect(added.status, added.text).toBe(201);
    const [keep, drop, teeEntry] = added.body as Array<{ id: number }> as [{ id: number }, { id: number }, { id: number }];

    const body = {
      scope: 'skus',
      prices: [
        { ...mug, price: 3 },
        { ...mug, price: 2.5, validFrom: '2027-01-01T00:00:00Z' },
      ],
    };
    const before = await entriesOf(listId);
    const after = await lastEventId();
    const planned = await replace(listId, { ...body, dryRun: true });
    expect(planned).toEqual({
      created: [
        {
          id: null,
          priceListId: listId,
          ...mug,
          price: 2.5,
          minQuantity: 1,
          validFrom: '2027-01-01T00:00:00.000Z',
          validUntil: null,
          quantityRule: null,
          createdAt: null,
        },
      ],
      deleted: [expect.objectContaining({ id: drop.id, sku: catalog.skus.mug, minQuantity: 10 })],
      unchanged: 1,
      overlaps: [
        {
          ...mug,
          minQuantity: 1,
          kind: 'overlap',
          from: null,
          until: null,
          entryCount: 2,
          entries: [
            { index: 1, id: null, price: 2.5, validFrom: '2027-01-01T00:00:00.000Z', validUntil: null },
            { index: 0, id: keep.id, price: 3, validFrom: null, validUntil: null },
          ],
        },
      ],
    });
    expect(await entriesOf(listId)).toEqual(before);
    expect(await eventTopics(after)).toEqual([]);

    const done = await replace(listId, body);
    const createdId = done.created[0]!.id!;
    expect(createdId).toBeGreaterThan(teeEntry.id);
    expect(done).toEqual({
      ...planned,
      created: [{ ...planned.created[0], id: createdId, createdAt: expect.any(String) }],
      overlaps: [{ ...planned.overlaps[0], entries: [{ ...planned.overlaps[0]!.entries[0], id: createdId }, planned.overlaps[0]!.entries[1]] }],
    });
    // The tee's entry is not of a SKU named: it stays.
    expect((await entriesOf(listId)).map((entry) => entry.id)).toEqual([keep.id, teeEntry.id, createdId]);
    expect(await eventTopics(after)).toEqual([`price_list_price.deleted:${drop.id}`, `price_list_price.created:${createdId}`]);
    expect(
      ((await call('GET', `${LISTS}/${listId}/overlaps`)).body as PriceListEntryOverlap[]).map((overlap) => overlap.entries.map((entry) => entry.id)),
    ).toEqual([[createdId, keep.id]]);

    // Scope list: the list becomes exactly these; the same again changes nothing.
    const exactly = { scope: 'list', prices: [{ ...tee, price: 9 }] };
    const narrowed = await replace(listId, exactly);
    expect({
      created: narrowed.created,
      deleted: narrowed.deleted.map((entry) => entry.id),
      unchanged: narrowed.unchanged,
      overlaps: narrowed.overlaps,
    }).toEqual({ created: [], deleted: [keep.id, createdId], unchanged: 1, overlaps: [] });
    expect((await entriesOf(listId)).map((entry) => entry.id)).toEqual([teeEntry.id]);
    expect(await replace(listId, exactly)).toEqual({ created: [], deleted: [], unchanged: 1, overlaps: [] });
    expect(await replace(listId, { scope: 'list', prices: [] })).toMatchObject({ created: [], deleted: [{ id: teeEntry.id }], unchanged: 0 });
    expect(await entriesOf(listId)).toEqual([]);
  });

  it('refuses bad items all together with their index, a percentage list, a list not the store’s, and changes nothing', async () => {
    const { catalog } = suite;
    const listId = await newList('Refusing');
    const mug = { productId: catalog.mug, sku: catalog.skus.mug };
    expect((await call('POST', `${LISTS}/${listId}/prices/bulk`, [{ ...mug, price: 1 }])).status).toBe(201);
    const before = await entriesOf(listId);
    const refused = await call('POST', `${LISTS}/${listId}/prices/replace`, {
      scope: 'list',
      prices: [
        { ...mug, price: 2 },
        { ...mug, sku: 'NOT-A-SKU', price: 2 },
        { ...mug, price: -1 },
        { ...mug, price: 2, validFrom: '2027-02-01T00:00:00Z', validUntil: '2027-01-01T00:00:00Z' },
      ],
    });
    expect(refused.status, refused.text).toBe(422);
    expect(
      (refused.body as { code: number; errors: Array<{ index?: number; field: string | null }> }).errors.map(({ index, field }) => [index, field]),
    ).toEqual([
      [1, 'sku'],
      [2, 'price'],
      [3, 'validUntil'],
    ]);
    expect(problems(await call('POST', `${LISTS}/${listId}/prices/replace`, { scope: 'everything', prices: [] }))).toEqual([expect.stringMatching(/^scope: /)]);
    expect(problems(await call('POST', `${LISTS}/${listId}/prices/replace`, { prices: [] }))).toEqual([expect.stringMatching(/scope/)]);
    expectError(await call('POST', `${LISTS}/${listId}/prices/replace`, { scope: 'list', prices: [], extra: 1 }), 422, 10);
    const percentage = (await call('POST', LISTS, { name: 'Percent', kind: 'percentage', percentage: 5 })).body as { id: number };
    expect(problems(await call('POST', `${LISTS}/${percentage.id}/prices/replace`, { scope: 'list', prices: [] }))).toEqual([
      expect.stringMatching(/percentage list/),
    ]);
    expectError(await call('POST', `${LISTS}/987654/prices/replace`, { scope: 'list', prices: [] }), 404, 5);
    expectError(await call('POST', `${LISTS}/abc/prices/replace`, { scope: 'list', prices: [] }), 404, 5);
    const theirs = (await suite.api.request('POST', LISTS, { token: suite.other.token, body: { name: 'Theirs', kind: 'fixed' } })).body as { id: number };
    expectError(await call('POST', `${LISTS}/${theirs.id}/prices/replace`, { scope: 'list', prices: [] }), 404, 5);
    const writer = (await suite.server.services.credentials.issueKey(suite.tenant.storeId, ['trade_prices:write'])).token;
    expectError(await call('POST', `${LISTS}/${listId}/prices/replace`, { scope: 'list', prices: [] }, writer), 403, 4);
    expect(await entriesOf(listId)).toEqual(before);
  });

  it(`refuses a replace of more than ${MAX_LIST_REPLACE_STORED} stored entries, naming scope, and changes nothing`, async () => {
    const { catalog } = suite;
    const listId = await newList('Too many to replace');
    const entry = (minQuantity: number) => ({
      productId: catalog.mug,
      sku: catalog.skus.mug,
      price: 1,
      minQuantity,
      validFrom: null,
      validUntil: null,
      quantityRule: null,
    });
    const createdAt = new Date().toISOString();
    for (let start = 0; start <= MAX_LIST_REPLACE_STORED; start += 5000) {
      const items = Array.from({ length: Math.min(5000, MAX_LIST_REPLACE_STORED + 1 - start) }, (_, offset) => entry(start + offset + 1));
      await suite.server.services.uow.transaction((repos) => repos.priceLists.insertPrices(suite.tenant.storeId, listId, items, createdAt));
    }
    for (const body of [
      { scope: 'list', prices: [] },
      { scope: 'skus', prices: [{ productId: catalog.mug, sku: catalog.skus.mug, price: 2 }] },
    ]) {
      expect(problems(await call('POST', `${LISTS}/${listId}/prices/replace`, body))).toEqual([
        expect.stringMatching(new RegExp(`^scope: .*more than ${MAX_LIST_REPLACE_STORED}`)),
      ]);
    }
    // Another SKU's entries are few: that replace goes ahead.
    expect(await replace(listId, { scope: 'skus', prices: [{ productId: catalog.tee, sku: catalog.skus.teeRedM, price: 2 }] })).toMatchObject({
      deleted: [],
      unchanged: 0,
    });
    expect((await call('GET', `${LISTS}/${listId}/prices/count`)).body).toEqual({ count: MAX_LIST_REPLACE_STORED + 2 });
  });

  it('creates and deletes in several batches, names every created entry of an overlap by its id, and records each change in the price history', async () => {
    const { catalog } = suite;
    const listId = await newList('Batches');
    const mug = { productId: catalog.mug, sku: catalog.skus.mug };
    const stored = await call(
      'POST',
      `${LISTS}/${listId}/prices/bulk`,
      Array.from({ length: 600 }, (_, index) => ({ ...mug, price: 1, minQuantity: index + 1 })),
    );
    expect(stored.status, stored.text).toBe(201);
    // 700 new prices: 600 of breaks 1–600 at another price (each stored one goes), then 100 duplicates of break 1.
    const prices = [
      ...Array.from({ length: 600 }, (_, index) => ({ ...mug, price: 2, minQuantity: index + 1 })),
      ...Array.from({ length: 100 }, () => ({ ...mug, price: 3 })),
    ];
    const done = await replace(listId, { scope: 'list', prices });
    expect([done.created.length, done.deleted.length, done.unchanged]).toEqual([700, 600, 0]);
    const createdIds = done.created.map((entry) => entry.id!);
    // Break 1: the price at index 0 and the 100 duplicates, all created: named newest first, by their ids.
    expect(done.overlaps).toHaveLength(1);
    const [overlap] = done.overlaps;
    expect(overlap!.entryCount).toBe(101);
    expect(overlap!.entries.map((entry) => [entry.index, entry.id])).toEqual(
      [0, ...Array.from({ length: 100 }, (_, offset) => 600 + offset)]
        .reverse()
        .slice(0, 100)
        .map((index) => [index, createdIds[index]]),
    );
    expect(new Set((await entriesOfAll(listId)).map((entry) => entry.id))).toEqual(new Set(createdIds));
    const history = (await call('GET', `/v1/price-history/count?priceListId=${listId}&resource=price_list_entry`)).body as { count: number };
    expect(history.count).toBe(600 + 600 + 700);
  });

  it(`refuses the overlaps of one SKU and break of more than ${MAX_OVERLAP_KEY_ENTRIES} entries, naming sku; other SKUs are answered`, async () => {
    const { catalog } = suite;
    const listId = await newList('Too many duplicates');
    const createdAt = new Date().toISOString();
    for (let start = 0; start <= MAX_OVERLAP_KEY_ENTRIES; start += 5000) {
      const items = Array.from({ length: Math.min(5000, MAX_OVERLAP_KEY_ENTRIES + 1 - start) }, () => ({
        productId: catalog.mug,
        sku: catalog.skus.mug,
        price: 1,
        minQuantity: 1,
        validFrom: null,
        validUntil: null,
        quantityRule: null,
      }));
      await suite.server.services.uow.transaction((repos) => repos.priceLists.insertPrices(suite.tenant.storeId, listId, items, createdAt));
    }
    const tee = { productId: catalog.tee, sku: catalog.skus.teeRedM, price: 2 };
    expect((await call('POST', `${LISTS}/${listId}/prices/bulk`, [tee, tee])).status).toBe(201);
    expect(problems(await call('GET', `${LISTS}/${listId}/overlaps`))).toEqual([
      expect.stringMatching(new RegExp(`^sku: .*more than ${MAX_OVERLAP_KEY_ENTRIES} entries of SKU '${catalog.skus.mug}'`)),
    ]);
    const teeOnly = await call('GET', `${LISTS}/${listId}/overlaps?sku=${catalog.skus.teeRedM}`);
    expect((teeOnly.body as PriceListEntryOverlap[]).map((found) => [found.sku, found.entryCount])).toEqual([[catalog.skus.teeRedM, 2]]);
  });

  it('replays a replace sent again with its Idempotency-Key', async () => {
    const { catalog } = suite;
    const listId = await newList('Replayed');
    const body = { scope: 'list', prices: [{ productId: catalog.mug, sku: catalog.skus.mug, price: 4 }] };
    const first = await call('POST', `${LISTS}/${listId}/prices/replace`, body, suite.tenant.token, { 'idempotency-key': `list-replace-${engine}` });
    expect(first.status, first.text).toBe(200);
    const again = await call('POST', `${LISTS}/${listId}/prices/replace`, body, suite.tenant.token, { 'idempotency-key': `list-replace-${engine}` });
    expect(again.status).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await entriesOf(listId)).toHaveLength(1);
  });
});

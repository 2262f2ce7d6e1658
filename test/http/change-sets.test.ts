import { describe, expect, it, vi } from 'vitest';
import { MAX_PRICES_PER_SET, type ChangeSet, type ChangeSetPreview, type PreviewRow } from '../../src/contract/change-sets.js';
import type { TradePrice } from '../../src/contract/trade-prices.js';
import { expectError } from '../support/conventions.js';
import { enginesUnderTest } from '../support/engines.js';
import { OffsetClock } from '../support/offset-clock.js';
import { asStaff, createSignedInStaff } from '../support/staff.js';
import { suiteServer } from '../support/suite-server.js';
import { requestStatements, type Tenant } from '../support/test-server.js';

const PRICES = '/v1/trade-customer-product-prices';

describe.each(await enginesUnderTest())('change sets on %s', (engine) => {
  // Moved on by a test whose price starts applying later (a few minutes: later tests schedule sets an hour ahead).
  const clock = new OffsetClock();
  const suite = suiteServer(engine, { catalogs: true, services: { clock } });

  const call = (method: string, path: string, body?: unknown, token = suite.tenant.token) =>
    suite.api.request(method, path, { token, ...(body !== undefined && { body }) });
  async function newSet(name = 'Contract 2027', token = suite.tenant.token): Promise<ChangeSet> {
    const created = await call('POST', '/v1/change-sets', { name, note: 'From the new contract' }, token);
    expect(created.status, created.text).toBe(201);
    return created.body as ChangeSet;
  }
  async function add(id: number, operations: unknown[], token = suite.tenant.token): Promise<ChangeSet> {
    const added = await call('POST', `/v1/change-sets/${id}/operations`, operations, token);
    expect(added.status, added.text).toBe(201);
    return added.body as ChangeSet;
  }
  async function createPrices(items: unknown[]): Promise<TradePrice[]> {
    const created = await call('POST', `${PRICES}/bulk`, items);
    expect(created.status, created.text).toBe(201);
    return created.body as TradePrice[];
  }
  const pricesOf = async (customerId: number) => (await call('GET', `${PRICES}?customerId=${customerId}&count=100`)).body as TradePrice[];
  const effective = async (customerId: number, sku: string, quantity = 1) =>
    (await call('GET', `${PRICES}/effective?customerId=${customerId}&sku=${encodeURIComponent(sku)}&quantity=${quantity}`)).body as {
      price: number;
      tradePriceId: number | null;
    };

  it('stages operations, previews them before → after, applies them in one go, and a revert takes them back exactly', async () => {
    const { catalog } = suite;
    const [kept, dropped] = await createPrices([
      { customerId: catalog.tradeCustomer, productId: catalog.tee, sku: catalog.skus.teeRedM, price: 9.75 },
      { customerId: catalog.tradeCustomer, productId: catalog.mug, sku: catalog.skus.mug, price: 3 },
    ]);
    const set = await newSet();
    expect(set).toMatchObject({ state: 'draft', revision: 1, counts: { operations: 0 } });
    const added = await add(set.id, [
      { type: 'trade_price.create', customerId: catalog.tradeCustomer, productId: catalog.tee, sku: catalog.skus.teeRedM, price: 9.5 },
      { type: 'trade_price.create', customerId: catalog.tradeCustomer, productId: catalog.tee, sku: catalog.skus.teeRedM, price: 8, minQuantity: 10 },
      { type: 'trade_price.delete', id: dropped!.id },
    ]);
    expect(added).toMatchObject({ state: 'draft', revision: 2, counts: { operations: 3 } });
    // Nothing is live yet.
    expect((await pricesOf(catalog.tradeCustomer)).map((price) => price.id)).toEqual([kept!.id, dropped!.id]);

    const preview = await call('GET', `/v1/change-sets/${set.id}/preview?count=100`);
    expect(preview.status, preview.text).toBe(200);
    const body = preview.body as ChangeSetPreview;
    expect(body.counts).toMatchObject({ created: 2, deleted: 1, updated: 0 });
    expect(body.problems).toEqual([]);
    expect(body.pricesComplete).toBe(true);
    const priceRows = body.rows.filter((row) => row.kind === 'price').map(({ sku, minQuantity, before, after }) => ({ sku, minQuantity, before, after }));
    expect(priceRows).toEqual(
      [
        { sku: catalog.skus.mug, minQuantity: 1, before: 3, after: 4.2 },
        { sku: catalog.skus.teeRedM, minQuantity: 1, before: 9.75, after: 9.5 },
        { sku: catalog.skus.teeRedM, minQuantity: 10, before: 9.75, after: 8 },
      ].sort((a, b) => (a.sku < b.sku ? -1 : a.sku > b.sku ? 1 : a.minQuantity - b.minQuantity)),
    );
    // The preview changed nothing.
    expect((await pricesOf(catalog.tradeCustomer)).map((price) => price.id)).toEqual([kept!.id, dropped!.id]);

    const csv = await suite.server.request('GET', `/v1/change-sets/${set.id}/preview?format=csv`, { token: suite.tenant.token });
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(csv.text.split('\n')[0]).toBe('kind,resource,id,customer_id,price_list_id,sku,min_quantity,price,before,after');
    expect(csv.text.split('\n').filter((line) => line.startsWith('price,'))).toHaveLength(3);

    const applied = await call('POST', `/v1/change-sets/${set.id}/apply`, {});
    expect(applied.status, applied.text).toBe(200);
    expect(applied.body).toMatchObject({ state: 'applied', counts: { operations: 3, created: 2, deleted: 1, updated: 0 } });
    expect((await effective(catalog.tradeCustomer, catalog.skus.teeRedM, 12)).price).toBe(8);
    expect((await effective(catalog.tradeCustomer, catalog.skus.mug)).price).toBe(4.2);

    // Every record's history entry names the set; so do the set's own steps.
    const history = (await call('GET', `/v1/price-history?customerId=${catalog.tradeCustomer}&count=10`)).body as Array<{
      resource: string;
      change: string;
      source: string;
      sourceId: number | null;
    }>;
    expect(history.slice(0, 3).every((entry) => entry.source === 'changeset' && entry.sourceId === set.id)).toBe(true);
    const steps = (await call('GET', '/v1/price-history?resource=change_set&count=100')).body as Array<{ resourceId: number; after: { state: string } }>;
    expect(steps.filter((entry) => entry.resourceId === set.id).map((entry) => entry.after.state)).toEqual(['applied', 'draft', 'draft']);

    const events = (await call('GET', '/v1/events?count=100&after=0')).body as Array<{ topic: string; subjectId: number; data: { counts?: unknown } }>;
    expect(events.find((event) => event.topic === 'change_set.applied' && event.subjectId === set.id)?.data.counts).toEqual({
      operations: 3,
      created: 2,
      deleted: 1,
      updated: 0,
    });

    const revert = await call('POST', `/v1/change-sets/${set.id}/revert`, {});
    expect(revert.status, revert.text).toBe(201);
    const inverse = revert.body as ChangeSet;
    expect(inverse).toMatchObject({ state: 'draft', revertOf: set.id, counts: { operations: 3 } });
    expect((await call('GET', `/v1/change-sets/${set.id}`)).body).toMatchObject({ state: 'applied', revertedBy: inverse.id });
    const again = await call('POST', `/v1/change-sets/${set.id}/revert`, {});
    expectError(again, 409, 17, /takes it back already/);

    expect((await call('POST', `/v1/change-sets/${inverse.id}/apply`, {})).status).toBe(200);
    expect((await call('GET', `/v1/change-sets/${set.id}`)).body).toMatchObject({ state: 'rolled_back' });
    // The book is as it was, the deleted record back with its own id.
    const after = await pricesOf(catalog.tradeCustomer);
    expect(after.map(({ id, sku, price, minQuantity }) => ({ id, sku, price, minQuantity }))).toEqual([
      { id: kept!.id, sku: kept!.sku, price: 9.75, minQuantity: 1 },
      { id: dropped!.id, sku: dropped!.sku, price: 3, minQuantity: 1 },
    ]);
    expect((await effective(catalog.tradeCustomer, catalog.skus.teeRedM, 12)).price).toBe(9.75);
    const reverted = events.length;
    const later = (await call('GET', `/v1/events?count=100&after=0`)).body as Array<{ topic: string; subjectId: number }>;
    expect(later.length).toBeGreaterThan(reverted);
    expect(later.some((event) => event.topic === 'change_set.reverted' && event.subjectId === set.id)).toBe(true);
  });

  it('restores a deleted record with its own id, so the tie rule ranks it as before (newest id wins)', async () => {
    const { catalog } = suite;
    const [older, newer] = await createPrices([
      { customerId: catalog.otherTradeCustomer, productId: catalog.mug, sku: catalog.skus.mug, price: 2 },
      { customerId: catalog.otherTradeCustomer, productId: catalog.mug, sku: catalog.skus.mug, price: 2.5 },
    ]);
    expect(await effective(catalog.otherTradeCustomer, catalog.skus.mug)).toMatchObject({ price: 2.5, tradePriceId: newer!.id });
    const set = await newSet('Drop the old mug price');
    await add(set.id, [{ type: 'trade_price.delete', id: older!.id }]);
    expect((await call('POST', `/v1/change-sets/${set.id}/apply`, {})).status).toBe(200);
    const inverse = (await call('POST', `/v1/change-sets/${set.id}/revert`, {})).body as ChangeSet;
    const operations = (await call('GET', `/v1/change-sets/${inverse.id}/operations`)).body;
    expect(operations).toEqual([{ index: 0, operation: { type: 'trade_price.restore', id: older!.id } }]);
    expect((await call('POST', `/v1/change-sets/${inverse.id}/apply`, {})).status).toBe(200);
    // Back with a new, higher id it would win now; with its own it still loses to the newer record.
    expect(await effective(catalog.otherTradeCustomer, catalog.skus.mug)).toMatchObject({ price: 2.5, tradePriceId: newer!.id });
    expect((await call('GET', `${PRICES}/${older!.id}`)).body).toMatchObject({ id: older!.id, price: 2 });
    // Deleted again, and restored again: a record may go and come back more than once.
    expect((await call('DELETE', `${PRICES}/${older!.id}`)).status).toBe(204);
    const restoreAgain = await newSet('Bring it back');
    await add(restoreAgain.id, [{ type: 'trade_price.restore', id: older!.id }]);
    expect((await call('POST', `/v1/change-sets/${restoreAgain.id}/apply`, {})).status).toBe(200);
    expect((await call('GET', `${PRICES}/${older!.id}`)).status).toBe(200);
  });

  it('tries added operations after those the set holds, and reverts a record deleted, restored and deleted again by its net change', async () => {
    const { catalog } = suite;
    const [record] = await createPrices([{ customerId: catalog.otherTradeCustomer, productId: catalog.tee, sku: catalog.skus.tee, price: 5.5 }]);
    const set = await newSet('Twice');
    await add(set.id, [{ type: 'trade_price.delete', id: record!.id }]);
    // The set deletes it already: a second deletion is refused, a restore after it accepted.
    const again = await call('POST', `/v1/change-sets/${set.id}/operations`, [{ type: 'trade_price.delete', id: record!.id }]);
    expectError(again, 422, 10);
    expect((again.body as { errors: Array<{ index: number; field: string }> }).errors).toMatchObject([{ index: 0, field: 'id' }]);
    await add(set.id, [{ type: 'trade_price.restore', id: record!.id }]);
    await add(set.id, [{ type: 'trade_price.delete', id: record!.id }]);
    expect((await call('POST', `/v1/change-sets/${set.id}/apply`, {})).status).toBe(200);
    expect((await call('GET', `${PRICES}/${record!.id}`)).status).toBe(404);
    const inverse = (await call('POST', `/v1/change-sets/${set.id}/revert`, {})).body as ChangeSet;
    expect((await call('GET', `/v1/change-sets/${inverse.id}/operations`)).body).toEqual([
      { index: 0, operation: { type: 'trade_price.restore', id: record!.id } },
    ]);
    expect((await call('POST', `/v1/change-sets/${inverse.id}/apply`, {})).status).toBe(200);
    expect((await call('GET', `${PRICES}/${record!.id}`)).body).toMatchObject({ id: record!.id, price: 5.5 });
  });

  it('refuses bad operations item by item, as a bulk create does, and stores none of them', async () => {
    const { catalog, foreign } = suite;
    const set = await newSet('Bad items');
    const refused = await call('POST', `/v1/change-sets/${set.id}/operations`, [
      { type: 'trade_price.create', customerId: catalog.tradeCustomer, productId: catalog.tee, sku: catalog.skus.tee, price: 5 },
      { type: 'trade_price.teleport', id: 1 },
      { type: 'trade_price.create', customerId: catalog.tradeCustomer, productId: catalog.tee, sku: catalog.skus.tee, price: -1 },
      { type: 'trade_price.create', customerId: foreign.tradeCustomer, productId: catalog.tee, sku: catalog.skus.tee, price: 5 },
      { type: 'trade_price.delete', id: 999_999_999 },
      { type: 'customer.set_price_lists', customerId: catalog.tradeCustomer, priceListIds: [999_999] },
      'not an object',
    ]);
    expectError(refused, 422, 10);
    const problems = (refused.body as { errors: Array<{ index: number; field: string | null }> }).errors;
    expect([...new Set(problems.map((problem) => problem.index))]).toEqual([1, 2, 3, 4, 5, 6]);
    expect(problems.find((problem) => problem.index === 1)?.field).toBe('type');
    expect(problems.find((problem) => problem.index === 2)?.field).toBe('price');
    expect(problems.find((problem) => problem.index === 3)?.field).toBe('customerId');
    expect((await call('GET', `/v1/change-sets/${set.id}`)).body).toMatchObject({ revision: 1, counts: { operations: 0 } });
    expect(await call('GET', `/v1/change-sets/${set.id}/operations`)).toMatchObject({ status: 200, body: [] });
    // Another store's set is not found; the body must be an array of 1–1000.
    expect((await call('GET', `/v1/change-sets/${set.id}`, undefined, suite.other.token)).status).toBe(404);
    expectError(await call('POST', `/v1/change-sets/${set.id}/operations`, []), 422, 10);
    expect((await call('POST', `/v1/change-sets/${set.id}/apply`, {})).status).toBe(409);
  });

  it('fails the whole set when the live book has moved on, changes nothing and reports each conflict', async () => {
    const { catalog } = suite;
    const [gone] = await createPrices([{ customerId: catalog.tradeCustomer, productId: catalog.tee, sku: catalog.skus.tee, price: 7 }]);
    const set = await newSet('Stale');
    await add(set.id, [
      { type: 'trade_price.create', customerId: catalog.tradeCustomer, productId: catalog.tee, sku: catalog.skus.tee, price: 6 },
      { type: 'trade_price.delete', id: gone!.id },
    ]);
    expect((await call('DELETE', `${PRICES}/${gone!.id}`)).status).toBe(204);
    const before = await pricesOf(catalog.tradeCustomer);
    const applied = await call('POST', `/v1/change-sets/${set.id}/apply`, {});
    expectError(applied, 422, 10, /nothing changed/);
    expect((applied.body as { errors: Array<{ index: number }> }).errors.map((problem) => problem.index)).toEqual([1]);
    expect(await pricesOf(catalog.tradeCustomer)).toEqual(before);
    expect((await call('GET', `/v1/change-sets/${set.id}`)).body).toMatchObject({ state: 'failed', problems: [{ index: 1, field: 'id' }] });
    const events = (await call('GET', '/v1/events?count=100&after=0')).body as Array<{ topic: string; subjectId: number }>;
    expect(events.some((event) => event.topic === 'change_set.failed' && event.subjectId === set.id)).toBe(true);
  });

  it('schedules a set and applies it exactly once when its moment comes, however many loops try', async () => {
    const { catalog } = suite;
    const set = await newSet('From 1 January');
    await add(set.id, [{ type: 'trade_price.create', customerId: catalog.otherTradeCustomer, productId: catalog.tee, sku: catalog.skus.teeRedL, price: 11 }]);
    const at = new Date(Date.now() + 3_600_000).toISOString();
    const scheduled = await call('POST', `/v1/change-sets/${set.id}/apply`, { at });
    expect(scheduled.status, scheduled.text).toBe(200);
    expect(scheduled.body).toMatchObject({ state: 'scheduled', applyAt: at });
    expect(await suite.server.services.changeSets.applyDue(Date.now(), 50)).toBe(0);
    const later = Date.parse(at) + 1000;
    const services = suite.server.services.changeSets;
    await Promise.all([services.applyDue(later, 50), services.applyDue(later, 50), services.applyDue(later, 50)]);
    expect((await call('GET', `/v1/change-sets/${set.id}`)).body).toMatchObject({ state: 'applied' });
    expect((await pricesOf(catalog.otherTradeCustomer)).filter((price) => price.sku === catalog.skus.teeRedL)).toHaveLength(1);
  });

  it('takes a CSV import into a set as operations, and leaves the book alone until the set is applied', async () => {
    const { catalog } = suite;
    const set = await newSet('From the supplier’s sheet');
    const upload = (query: string, csv: string, token = suite.tenant.token) =>
      suite.server.request('POST', `/v1/imports?${query}`, { token, rawBody: csv, headers: { 'content-type': 'text/csv' } });
    const ended = async (id: number) => {
      const deadline = Date.now() + 20_000;
      for (;;) {
        const current = (await call('GET', `/v1/imports/${id}`)).body as { status: string; result: unknown; errors: unknown[]; changeSetId: number | null };
        if (current.status === 'succeeded' || current.status === 'failed' || Date.now() > deadline) return current;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };
    const before = await pricesOf(catalog.otherTradeCustomer);
    const csv = `customer_id,sku,price,min_quantity\n${catalog.otherTradeCustomer},${catalog.skus.teeRedM},7.5,1\n${catalog.otherTradeCustomer},${catalog.skus.teeRedM},7,20\n`;
    const queued = await upload(`mode=add&changeSet=${set.id}`, csv);
    expect(queued.status, queued.text).toBe(202);
    expect(queued.body).toMatchObject({ changeSetId: set.id });
    expect(await ended((queued.body as { id: number }).id)).toMatchObject({ status: 'succeeded', result: { created: 2 }, changeSetId: set.id });
    expect(await pricesOf(catalog.otherTradeCustomer)).toEqual(before);
    const operations = (await call('GET', `/v1/change-sets/${set.id}/operations`)).body as Array<{ operation: { type: string; price: number } }>;
    expect(operations.map(({ operation }) => [operation.type, operation.price])).toEqual([
      ['trade_price.create', 7.5],
      ['trade_price.create', 7],
    ]);
    // A replace makes one operation a customer.
    const replaced = await upload(`mode=replace&changeSet=${set.id}`, `customer_id,sku,price\n${catalog.otherTradeCustomer},${catalog.skus.mug},2.5\n`);
    expect(replaced.status, replaced.text).toBe(202);
    expect(await ended((replaced.body as { id: number }).id)).toMatchObject({ status: 'succeeded' });
    expect((await call('GET', `/v1/change-sets/${set.id}`)).body).toMatchObject({ counts: { operations: 3 }, revision: 3 });
    const third = ((await call('GET', `/v1/change-sets/${set.id}/operations?offset=2`)).body as Array<{ operation: object }>)[0]!.operation;
    expect(third).toMatchObject({
      type: 'trade_prices.replace',
      customerId: catalog.otherTradeCustomer,
      scope: 'customer',
      prices: [{ sku: catalog.skus.mug, price: 2.5 }],
    });
    expect(await pricesOf(catalog.otherTradeCustomer)).toEqual(before);

    // Another store's set is not found, a closed one refused, both before the file is read; a dry run adds nothing.
    expectError(await upload(`changeSet=${set.id}`, csv, suite.other.token), 404, 5);
    const dry = await upload(`dryRun=true&changeSet=${set.id}`, csv);
    expect(await ended((dry.body as { id: number }).id)).toMatchObject({ status: 'succeeded' });
    expect((await call('GET', `/v1/change-sets/${set.id}`)).body).toMatchObject({ counts: { operations: 3 } });
    // More prices than a set holds operations: refused before its rows become operations, nothing added.
    const rows = Array.from({ length: 10_001 }, (_, i) => `${catalog.otherTradeCustomer},${catalog.skus.teeRedM},${(i + 1) / 100},1`);
    const big = await upload(`mode=add&changeSet=${set.id}`, `customer_id,sku,price,min_quantity\n${rows.join('\n')}\n`);
    expect(big.status, big.text).toBe(202);
    const refused = await ended((big.body as { id: number }).id);
    expect(refused).toMatchObject({ status: 'failed', errors: [{ row: 1, message: expect.stringMatching(/at most 10000/) }] });
    expect((await call('GET', `/v1/change-sets/${set.id}`)).body).toMatchObject({ counts: { operations: 3 } });
    expect((await call('POST', `/v1/change-sets/${set.id}/discard`, {})).status).toBe(200);
    expectError(await upload(`changeSet=${set.id}`, csv), 409, 17);
  });

  let made = 0;
  async function newCustomer(body: Record<string, unknown> = {}): Promise<number> {
    const created = await call('POST', '/v1/customers', { email: `cs-made-${++made}@example.com`, trade: true, ...body });
    expect(created.status, created.text).toBe(201);
    return (created.body as { id: number }).id;
  }
  async function newList(body: Record<string, unknown>): Promise<number> {
    const created = await call('POST', '/v1/price-lists', { name: `List ${++made}`, ...body });
    expect(created.status, created.text).toBe(201);
    return (created.body as { id: number }).id;
  }
  async function preview(id: number, query = ''): Promise<ChangeSetPreview> {
    const answer = await call('GET', `/v1/change-sets/${id}/preview?count=100${query}`);
    expect(answer.status, answer.text).toBe(200);
    return answer.body as ChangeSetPreview;
  }
  /** Every row of the set's preview, a page after another. */
  async function allRows(id: number, query = ''): Promise<PreviewRow[]> {
    const rows: PreviewRow[] = [];
    for (let total = 1; rows.length < total;) {
      const page = await preview(id, `${query}&offset=${rows.length}`);
      rows.push(...page.rows);
      total = page.total;
    }
    return rows;
  }
  const priceRows = (rows: PreviewRow[]) =>
    rows.filter((row) => row.kind === 'price').map(({ customerId, sku, minQuantity, before, after }) => ({ customerId, sku, minQuantity, before, after }));

  it('checks added operations without carrying out those the set holds again, after only the held ones that decide them', async () => {
    const { catalog } = suite;
    const customerId = await newCustomer();
    // A set holding 150 operations of its own (each a customer's lists set: a few statements).
    const busy = await newSet('Many held');
    await add(
      busy.id,
      Array.from({ length: 150 }, () => ({ type: 'customer.set_price_lists', customerId, priceListIds: [] })),
    );
    suite.server.statements.length = 0;
    await add(busy.id, [{ type: 'trade_price.create', customerId, productId: catalog.mug, sku: catalog.skus.mug, price: 3 }]);
    // The add's own work (its create tried and undone, the set's row, its history step), not 150 held operations again.
    expect(requestStatements(suite.server.statements).length).toBeLessThan(60);

    // Two records equal in every field: a replace keeping one such price keeps the oldest, unless the set deleted it first.
    const [older, newer] = await createPrices([
      { customerId, productId: catalog.tee, sku: catalog.skus.teeRedL, price: 8 },
      { customerId, productId: catalog.tee, sku: catalog.skus.teeRedL, price: 8 },
    ]);
    const replace = { type: 'trade_prices.replace', customerId, scope: 'skus', prices: [{ productId: catalog.tee, sku: catalog.skus.teeRedL, price: 8 }] };
    const keepsOlder = await newSet('Keeps the older');
    await add(keepsOlder.id, [{ type: 'trade_price.create', customerId, productId: catalog.tee, sku: catalog.skus.teeRedL, price: 8 }, replace]);
    expectError(await call('POST', `/v1/change-sets/${keepsOlder.id}/operations`, [{ type: 'trade_price.delete', id: newer!.id }]), 422, 10);
    await add(keepsOlder.id, [{ type: 'trade_price.delete', id: older!.id }]);
    await add(keepsOlder.id, [{ type: 'trade_price.restore', id: newer!.id }]);
    const keepsNewer = await newSet('Keeps the newer');
    await add(keepsNewer.id, [{ type: 'trade_price.delete', id: older!.id }, replace]);
    await add(keepsNewer.id, [{ type: 'trade_price.delete', id: newer!.id }]);
    const again = await call('POST', `/v1/change-sets/${keepsNewer.id}/operations`, [{ type: 'trade_price.delete', id: older!.id }]);
    expectError(again, 422, 10);
    expect((again.body as { errors: Array<{ index: number; field: string }> }).errors).toMatchObject([{ index: 0, field: 'id' }]);
    // What the add accepted is what the apply does.
    expect((await call('POST', `/v1/change-sets/${keepsOlder.id}/apply`, {})).status).toBe(200);
    expect((await pricesOf(customerId)).filter((price) => price.sku === catalog.skus.teeRedL).map((price) => price.id)).toEqual([newer!.id]);

    // A value an operation expects is what the set's own operations leave it, and an entry the set deletes is gone.
    const listId = await newList({ kind: 'fixed' });
    const entry = await call('POST', `/v1/price-lists/${listId}/prices/bulk`, [{ productId: catalog.mug, sku: catalog.skus.mug, price: 3.1 }]);
    const entryId = (entry.body as Array<{ id: number }>)[0]!.id;
    const expects = await newSet('Expects');
    await add(expects.id, [
      { type: 'customer.set_price_lists', customerId, priceListIds: [listId] },
      { type: 'price_list_entry.delete', priceListId: listId, id: entryId },
    ]);
    await add(expects.id, [{ type: 'customer.set_price_lists', customerId, priceListIds: [], expectedPriceListIds: [listId] }]);
    const stale = await call('POST', `/v1/change-sets/${expects.id}/operations`, [
      { type: 'customer.set_price_lists', customerId, priceListIds: [listId], expectedPriceListIds: [listId] },
      { type: 'price_list_entry.delete', priceListId: listId, id: entryId },
    ]);
    expectError(stale, 422, 10);
    expect((stale.body as { errors: Array<{ index: number; field: string }> }).errors.map(({ index, field }) => [index, field])).toEqual([
      [0, 'expectedPriceListIds'],
      [1, 'id'],
    ]);
    await add(expects.id, [{ type: 'price_list_entry.restore', priceListId: listId, id: entryId }]);
  });

  it('refuses an add or an import that would take a set past its prices, and tries nothing', async () => {
    const { catalog } = suite;
    const customerId = await newCustomer();
    const set = await newSet('Nearly full');
    // A replace of all but one of the prices a set holds, written as the set's own (an add would try it first).
    const held = {
      type: 'trade_prices.replace' as const,
      customerId,
      scope: 'customer' as const,
      prices: Array.from({ length: MAX_PRICES_PER_SET - 1 }, (_, index) => ({
        productId: catalog.mug,
        sku: catalog.skus.mug,
        price: 1,
        minQuantity: index + 1,
      })),
    };
    await suite.server.services.uow.transaction(async (repos) => {
      await repos.changeSets.appendOperations(set.id, 0, [held]);
      expect(await repos.changeSets.move(suite.tenant.storeId, set.id, 'draft', { operationCount: 1, priceCount: MAX_PRICES_PER_SET - 1 })).toBe(true);
    });
    const create = { type: 'trade_price.create', customerId, productId: catalog.mug, sku: catalog.skus.mug, price: 2 };
    await add(set.id, [create]);
    const refused = await call('POST', `/v1/change-sets/${set.id}/operations`, [create]);
    expectError(refused, 422, 10);
    expect((refused.body as { errors: unknown[] }).errors).toEqual([
      {
        field: null,
        message: `would make ${MAX_PRICES_PER_SET + 1} prices (${MAX_PRICES_PER_SET} held, 1 added); a change set holds at most ${MAX_PRICES_PER_SET}: make it two sets`,
      },
    ]);
    const upload = await suite.server.request('POST', `/v1/imports?mode=add&changeSet=${set.id}`, {
      token: suite.tenant.token,
      rawBody: `customer_id,sku,price\n${customerId},${catalog.skus.mug},2.5\n`,
      headers: { 'content-type': 'text/csv' },
    });
    expect(upload.status, upload.text).toBe(202);
    let ended: { status: string; errors: Array<{ message: string }> } | undefined;
    for (const deadline = Date.now() + 20_000; Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 50))) {
      ended = (await call('GET', `/v1/imports/${(upload.body as { id: number }).id}`)).body as typeof ended;
      if (ended?.status === 'failed' || ended?.status === 'succeeded') break;
    }
    expect(ended?.status).toBe('failed');
    expect(ended?.errors.map((error) => error.message).join(' ')).toContain(`would make ${MAX_PRICES_PER_SET + 1} prices`);
    expect((await call('GET', `/v1/change-sets/${set.id}`)).body).toMatchObject({ counts: { operations: 2 } });
  });

  it('lists the price that a customer’s lists and an entry of them change together, in either order', async () => {
    const { catalog } = suite;
    const listId = await newList({ kind: 'fixed' });
    const entry = await call('POST', `/v1/price-lists/${listId}/prices/bulk`, [{ productId: catalog.mug, sku: catalog.skus.mug, price: 3.5 }]);
    expect(entry.status, entry.text).toBe(201);
    const entryId = (entry.body as Array<{ id: number }>)[0]!.id;
    const customerId = await newCustomer({ priceListIds: [listId] });
    expect((await effective(customerId, catalog.skus.mug)).price).toBe(3.5);
    const lists = { type: 'customer.set_price_lists', customerId, priceListIds: [] };
    const deletion = { type: 'price_list_entry.delete', priceListId: listId, id: entryId };
    for (const operations of [[lists, deletion], [deletion, lists], [lists]]) {
      const set = await newSet('Lists and an entry');
      await add(set.id, operations);
      expect(priceRows((await preview(set.id)).rows), JSON.stringify(operations)).toEqual([
        { customerId, sku: catalog.skus.mug, minQuantity: 1, before: 3.5, after: 4.2 },
      ]);
      expect((await call('POST', `/v1/change-sets/${set.id}/discard`, {})).status).toBe(200);
    }
  });

  it('keeps an unchanged set’s preview: its pages and its CSV are worked out once, and anew when the book, a price’s window or the set changes', async () => {
    const { catalog } = suite;
    const customerId = await newCustomer();
    // A price that starts applying in 10 minutes: the preview for now holds until then.
    const startsAt = new Date(clock.now() + 600_000).toISOString();
    await createPrices([{ customerId, productId: catalog.mug, sku: catalog.skus.mug, price: 6, validFrom: startsAt }]);
    const set = await newSet('Kept');
    await add(set.id, [
      { type: 'trade_price.create', customerId, productId: catalog.mug, sku: catalog.skus.mug, price: 5 },
      ...Array.from({ length: 150 }, (_, index) => ({
        type: 'trade_price.create',
        customerId,
        productId: catalog.tee,
        sku: catalog.skus.tee,
        price: 9,
        minQuantity: index + 2,
      })),
    ]);
    const rehearsals = vi.spyOn(suite.server.services.uow, 'rehearse');
    try {
      const first = await preview(set.id);
      const second = await preview(set.id, '&offset=100');
      const csv = await suite.server.request('GET', `/v1/change-sets/${set.id}/preview?format=csv`, { token: suite.tenant.token });
      expect(rehearsals).toHaveBeenCalledTimes(1);
      expect(first.total).toBe(second.total);
      expect(csv.text.trimEnd().split('\n')).toHaveLength(first.total + 1);
      expect(new Date(second.at).getTime()).toBeGreaterThanOrEqual(new Date(first.at).getTime());
      expect(priceRows(await allRows(set.id)).find((row) => row.sku === catalog.skus.mug)).toEqual({
        customerId,
        sku: catalog.skus.mug,
        minQuantity: 1,
        before: 4.2,
        after: 5,
      });
      expect(rehearsals).toHaveBeenCalledTimes(1);

      // The book changes (another of the customer's prices): worked out again, with it.
      await createPrices([{ customerId, productId: catalog.mug, sku: catalog.skus.mug, price: 4, minQuantity: 20 }]);
      const changed = await allRows(set.id);
      expect(rehearsals).toHaveBeenCalledTimes(2);
      expect(
        priceRows(changed)
          .filter((row) => row.sku === catalog.skus.mug)
          .map((row) => [row.minQuantity, row.before, row.after]),
      ).toEqual([
        [1, 4.2, 5],
        [20, 4, 4],
      ]);
      // Another moment is another preview; the same one again is kept.
      await preview(set.id, '&at=2031-01-01T00:00:00Z');
      await preview(set.id, '&at=2031-01-01T00:00:00Z');
      expect(rehearsals).toHaveBeenCalledTimes(3);
      await preview(set.id);
      expect(rehearsals).toHaveBeenCalledTimes(3);
      // Once the window's bound has passed, now is priced anew: the dated price is the customer's then.
      clock.advance(Date.parse(startsAt) - clock.now() + 1000);
      const later = await allRows(set.id);
      expect(rehearsals).toHaveBeenCalledTimes(4);
      expect(priceRows(later).find((row) => row.sku === catalog.skus.mug && row.minQuantity === 1)).toEqual({
        customerId,
        sku: catalog.skus.mug,
        minQuantity: 1,
        before: 6,
        after: 5,
      });
      // A change of the set is another revision (the add tries its operation in a rehearsal of its own).
      await add(set.id, [{ type: 'trade_price.create', customerId, productId: catalog.mug, sku: catalog.skus.mug, price: 4.5, minQuantity: 3 }]);
      rehearsals.mockClear();
      const added = await preview(set.id);
      expect(rehearsals).toHaveBeenCalledTimes(1);
      expect(added.total).toBe(later.length + 2);
    } finally {
      rehearsals.mockRestore();
    }
  });

  it('refuses a revert that would overwrite a customer’s lists or a list’s percentage changed since its set', async () => {
    const [first, second] = [await newList({ kind: 'fixed' }), await newList({ kind: 'fixed' })];
    const percentage = await newList({ kind: 'percentage', percentage: 10 });
    const customerId = await newCustomer();
    const set = await newSet('Lists');
    await add(set.id, [
      { type: 'customer.set_price_lists', customerId, priceListIds: [first] },
      { type: 'price_list.set_percentage', priceListId: percentage, percentage: 20 },
    ]);
    expect((await call('POST', `/v1/change-sets/${set.id}/apply`, {})).status).toBe(200);
    // Later changes, made directly.
    expect((await call('PUT', `/v1/customers/${customerId}`, { priceListIds: [first, second] })).status).toBe(200);
    expect((await call('PUT', `/v1/price-lists/${percentage}`, { percentage: 30 })).status).toBe(200);
    const revert = (await call('POST', `/v1/change-sets/${set.id}/revert`, {})).body as ChangeSet;
    expect((await call('GET', `/v1/change-sets/${revert.id}/operations`)).body).toEqual([
      { index: 0, operation: { type: 'customer.set_price_lists', customerId, priceListIds: [], expectedPriceListIds: [first] } },
      { index: 1, operation: { type: 'price_list.set_percentage', priceListId: percentage, percentage: 10, expectedPercentage: 20 } },
    ]);
    const refused = await call('POST', `/v1/change-sets/${revert.id}/apply`, {});
    expectError(refused, 422, 10, /nothing changed/);
    expect((refused.body as { errors: unknown[] }).errors).toEqual([
      {
        index: 0,
        field: 'expectedPriceListIds',
        message: expect.stringContaining(`Customer ${customerId} has the price lists [${first}, ${second}], not [${first}]`),
      },
      { index: 1, field: 'expectedPercentage', message: expect.stringContaining(`Price list ${percentage} takes 30 % off, not 20 %`) },
    ]);
    expect((await call('GET', `/v1/customers/${customerId}`)).body).toMatchObject({ priceListIds: [first, second] });
    expect((await call('GET', `/v1/price-lists/${percentage}`)).body).toMatchObject({ percentage: 30 });
    // Back to what the set left, the revert applies, and the book is as before the set.
    expect((await call('PUT', `/v1/customers/${customerId}`, { priceListIds: [first] })).status).toBe(200);
    expect((await call('PUT', `/v1/price-lists/${percentage}`, { percentage: 20 })).status).toBe(200);
    expect((await call('POST', `/v1/change-sets/${revert.id}/apply`, {})).status).toBe(200);
    expect((await call('GET', `/v1/customers/${customerId}`)).body).toMatchObject({ priceListIds: [] });
    expect((await call('GET', `/v1/price-lists/${percentage}`)).body).toMatchObject({ percentage: 10 });
  });

  it('restores what its set deleted though the customer is no longer a trade customer; a record whose product is gone cannot come back', async () => {
    const { catalog } = suite;
    const customerId = await newCustomer();
    const product = await call('POST', '/v1/products', { title: 'Soon gone', sku: `GONE-${++made}`, price: 2 });
    expect(product.status, product.text).toBe(201);
    const gone = product.body as { id: number; sku: string };
    const [kept, lost] = await createPrices([
      { customerId, productId: catalog.mug, sku: catalog.skus.mug, price: 3.3 },
      { customerId, productId: gone.id, sku: gone.sku, price: 1.5 },
    ]);
    const set = await newSet('Drops them');
    await add(set.id, [{ type: 'trade_price.delete', id: kept!.id }]);
    expect((await call('POST', `/v1/change-sets/${set.id}/apply`, {})).status).toBe(200);
    // The customer stops being a trade customer and keeps its records; the one the set deleted comes back too.
    expect((await call('PUT', `/v1/customers/${customerId}`, { trade: false })).status).toBe(200);
    const revert = (await call('POST', `/v1/change-sets/${set.id}/revert`, {})).body as ChangeSet;
    const applied = await call('POST', `/v1/change-sets/${revert.id}/apply`, {});
    expect(applied.status, applied.text).toBe(200);
    expect((await call('GET', `${PRICES}/${kept!.id}`)).body).toMatchObject({ id: kept!.id, customerId, price: 3.3 });
    // A record of a product deleted since cannot be as it was: refused, clearly, and it stays gone.
    const other = await newSet('Drops the other');
    await add(other.id, [{ type: 'trade_price.delete', id: lost!.id }]);
    expect((await call('POST', `/v1/change-sets/${other.id}/apply`, {})).status).toBe(200);
    expect((await call('DELETE', `/v1/products/${gone.id}`)).status).toBe(204);
    const back = (await call('POST', `/v1/change-sets/${other.id}/revert`, {})).body as ChangeSet;
    const refused = await call('POST', `/v1/change-sets/${back.id}/apply`, {});
    expectError(refused, 422, 10);
    expect((refused.body as { errors: unknown[] }).errors).toEqual([
      { index: 0, field: 'productId', message: `Product ${gone.id} does not exist in this store` },
    ]);
    expect((await call('GET', `${PRICES}/${lost!.id}`)).status).toBe(404);
  });

  describe('where the store requires approval', () => {
    let approvingKey: Tenant;

    it('needs an approval by someone who did not write the set, for the revision it has', async () => {
      const { server, tenant, catalog } = suite;
      await server.services.credentials.setRequireApproval(tenant.storeId, true);
      try {
        const issued = await server.services.credentials.issueKey(tenant.storeId, ['trade_prices:read', 'trade_prices:write', 'trade_prices:approve']);
        approvingKey = { ...tenant, keyId: issued.id, token: issued.token, key: issued.key, secret: issued.secret };
        const set = await newSet('Needs a second pair of eyes', approvingKey.token);
        await add(
          set.id,
          [{ type: 'trade_price.create', customerId: catalog.tradeCustomer, productId: catalog.mug, sku: catalog.skus.mug, price: 3.9 }],
          approvingKey.token,
        );
        // Not approved: neither applied nor scheduled.
        expectError(await call('POST', `/v1/change-sets/${set.id}/apply`, {}), 409, 17, /requires an approval/);
        expectError(await call('POST', `/v1/change-sets/${set.id}/apply`, { at: new Date(Date.now() + 60_000).toISOString() }), 409, 17);
        expectError(await call('POST', `/v1/change-sets/${set.id}/approve`, {}, approvingKey.token), 409, 17, /submit it first/);
        expect((await call('POST', `/v1/change-sets/${set.id}/submit`, {})).status).toBe(200);
        // The default key lacks the scope; the author has it but wrote the set.
        expectError(await call('POST', `/v1/change-sets/${set.id}/approve`, {}), 403, 4, /trade_prices:approve/);
        expectError(await call('POST', `/v1/change-sets/${set.id}/approve`, {}, approvingKey.token), 403, 4, /did not write or submit/);
        // An editor has no approval; an approver who did not write it approves.
        const editor = await createSignedInStaff(server, tenant.storeId, 'editor');
        expect((await server.request('POST', `/v1/change-sets/${set.id}/approve`, asStaff(server, editor.token, { body: {} }))).status).toBe(403);
        const approver = await createSignedInStaff(server, tenant.storeId, 'approver');
        const approved = await server.request('POST', `/v1/change-sets/${set.id}/approve`, asStaff(server, approver.token, { body: {} }));
        expect(approved.status, approved.text).toBe(200);
        expect(approved.body).toMatchObject({ state: 'approved', approvedBy: { type: 'staff', id: approver.id } });

        // A change after the approval: the approval no longer holds.
        await add(set.id, [
          { type: 'trade_price.create', customerId: catalog.tradeCustomer, productId: catalog.mug, sku: catalog.skus.mug, price: 3.8, minQuantity: 6 },
        ]);
        expectError(await call('POST', `/v1/change-sets/${set.id}/apply`, {}), 409, 17, /changed after the approval/);
        expect((await call('POST', `/v1/change-sets/${set.id}/submit`, {})).status).toBe(200);
        // The default key added operations: it may not approve now either, the approver may.
        expect((await server.request('POST', `/v1/change-sets/${set.id}/approve`, asStaff(server, approver.token, { body: {} }))).status).toBe(200);
        const applied = await call('POST', `/v1/change-sets/${set.id}/apply`, {});
        expect(applied.status, applied.text).toBe(200);
        const steps = (await call('GET', '/v1/price-history?resource=change_set&count=100&offset=0')).body as Array<{
          resourceId: number;
          actor: { type: string; id: number };
          after: { state: string };
        }>;
        const ofSet = steps.filter((entry) => entry.resourceId === set.id).reverse();
        expect(ofSet.map((entry) => entry.after.state)).toEqual(['draft', 'draft', 'submitted', 'approved', 'draft', 'submitted', 'approved', 'applied']);
        expect(ofSet[3]!.actor).toMatchObject({ type: 'staff', id: approver.id });
      } finally {
        await server.services.credentials.setRequireApproval(tenant.storeId, false);
      }
    });

    it('does not count a writer’s approval given while approval was not required, and fails a scheduled set that lacks one by its moment', async () => {
      const { server, tenant, catalog } = suite;
      const ownApproval = await newSet('Approved by its writer', approvingKey.token);
      await add(
        ownApproval.id,
        [{ type: 'trade_price.create', customerId: catalog.tradeCustomer, productId: catalog.mug, sku: catalog.skus.mug, price: 3.7, minQuantity: 7 }],
        approvingKey.token,
      );
      const scheduledSet = await newSet('Scheduled before approval was required');
      await add(scheduledSet.id, [
        { type: 'trade_price.create', customerId: catalog.tradeCustomer, productId: catalog.mug, sku: catalog.skus.mug, price: 3.6, minQuantity: 8 },
      ]);
      // Approval not required yet: the writer approves its own set, and another set is scheduled unapproved.
      expect((await call('POST', `/v1/change-sets/${ownApproval.id}/submit`, {}, approvingKey.token)).status).toBe(200);
      expect((await call('POST', `/v1/change-sets/${ownApproval.id}/approve`, {}, approvingKey.token)).status).toBe(200);
      const at = new Date(Date.now() + 3_600_000).toISOString();
      expect((await call('POST', `/v1/change-sets/${scheduledSet.id}/apply`, { at })).body).toMatchObject({ state: 'scheduled' });
      await server.services.credentials.setRequireApproval(tenant.storeId, true);
      try {
        expectError(await call('POST', `/v1/change-sets/${ownApproval.id}/apply`, {}, approvingKey.token), 409, 17, /approved by one of its writers/);
        await server.services.changeSets.applyDue(Date.parse(at) + 1000, 50);
        const failed = (await call('GET', `/v1/change-sets/${scheduledSet.id}`)).body as ChangeSet;
        expect(failed).toMatchObject({ state: 'failed', problems: [{ field: null, message: expect.stringMatching(/requires an approval/) }] });
        // It is due no more: the next turn takes up nothing.
        expect(await server.services.changeSets.applyDue(Date.parse(at) + 2000, 50)).toBe(0);
        expect((await pricesOf(catalog.tradeCustomer)).filter((price) => price.minQuantity === 7 || price.minQuantity === 8)).toEqual([]);
      } finally {
        await server.services.credentials.setRequireApproval(tenant.storeId, false);
      }
    });
  });
});

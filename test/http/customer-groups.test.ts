import { describe, expect, it } from 'vitest';
import { MAX_CUSTOMER_GROUPS, type CustomerGroup } from '../../src/contract/customer-groups.js';
import type { Customer } from '../../src/contract/customers.js';
import type { Event } from '../../src/contract/events.js';
import type { EffectivePrice } from '../../src/contract/trade-prices.js';
import { CLI_ORIGIN } from '../../src/modules/history/change-records.js';
import type { Scope } from '../../src/modules/stores/scopes.js';
import { type ProblemBody, TIMESTAMP } from '../support/bodies.js';
import { expectError } from '../support/conventions.js';
import { enginesUnderTest } from '../support/engines.js';
import { StepClock } from '../support/history-record.js';
import { snapshotStore } from '../support/store-snapshot.js';
import { suiteServer } from '../support/suite-server.js';

/**
 * Customer groups (docs/pricing.md, "Customer groups"): a group's price lists apply to each of
 * its customers after the customer's own, through the effective price, quotes and orders alike.
 */
const GROUPS = '/v1/customer-groups';
const TRADE = '/v1/trade-customer-product-prices';
const HOUR = 3_600_000;

let sequence = 0;

describe.each(await enginesUnderTest())('customer groups on %s', (engine) => {
  const clock = new StepClock(Date.parse('2026-06-01T00:00:00.000Z'));
  const suite = suiteServer(engine, { catalogs: true, services: { clock } });

  const call = (method: string, path: string, body?: unknown, token = suite.tenant.token) => suite.api.request(method, path, { token, body });
  async function expectStatus<T>(method: string, path: string, body: unknown, status: number, token = suite.tenant.token): Promise<T> {
    const response = await call(method, path, body, token);
    expect(response.status, `${method} ${path}: ${response.text}`).toBe(status);
    return response.body as T;
  }
  const createGroup = (body: object, token = suite.tenant.token) => expectStatus<CustomerGroup>('POST', GROUPS, body, 201, token);
  const createList = async (body: object, token = suite.tenant.token) => (await expectStatus<{ id: number }>('POST', '/v1/price-lists', body, 201, token)).id;
  const createCustomer = (body: object, token = suite.tenant.token) =>
    expectStatus<Customer>('POST', '/v1/customers', { email: `group-${engine}-${++sequence}@example.com`, ...body }, 201, token);
  const keyWith = async (scopes: Scope[]) => (await suite.server.services.credentials.issueKey(suite.tenant.storeId, scopes)).token;
  const snapshot = () => snapshotStore(suite.server.services.database, suite.tenant.storeId);
  const fieldsOf = (body: unknown) => (body as ProblemBody).errors.map(({ index, field }) => (index === undefined ? field : [index, field]));
  const lastEventId = async () => {
    let after = 0;
    for (let page = 0; page < 1000; page++) {
      const events = await expectStatus<Event[]>('GET', `/v1/events?after=${after}&count=100`, undefined, 200);
      if (events.length === 0) return after;
      after = events.at(-1)!.id;
    }
    throw new Error('the feed did not end');
  };
  const eventsAfter = (after: number) => expectStatus<Event[]>('GET', `/v1/events?after=${after}&count=100`, undefined, 200);
  const effective = (customerId: number, sku: string, at?: string) =>
    expectStatus<EffectivePrice>(
      'GET',
      `${TRADE}/effective?customerId=${customerId}&sku=${encodeURIComponent(sku)}${at === undefined ? '' : `&at=${encodeURIComponent(at)}`}`,
      undefined,
      200,
    );
  /** A product of its own, so one test's entries never price another's. */
  const product = async (price: number) => {
    const sku = `GROUPED-${engine}-${++sequence}`;
    return { sku, id: (await expectStatus<{ id: number }>('POST', '/v1/products', { title: 'Grouped', sku, price }, 201)).id };
  };
  const fixedList = async (name: string, item: { id: number; sku: string }, price: number, policy: 'first' | 'lowest' = 'first') => {
    const id = await createList({ name, kind: 'fixed', policy });
    const [entry] = await expectStatus<Array<{ id: number }>>('POST', `/v1/price-lists/${id}/prices/bulk`, [{ productId: item.id, sku: item.sku, price }], 201);
    return { id, entryId: entry!.id };
  };

  it('creates, reads, lists, filters, counts, updates and deletes groups', async () => {
    const { token } = await suite.server.createTenant();
    const a = await createList({ name: 'A', kind: 'fixed' }, token);
    const b = await createList({ name: 'B', kind: 'percentage', percentage: 5 }, token);
    const created = await call('POST', GROUPS, { name: 'Wholesale', priceListIds: [b, a] }, token);
    expect(created.status, created.text).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(Number),
      name: 'Wholesale',
      priceListIds: [b, a],
      policy: 'first',
      createdAt: expect.stringMatching(TIMESTAMP),
    });
    const wholesale = created.body as CustomerGroup;
    const retail = await createGroup({ name: 'Retail' }, token);
    expect(retail.priceListIds).toEqual([]);

    expect(await expectStatus('GET', `${GROUPS}/${wholesale.id}`, undefined, 200, token)).toEqual(wholesale);
    expect(await expectStatus('GET', GROUPS, undefined, 200, token)).toEqual([wholesale, retail]);
    expect(await expectStatus('GET', `${GROUPS}?priceListId=${a}`, undefined, 200, token)).toEqual([wholesale]);
    expect(await expectStatus('GET', `${GROUPS}?count=1&offset=1`, undefined, 200, token)).toEqual([retail]);
    expect(await expectStatus('GET', `${GROUPS}?fields=id,name`, undefined, 200, token)).toEqual([wholesale, retail].map(({ id, name }) => ({ id, name })));
    expect(await expectStatus('GET', `${GROUPS}/count`, undefined, 200, token)).toEqual({ count: 2 });
    expect(await expectStatus('GET', `${GROUPS}/count?priceListId=${b}`, undefined, 200, token)).toEqual({ count: 1 });

    const put = (id: number, body: unknown) => call('PUT', `${GROUPS}/${id}`, body, token);
    expect((await put(wholesale.id, { name: 'Trade' })).body).toEqual({ ...wholesale, name: 'Trade' });
    expect((await put(wholesale.id, { priceListIds: [a] })).body).toEqual({ ...wholesale, name: 'Trade', priceListIds: [a] });
    expect((await put(retail.id, { priceListIds: [a, b], name: 'Retail' })).body).toEqual({ ...retail, priceListIds: [a, b] });

    expect((await call('DELETE', `${GROUPS}/${retail.id}`, undefined, token)).status).toBe(204);
    expectError(await call('GET', `${GROUPS}/${retail.id}`, undefined, token), 404, 5);
    expectError(await call('PUT', `${GROUPS}/${retail.id}`, { name: 'Back' }, token), 404, 5);
    expectError(await call('DELETE', `${GROUPS}/${retail.id}`, undefined, token), 404, 5);
    expectError(await call('GET', `${GROUPS}/not-an-id`, undefined, token), 404, 5);
    expect(await expectStatus('GET', `${GROUPS}/count`, undefined, 200, token)).toEqual({ count: 1 });
  });

  it.each([
    ['no name', { priceListIds: [] }, 'name'],
    ['an empty name', { name: '' }, 'name'],
    ['a list of another store', { name: 'X', priceListIds: ['foreign'] }, 'priceListIds[0]'],
    ['a list that does not exist', { name: 'X', priceListIds: [999_999_999] }, 'priceListIds[0]'],
    ['a list twice', { name: 'X', priceListIds: ['own', 'own'] }, 'priceListIds'],
    ['21 lists', { name: 'X', priceListIds: Array.from({ length: 21 }, (_, index) => index + 1) }, 'priceListIds'],
    ['an id that is not one', { name: 'X', priceListIds: [0] }, 'priceListIds[0]'],
    ['an unknown field', { name: 'X', colour: 'red' }, 'colour'],
    ['a name of 256 characters', { name: 'n'.repeat(256) }, 'name'],
    ['a null list id', { name: 'X', priceListIds: [null] }, 'priceListIds[0]'],
    ['a nested array', { name: 'X', priceListIds: [[1]] }, 'priceListIds[0]'],
    ['a list id as text', { name: 'X', priceListIds: ['1'] }, 'priceListIds[0]'],
    ['lists that are not an array', { name: 'X', priceListIds: { 0: 1 } }, 'priceListIds'],
  ])('refuses a group with %s (422 code 10 naming the field), storing nothing', async (_name, body, field) => {
    const own = await createList({ name: 'Own', kind: 'fixed' });
    const foreign = await createList({ name: 'Theirs', kind: 'fixed' }, suite.other.token);
    const named = (id: unknown) => (id === 'own' ? own : id === 'foreign' ? foreign : id);
    const sent = { ...body, ...('priceListIds' in body && Array.isArray(body.priceListIds) && { priceListIds: (body.priceListIds as unknown[]).map(named) }) };
    const before = await snapshot();
    const response = await call('POST', GROUPS, sent);
    expectError(response, 422, 10);
    expect(fieldsOf(response.body)).toContain(field);
    expect(await snapshot()).toEqual(before);
  });

  it('puts a customer in a group on create, bulk create and update, filters by it, and refuses a group the store lacks', async () => {
    const group = await createGroup({ name: 'Members' });
    const joined = await createCustomer({ customerGroupId: group.id });
    expect(joined.customerGroupId).toBe(group.id);
    const plain = await createCustomer({});
    expect(plain.customerGroupId).toBeNull();
    const bulk = await expectStatus<Customer[]>(
      'POST',
      '/v1/customers/bulk',
      [{ email: `bulk-${engine}-${++sequence}@example.com`, customerGroupId: group.id }],
      201,
    );
    expect(bulk[0]!.customerGroupId).toBe(group.id);
    expect((await expectStatus<Customer>('PUT', `/v1/customers/${plain.id}`, { customerGroupId: group.id }, 200)).customerGroupId).toBe(group.id);
    expect((await expectStatus<Customer>('GET', `/v1/customers/${plain.id}`, undefined, 200)).customerGroupId).toBe(group.id);
    const members = await expectStatus<Customer[]>('GET', `/v1/customers?customerGroupId=${group.id}`, undefined, 200);
    expect(members.map((customer) => customer.id)).toEqual([joined.id, plain.id, bulk[0]!.id].sort((x, y) => x - y));
    expect(await expectStatus('GET', `/v1/customers/count?customerGroupId=${group.id}`, undefined, 200)).toEqual({ count: 3 });
    expect((await expectStatus<Customer>('PUT', `/v1/customers/${plain.id}`, { customerGroupId: null }, 200)).customerGroupId).toBeNull();

    const theirs = await createGroup({ name: 'Theirs' }, suite.other.token);
    const before = await snapshot();
    for (const customerGroupId of [theirs.id, 999_999_999]) {
      const created = await call('POST', '/v1/customers', { email: `refused-${++sequence}@example.com`, customerGroupId });
      expectError(created, 422, 10);
      expect(fieldsOf(created.body)).toEqual(['customerGroupId']);
      expect(created.text).toContain(`Customer group ${customerGroupId} does not exist in this store`);
      expectError(await call('PUT', `/v1/customers/${joined.id}`, { customerGroupId }), 422, 10);
      const bulkRefused = await call('POST', '/v1/customers/bulk', [
        { email: `fine-${++sequence}@example.com` },
        { email: `refused-${++sequence}@example.com`, customerGroupId },
      ]);
      expectError(bulkRefused, 422, 10);
      expect(fieldsOf(bulkRefused.body)).toEqual([[1, 'customerGroupId']]);
    }
    expectError(await call('POST', '/v1/customers', { email: `zero-${++sequence}@example.com`, customerGroupId: 0 }), 422, 10);
    expect(await snapshot()).toEqual(before);
  });

  it("walks the customer's own lists first, then the group's, each list once; effective price, quote and order agree", async () => {
    const item = await product(20);
    const groupFixed = await fixedList('Group fixed', item, 15);
    const groupPercent = await createList({ name: 'Group 10 %', kind: 'percentage', percentage: 10 });
    const ownFixed = await fixedList('Own fixed', item, 17);
    const group = await createGroup({ name: 'Walk', priceListIds: [groupFixed.id, groupPercent] });

    // The group's first list prices the SKU when the customer has no list of its own.
    const member = await createCustomer({ customerGroupId: group.id });
    const fromGroup = await effective(member.id, item.sku);
    expect(fromGroup).toMatchObject({ price: 15, source: 'price_list', priceListId: groupFixed.id, priceListPriceId: groupFixed.entryId });
    expect(fromGroup.candidates.map(({ priceListId, customerGroupId, applies }) => ({ priceListId, customerGroupId, applies }))).toEqual([
      { priceListId: groupFixed.id, customerGroupId: group.id, applies: true },
      { priceListId: groupPercent, customerGroupId: group.id, applies: false },
    ]);

    // Its own list comes first; a candidate of its own list names no group.
    await expectStatus('PUT', `/v1/customers/${member.id}`, { priceListIds: [ownFixed.id] }, 200);
    const own = await effective(member.id, item.sku);
    expect(own).toMatchObject({ price: 17, priceListId: ownFixed.id });
    expect(own.candidates[0]).not.toHaveProperty('customerGroupId');
    expect(own.candidates.map(({ priceListId, reason }) => [priceListId, reason])).toEqual([
      [ownFixed.id, null],
      [groupFixed.id, 'earlier price list wins'],
      [groupPercent, 'earlier price list wins'],
    ]);

    // A list the customer has itself and through its group is walked once, in its own place.
    await expectStatus('PUT', `/v1/customers/${member.id}`, { priceListIds: [groupPercent] }, 200);
    const once = await effective(member.id, item.sku);
    expect(once).toMatchObject({ price: 18, priceListId: groupPercent, priceListPriceId: null });
    expect(once.candidates.map(({ priceListId, customerGroupId }) => [priceListId, customerGroupId ?? null])).toEqual([
      [groupPercent, null],
      [groupFixed.id, group.id],
    ]);

    // A lowest-price list of the group is weighed against the customer's own pick.
    const cheap = await fixedList('Group lowest', item, 16, 'lowest');
    await expectStatus('PUT', `${GROUPS}/${group.id}`, { priceListIds: [groupFixed.id, cheap.id] }, 200);
    const lowest = await effective(member.id, item.sku);
    expect(lowest).toMatchObject({ price: 16, priceListId: cheap.id, priceListPriceId: cheap.entryId });

    const quote = await expectStatus<{ lines: Array<{ unitPrice: number; priceListId: number | null; priceListPriceId: number | null }> }>(
      'POST',
      '/v1/quotes',
      { customerId: member.id, lines: [{ sku: item.sku, quantity: 3 }] },
      200,
    );
    expect(quote.lines[0]).toMatchObject({ unitPrice: 16, priceListId: cheap.id, priceListPriceId: cheap.entryId });
    const order = await expectStatus<{ lines: Array<{ unitPrice: number; lineTotal: number; priceListId: number | null }> }>(
      'POST',
      '/v1/orders',
      { customerId: member.id, lines: [{ sku: item.sku, quantity: 3 }] },
      201,
    );
    expect(order.lines[0]).toMatchObject({ unitPrice: 16, lineTotal: 48, priceListId: cheap.id });

    // Out of the group, only its own list prices.
    await expectStatus('PUT', `/v1/customers/${member.id}`, { customerGroupId: null }, 200);
    expect(await effective(member.id, item.sku)).toMatchObject({ price: 18, priceListId: groupPercent });
  });

  it('deleting a group takes its customers out (an event each) and its lists stop pricing them; deleting a list takes it out of groups', async () => {
    const item = await product(30);
    const listed = await fixedList('Listed', item, 25);
    const spare = await createList({ name: 'Spare', kind: 'fixed' });
    const group = await createGroup({ name: 'Doomed', priceListIds: [listed.id] });
    const kept = await createGroup({ name: 'Kept', priceListIds: [spare, listed.id] });
    const members = [await createCustomer({ customerGroupId: group.id }), await createCustomer({ customerGroupId: group.id })];
    expect((await effective(members[0]!.id, item.sku)).price).toBe(25);

    const start = await lastEventId();
    expect((await call('DELETE', `${GROUPS}/${group.id}`)).status).toBe(204);
    for (const member of members) {
      expect((await expectStatus<Customer>('GET', `/v1/customers/${member.id}`, undefined, 200)).customerGroupId).toBeNull();
      expect(await effective(member.id, item.sku)).toMatchObject({ price: 30, source: 'product' });
    }
    const events = await eventsAfter(start);
    expect(events.map((event) => `${event.topic}:${event.subjectId}`)).toEqual([
      ...members.map((member) => `customer.updated:${member.id}`),
      `customer_group.deleted:${group.id}`,
    ]);
    expect(events[0]!.previous).toMatchObject({ customerGroupId: group.id });
    expect(events[0]!.data).toMatchObject({ customerGroupId: null });

    const beforeList = await lastEventId();
    expect((await call('DELETE', `/v1/price-lists/${listed.id}`)).status).toBe(204);
    expect(await expectStatus('GET', `${GROUPS}/${kept.id}`, undefined, 200)).toMatchObject({ priceListIds: [spare] });
    const listEvents = await eventsAfter(beforeList);
    const groupEvent = listEvents.find((event) => event.topic === 'customer_group.updated');
    expect(groupEvent).toMatchObject({ subjectId: kept.id, data: { priceListIds: [spare] }, previous: { priceListIds: [spare, listed.id] } });
    expect(listEvents.at(-1)!.topic).toBe('price_list.deleted');
  });

  it("a change set's preview prices a group's customers for an entry of the group's list", async () => {
    const item = await product(50);
    const list = await createList({ name: 'Previewed', kind: 'fixed' });
    const group = await createGroup({ name: 'Previewed', priceListIds: [list] });
    const member = await createCustomer({ customerGroupId: group.id });
    const set = await expectStatus<{ id: number }>('POST', '/v1/change-sets', { name: 'Group entry' }, 201);
    await expectStatus(
      'POST',
      `/v1/change-sets/${set.id}/operations`,
      [{ type: 'price_list_entry.create', priceListId: list, productId: item.id, sku: item.sku, price: 45 }],
      201,
    );
    const preview = await expectStatus<{
      rows: Array<{ kind: string; customerId: number | null; sku: string | null; before: number | null; after: number | null }>;
    }>('GET', `/v1/change-sets/${set.id}/preview?count=100`, undefined, 200);
    expect(preview.rows.filter((row) => row.kind === 'price')).toEqual([
      expect.objectContaining({ customerId: member.id, sku: item.sku, before: 50, after: 45 }),
    ]);
  });

  it('announces groups in the feed and records them in the price history', async () => {
    const start = await lastEventId();
    const group = await createGroup({ name: 'Announced' });
    await expectStatus('PUT', `${GROUPS}/${group.id}`, { name: 'Renamed' }, 200);
    await expectStatus('DELETE', `${GROUPS}/${group.id}`, undefined, 204);
    expect((await eventsAfter(start)).map((event) => `${event.topic}:${event.subjectId}`)).toEqual([
      `customer_group.created:${group.id}`,
      `customer_group.updated:${group.id}`,
      `customer_group.deleted:${group.id}`,
    ]);
    const history = await expectStatus<Array<{ change: string; before: unknown; after: unknown }>>(
      'GET',
      `/v1/price-history?resource=customer_group&count=100`,
      undefined,
      200,
    );
    const ours = history.filter((entry) => [entry.before, entry.after].some((record) => (record as { id?: number } | null)?.id === group.id));
    expect(ours.map((entry) => entry.change).sort()).toEqual(['created', 'deleted', 'updated']);
  });

  it('a lowest-price group makes each of its lists a sale for its customers, whatever the list’s own policy; a past moment takes the group’s policy then', async () => {
    const item = await product(20);
    const ownContract = await fixedList('Own contract', item, 19);
    const groupContract = await fixedList('Group contract', item, 18);
    const groupDeal = await fixedList('Group deal', item, 17.5);
    const group = await createGroup({ name: 'Cheapest', priceListIds: [groupContract.id, groupDeal.id] });
    expect(group.policy).toBe('first');
    const member = await createCustomer({ priceListIds: [ownContract.id], customerGroupId: group.id });
    const before = clock.step(HOUR);
    clock.step(HOUR);

    // In turn: the customer's own list comes first.
    expect(await effective(member.id, item.sku)).toMatchObject({ price: 19, priceListId: ownContract.id });
    const lowest = await expectStatus<CustomerGroup>('PUT', `${GROUPS}/${group.id}`, { policy: 'lowest' }, 200);
    expect(lowest).toMatchObject({ policy: 'lowest', priceListIds: [groupContract.id, groupDeal.id] });
    // Lowest: every list of the group offers its price, and the lowest of all is paid.
    const paid = await effective(member.id, item.sku);
    expect(paid).toMatchObject({ price: 17.5, priceListId: groupDeal.id, priceListPriceId: groupDeal.entryId });
    expect(paid.candidates.map(({ priceListId, reason }) => [priceListId, reason])).toEqual([
      [ownContract.id, 'lower price wins'],
      [groupContract.id, 'lower price wins'],
      [groupDeal.id, null],
    ]);
    const quote = await expectStatus<{ lines: Array<{ unitPrice: number; priceListId: number | null }> }>(
      'POST',
      '/v1/quotes',
      { customerId: member.id, lines: [{ sku: item.sku, quantity: 2 }] },
      200,
    );
    expect(quote.lines[0]).toMatchObject({ unitPrice: 17.5, priceListId: groupDeal.id });
    expect(await effective(member.id, item.sku, before)).toMatchObject({ price: 19, priceListId: ownContract.id });
    const history = await expectStatus<Array<{ before: { policy?: string }; after: { policy: string } }>>(
      'GET',
      `/v1/price-history?resource=customer_group`,
      undefined,
      200,
    );
    expect(history[0]).toMatchObject({ before: { policy: 'first' }, after: { policy: 'lowest' } });

    const refused = await call('PUT', `${GROUPS}/${group.id}`, { policy: 'cheapest' });
    expect(refused.status).toBe(422);
    expect(fieldsOf(refused.body)).toEqual(['policy']);
  });

  it('answers a past moment with the group as it was then', async () => {
    const item = await product(40);
    const first = await fixedList('Then', item, 31);
    const second = await fixedList('Now', item, 33);
    clock.step(HOUR);
    const group = await createGroup({ name: 'Changing', priceListIds: [first.id] });
    const member = await createCustomer({});
    // Each moment named is an hour before the next change.
    const outside = clock.step(HOUR);
    clock.step(HOUR);
    await expectStatus('PUT', `/v1/customers/${member.id}`, { customerGroupId: group.id }, 200);
    const joined = clock.step(HOUR);
    clock.step(HOUR);
    await expectStatus('PUT', `${GROUPS}/${group.id}`, { priceListIds: [second.id] }, 200);
    const changed = clock.step(HOUR);
    clock.step(HOUR);
    await expectStatus('DELETE', `${GROUPS}/${group.id}`, undefined, 204);
    clock.step(HOUR);

    expect((await effective(member.id, item.sku, outside)).price).toBe(40);
    expect(await effective(member.id, item.sku, joined)).toMatchObject({ price: 31, priceListId: first.id });
    const thenCandidates = (await effective(member.id, item.sku, joined)).candidates;
    expect(thenCandidates[0]).toMatchObject({ priceListId: first.id, customerGroupId: group.id });
    expect(await effective(member.id, item.sku, changed)).toMatchObject({ price: 33, priceListId: second.id });
    expect((await effective(member.id, item.sku)).price).toBe(40);
    const quote = await expectStatus<{ lines: Array<{ unitPrice: number }> }>(
      'POST',
      '/v1/quotes',
      { customerId: member.id, at: joined, lines: [{ sku: item.sku, quantity: 1 }] },
      200,
    );
    expect(quote.lines[0]!.unitPrice).toBe(31);
  });

  it('reads groups with trade_prices:read, changes them with trade_prices:write, and joins customers only with it', async () => {
    const group = await createGroup({ name: 'Scoped' });
    const reader = await keyWith(['trade_prices:read']);
    expect(await expectStatus('GET', `${GROUPS}/${group.id}`, undefined, 200, reader)).toEqual(group);
    expectError(await call('POST', GROUPS, { name: 'No' }, reader), 403, 4);
    expectError(await call('PUT', `${GROUPS}/${group.id}`, { name: 'No' }, reader), 403, 4);
    expectError(await call('DELETE', `${GROUPS}/${group.id}`, undefined, reader), 403, 4);
    const catalogOnly = await keyWith(['catalog:read', 'catalog:write']);
    expectError(await call('GET', GROUPS, undefined, catalogOnly), 403, 4);
    const before = await snapshot();
    expectError(await call('POST', '/v1/customers', { email: `scoped-${++sequence}@example.com`, customerGroupId: group.id }, catalogOnly), 403, 4);
    expectError(await call('POST', '/v1/customers/bulk', [{ email: `scoped-${++sequence}@example.com`, customerGroupId: group.id }], catalogOnly), 403, 4);
    const customer = await createCustomer({});
    const afterCreate = await snapshot();
    expectError(await call('PUT', `/v1/customers/${customer.id}`, { customerGroupId: group.id }, catalogOnly), 403, 4);
    expect(await snapshot()).toEqual(afterCreate);
    expect(before).not.toEqual(afterCreate);
    expect((await expectStatus<Customer>('PUT', `/v1/customers/${customer.id}`, { firstName: 'Fine' }, 200, catalogOnly)).customerGroupId).toBeNull();
  });

  it('replays a creation for the same Idempotency-Key to the same credential only', async () => {
    const key = `group-${engine}-${++sequence}`;
    const send = (token: string) => suite.api.request('POST', GROUPS, { token, body: { name: 'Once' }, headers: { 'idempotency-key': key } });
    const first = await send(suite.tenant.token);
    expect(first.status, first.text).toBe(201);
    const replay = await send(suite.tenant.token);
    expect([replay.status, replay.body]).toEqual([201, first.body]);
    const other = await send(await keyWith(['trade_prices:write']));
    expect(other.status, other.text).toBe(201);
    expect((other.body as CustomerGroup).id).not.toBe((first.body as CustomerGroup).id);
    const named = (await expectStatus<CustomerGroup[]>('GET', `${GROUPS}?count=100`, undefined, 200)).filter((group) => group.name === 'Once');
    expect(named).toHaveLength(2);
  });

  it("another store's groups are 404 everywhere and never listed", async () => {
    const theirs = await createGroup({ name: 'Theirs' }, suite.other.token);
    expectError(await call('GET', `${GROUPS}/${theirs.id}`), 404, 5);
    expectError(await call('PUT', `${GROUPS}/${theirs.id}`, { name: 'Mine' }), 404, 5);
    expectError(await call('DELETE', `${GROUPS}/${theirs.id}`), 404, 5);
    expect((await expectStatus<CustomerGroup[]>('GET', `${GROUPS}?count=100`, undefined, 200)).map((group) => group.id)).not.toContain(theirs.id);
    expect(await expectStatus('GET', `${GROUPS}/${theirs.id}`, undefined, 200, suite.other.token)).toMatchObject({ name: 'Theirs' });
  });

  it.runIf(engine === 'sqlite')(`a store has at most ${MAX_CUSTOMER_GROUPS} groups; the next is refused with a 422`, { timeout: 60_000 }, async () => {
    const tenant = await suite.server.createTenant();
    const groups = suite.server.services.customerGroups;
    for (let index = 0; index < MAX_CUSTOMER_GROUPS; index++) await groups.create(tenant.storeId, CLI_ORIGIN, { name: `G${index}` });
    const refused = await call('POST', GROUPS, { name: 'One more' }, tenant.token);
    expectError(refused, 422, 10);
    expect(refused.text).toContain(`at most ${MAX_CUSTOMER_GROUPS} customer groups`);
    // Another store is not held to this one's count.
    expect((await call('POST', GROUPS, { name: 'Elsewhere' }, suite.other.token)).status).toBe(201);
  });
});

import fc from 'fast-check';
import { describe, expect, inject, it } from 'vitest';
import type { ChangeSetPreview, PreviewRow } from '../../src/contract/change-sets.js';
import type { Quote, QuoteLine } from '../../src/contract/quotes.js';
import { enginesUnderTest } from '../support/engines.js';
import { suiteServer } from '../support/suite-server.js';
import type { Tenant } from '../support/test-server.js';

/**
 * Change sets against a model (docs/change-sets.md). Random sets of trade price creates,
 * deletes and replaces, list entry creates and deletes, customers' lists and a list's
 * percentage (some sets a customer's lists and an entry's deletion together, in any order,
 * among others) are applied now or scheduled (and applied by the scheduler's turn), and some are
 * reverted at once. After each set the live book (every trade price and entry with its id,
 * every customer's lists, the percentage) equals the model's, which applies the operations
 * itself; a set and its revert leave every quote (each line's price and the ids of the records
 * that won) as it was; and in the end the price history, replayed from its first entry, gives
 * the live trade prices and entries.
 *
 * Before each set (and each revert) is applied, its preview is read whole: every quote line
 * (each customer, SKU and quantity) whose price the apply changes has its price rows, and every
 * price row gives the line's price before and after, as the quotes read them around the apply.
 *
 * The run's property seed (printed at the start) drives the choices on both engines:
 * `replayCommand` repeats them. A counterexample found goes into REGRESSIONS.
 */
const seed = inject('propertySeed');
const RUNS = 6;
const replayCommand = `PRICEBOOK_PROPERTY_SEED=${seed} npx vitest run --project main test/http/change-sets.property.test.ts`;
const PRODUCTS = 3;
const CUSTOMERS = 2;
const QUANTITIES = [1, 3, 5];

type Operation =
  | { kind: 'create'; customer: number; product: number; units: number; minQuantity: number }
  | { kind: 'delete'; pick: number }
  | { kind: 'replace'; customer: number; scope: 'customer' | 'skus'; prices: Array<{ product: number; units: number; minQuantity: number }> }
  | { kind: 'entry'; product: number; units: number; minQuantity: number }
  | { kind: 'deleteEntry'; pick: number }
  | { kind: 'lists'; customer: number; lists: number[] }
  | { kind: 'percentage'; units: number };

const units = fc.integer({ min: 1, max: 200_000 });
const minQuantity = fc.constantFrom(1, 1, 3, 5);
const operation: fc.Arbitrary<Operation> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({ kind: fc.constant('create' as const), customer: fc.nat(CUSTOMERS - 1), product: fc.nat(PRODUCTS - 1), units, minQuantity }),
  },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('delete' as const), pick: fc.nat() }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('replace' as const),
      customer: fc.nat(CUSTOMERS - 1),
      scope: fc.constantFrom('customer' as const, 'skus' as const),
      prices: fc.array(fc.record({ product: fc.nat(PRODUCTS - 1), units, minQuantity }), { maxLength: 3 }),
    }),
  },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('entry' as const), product: fc.nat(PRODUCTS - 1), units, minQuantity }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('deleteEntry' as const), pick: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('lists' as const), customer: fc.nat(CUSTOMERS - 1), lists: fc.shuffledSubarray([0, 1]) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('percentage' as const), units: fc.integer({ min: 0, max: 1_000_000 }) }) },
);
/** A customer's lists and the deletion of an entry, with others, in an order of their own: what a preview once left a price of out. */
const listsAndEntry = fc
  .tuple(
    fc.record({ kind: fc.constant('lists' as const), customer: fc.nat(CUSTOMERS - 1), lists: fc.shuffledSubarray([0, 1]) }),
    fc.record({ kind: fc.constant('deleteEntry' as const), pick: fc.nat() }),
    fc.array(operation, { maxLength: 3 }),
  )
  .chain(([lists, deleteEntry, others]) => fc.shuffledSubarray<Operation>([lists, deleteEntry, ...others], { minLength: others.length + 2 }));
const changeSet = fc.record({
  operations: fc.oneof({ weight: 3, arbitrary: fc.array(operation, { minLength: 1, maxLength: 6 }) }, { weight: 1, arbitrary: listsAndEntry }),
  scheduled: fc.boolean(),
  revert: fc.boolean(),
});
const scenario = fc.array(changeSet, { minLength: 1, maxLength: 5 });
type Scenario = typeof scenario extends fc.Arbitrary<infer T> ? T : never;

/** Counterexamples found by earlier runs, and a hand-made sequence touching every kind, run first on every run. */
const REGRESSIONS: Scenario[] = [
  [
    {
      scheduled: false,
      revert: false,
      operations: [
        { kind: 'create', customer: 0, product: 0, units: 50_000, minQuantity: 1 },
        { kind: 'create', customer: 0, product: 0, units: 40_000, minQuantity: 1 },
        { kind: 'entry', product: 1, units: 30_000, minQuantity: 1 },
        { kind: 'lists', customer: 1, lists: [1, 0] },
      ],
    },
    {
      scheduled: true,
      revert: true,
      operations: [
        { kind: 'delete', pick: 0 },
        { kind: 'replace', customer: 0, scope: 'skus', prices: [{ product: 0, units: 40_000, minQuantity: 1 }] },
        { kind: 'deleteEntry', pick: 0 },
        { kind: 'lists', customer: 1, lists: [0] },
        { kind: 'lists', customer: 1, lists: [] },
        { kind: 'percentage', units: 125_000 },
      ],
    },
  ],
  // A set that changes nothing (a replace with every price as it was): its revert is empty, and is applied all the same.
  [
    { scheduled: false, revert: false, operations: [{ kind: 'create', customer: 0, product: 0, units: 50_000, minQuantity: 1 }] },
    { scheduled: false, revert: true, operations: [{ kind: 'replace', customer: 0, scope: 'skus', prices: [{ product: 0, units: 50_000, minQuantity: 1 }] }] },
  ],
  // A customer leaves its fixed list and the list's entry goes, in one set, in either order: the
  // customer's price for the entry's SKU changes, and the preview once listed no price row for it.
  [
    {
      scheduled: false,
      revert: false,
      operations: [
        { kind: 'entry', product: 1, units: 35_000, minQuantity: 1 },
        { kind: 'lists', customer: 0, lists: [0] },
      ],
    },
    {
      scheduled: false,
      revert: true,
      operations: [
        { kind: 'lists', customer: 0, lists: [] },
        { kind: 'deleteEntry', pick: 0 },
      ],
    },
    {
      scheduled: false,
      revert: false,
      operations: [
        { kind: 'deleteEntry', pick: 0 },
        { kind: 'lists', customer: 0, lists: [] },
      ],
    },
  ],
];

/** A trade price or entry as the model holds it: what a client sets, in ten-thousandths. */
interface Priced {
  owner: number;
  productId: number;
  sku: string;
  units: number;
  minQuantity: number;
}

interface Book {
  prices: Map<number, Priced>;
  entries: Map<number, Priced>;
  lists: Map<number, number[]>;
  percentageUnits: number;
}

const key = (record: Priced) => `${record.owner}|${record.productId}|${record.sku}|${record.units}|${record.minQuantity}`;
const cloneBook = (book: Book): Book => ({
  prices: new Map(book.prices),
  entries: new Map(book.entries),
  lists: new Map(book.lists),
  percentageUnits: book.percentageUnits,
});

describe.each(await enginesUnderTest())('change sets against a model, on %s', (engine) => {
  const suite = suiteServer(engine, { tenants: 0 });

  async function send<T>(tenant: Tenant, method: string, path: string, body?: unknown, ...statuses: number[]): Promise<T> {
    const response = await suite.api.request(method, path, { token: tenant.token, ...(body !== undefined && { body }) });
    expect(statuses.length === 0 ? [200, 201] : statuses, `${method} ${path}: ${response.text.slice(0, 400)}`).toContain(response.status);
    return response.body as T;
  }

  async function run(spec: Scenario): Promise<void> {
    const tenant = await suite.server.createTenant();
    const { storeId } = tenant;
    const products: Array<{ id: number; sku: string }> = [];
    for (let index = 0; index < PRODUCTS; index++) {
      products.push(await send(tenant, 'POST', '/v1/products', { title: `P${index}`, sku: `CS${storeId}-P${index}`, price: 1 + index }));
    }
    const fixed = await send<{ id: number }>(tenant, 'POST', '/v1/price-lists', { name: 'Fixed', kind: 'fixed' });
    const percentage = await send<{ id: number }>(tenant, 'POST', '/v1/price-lists', { name: 'Off', kind: 'percentage', percentage: 10 });
    const listIds = [fixed.id, percentage.id];
    const customers: number[] = [];
    for (let index = 0; index < CUSTOMERS; index++)
      customers.push((await send<{ id: number }>(tenant, 'POST', '/v1/customers', { email: `cs-${storeId}-${index}@example.com`, trade: true })).id);

    let model: Book = { prices: new Map(), entries: new Map(), lists: new Map(customers.map((id) => [id, []])), percentageUnits: 100_000 };

    /** The live book, read through the API. */
    const live = async (): Promise<Book> => {
      const book: Book = { prices: new Map(), entries: new Map(), lists: new Map(), percentageUnits: 0 };
      for (const customerId of customers) {
        const prices = await send<Array<{ id: number; productId: number; sku: string; price: number; minQuantity: number }>>(
          tenant,
          'GET',
          `/v1/trade-customer-product-prices?customerId=${customerId}&count=100`,
        );
        for (const price of prices)
          book.prices.set(price.id, {
            owner: customerId,
            productId: price.productId,
            sku: price.sku,
            units: Math.round(price.price * 10_000),
            minQuantity: price.minQuantity,
          });
        book.lists.set(customerId, (await send<{ priceListIds: number[] }>(tenant, 'GET', `/v1/customers/${customerId}`)).priceListIds);
      }
      const entries = await send<Array<{ id: number; productId: number; sku: string; price: number; minQuantity: number }>>(
        tenant,
        'GET',
        `/v1/price-lists/${fixed.id}/prices?count=100`,
      );
      for (const entry of entries)
        book.entries.set(entry.id, {
          owner: fixed.id,
          productId: entry.productId,
          sku: entry.sku,
          units: Math.round(entry.price * 10_000),
          minQuantity: entry.minQuantity,
        });
      book.percentageUnits = Math.round((await send<{ percentage: number }>(tenant, 'GET', `/v1/price-lists/${percentage.id}`)).percentage * 10_000);
      return book;
    };
    /** Every customer's quote of every SKU at each quantity: prices and the records that won. */
    const quotes = async () => {
      const answers: QuoteLine[][] = [];
      for (const customerId of customers) {
        const lines = products.flatMap((product) => QUANTITIES.map((quantity) => ({ sku: product.sku, quantity })));
        answers.push((await send<Quote>(tenant, 'POST', '/v1/quotes', { customerId, lines }, 200)).lines);
      }
      return answers;
    };
    /** Applies the set with `apply`, after reading its preview whole, and holds the preview to the quotes read around the apply. */
    const appliedAsPreviewed = async (id: number, apply: () => Promise<void>): Promise<{ before: QuoteLine[][]; after: QuoteLine[][] }> => {
      const rows: PreviewRow[] = [];
      for (let total = 1; rows.length < total;) {
        const page = await send<ChangeSetPreview>(tenant, 'GET', `/v1/change-sets/${id}/preview?count=100&offset=${rows.length}`);
        expect(page, 'the preview of a set that applies').toMatchObject({ problems: [], pricesComplete: true });
        rows.push(...page.rows);
        total = page.total;
      }
      const before = await quotes();
      await apply();
      const after = await quotes();
      const pairs = new Map<string, PreviewRow[]>();
      for (const row of rows) if (row.kind === 'price') pairs.set(`${row.customerId}|${row.sku}`, [...(pairs.get(`${row.customerId}|${row.sku}`) ?? []), row]);
      customers.forEach((customerId, at) => {
        before[at]!.forEach((line, index) => {
          const paid = { before: line.unitPrice, after: after[at]![index]!.unitPrice };
          const what = `customer ${customerId}, ${line.sku} × ${line.quantity}`;
          const breaks = pairs.get(`${customerId}|${line.sku}`);
          if (breaks === undefined) expect(paid.after, `the preview lists no price of ${what}, which changes`).toBe(paid.before);
          else {
            // The row of the highest break at or below the quantity (rows come by break, ascending).
            const row = breaks.filter((price) => price.minQuantity! <= line.quantity).at(-1);
            expect({ before: row?.before, after: row?.after }, `the preview's price of ${what}`).toEqual(paid);
          }
        });
      });
      return { before, after };
    };

    for (const set of spec) {
      // The operations, as the API takes them, and the model's book after them.
      const next = cloneBook(model);
      const expectedCreations: Priced[] = [];
      const expectedEntries: Priced[] = [];
      const body: unknown[] = [];
      const deleted = new Set<number>();
      for (const op of set.operations) {
        switch (op.kind) {
          case 'create': {
            const product = products[op.product]!;
            body.push({
              type: 'trade_price.create',
              customerId: customers[op.customer],
              productId: product.id,
              sku: product.sku,
              price: op.units / 10_000,
              minQuantity: op.minQuantity,
            });
            expectedCreations.push({ owner: customers[op.customer]!, productId: product.id, sku: product.sku, units: op.units, minQuantity: op.minQuantity });
            break;
          }
          case 'delete': {
            const ids = [...next.prices.keys()].filter((id) => !deleted.has(id));
            if (ids.length === 0) break;
            const id = ids[op.pick % ids.length]!;
            body.push({ type: 'trade_price.delete', id });
            next.prices.delete(id);
            deleted.add(id);
            break;
          }
          case 'replace': {
            const customerId = customers[op.customer]!;
            const desired = op.prices.map((price) => ({
              owner: customerId,
              productId: products[price.product]!.id,
              sku: products[price.product]!.sku,
              units: price.units,
              minQuantity: price.minQuantity,
            }));
            body.push({
              type: 'trade_prices.replace',
              customerId,
              scope: op.scope,
              prices: desired.map((price) => ({ productId: price.productId, sku: price.sku, price: price.units / 10_000, minQuantity: price.minQuantity })),
            });
            const skus = new Set(desired.map((price) => price.sku));
            // Existing records in scope, oldest first (records this set creates are newer than any), then those created so far.
            const inScope = (record: Priced) => record.owner === customerId && (op.scope === 'customer' || skus.has(record.sku));
            const existing = [...next.prices].filter(([, record]) => inScope(record)).sort(([a], [b]) => a - b);
            const pending = expectedCreations.filter(inScope);
            const unmatched = [...desired];
            for (const [id, record] of existing) {
              const match = unmatched.findIndex((price) => key(price) === key(record));
              if (match >= 0) unmatched.splice(match, 1);
              else {
                next.prices.delete(id);
                deleted.add(id);
              }
            }
            for (const record of pending) {
              const match = unmatched.findIndex((price) => key(price) === key(record));
              if (match >= 0) unmatched.splice(match, 1);
              else expectedCreations.splice(expectedCreations.indexOf(record), 1);
            }
            expectedCreations.push(...unmatched);
            break;
          }
          case 'entry': {
            const product = products[op.product]!;
            body.push({
              type: 'price_list_entry.create',
              priceListId: fixed.id,
              productId: product.id,
              sku: product.sku,
              price: op.units / 10_000,
              minQuantity: op.minQuantity,
            });
            expectedEntries.push({ owner: fixed.id, productId: product.id, sku: product.sku, units: op.units, minQuantity: op.minQuantity });
            break;
          }
          case 'deleteEntry': {
            const ids = [...next.entries.keys()].filter((id) => !deleted.has(-id));
            if (ids.length === 0) break;
            const id = ids[op.pick % ids.length]!;
            body.push({ type: 'price_list_entry.delete', priceListId: fixed.id, id });
            next.entries.delete(id);
            deleted.add(-id);
            break;
          }
          case 'lists': {
            const lists = op.lists.map((index) => listIds[index]!);
            body.push({ type: 'customer.set_price_lists', customerId: customers[op.customer], priceListIds: lists });
            next.lists.set(customers[op.customer]!, lists);
            break;
          }
          case 'percentage':
            body.push({ type: 'price_list.set_percentage', priceListId: percentage.id, percentage: op.units / 10_000 });
            next.percentageUnits = op.units;
            break;
        }
      }
      if (body.length === 0) continue;

      const before = await live();
      expect(before, 'the live book before the set is the model’s').toEqual(model);
      const created = await send<{ id: number }>(tenant, 'POST', '/v1/change-sets', { name: 'Random' });
      await send(tenant, 'POST', `/v1/change-sets/${created.id}/operations`, body, 201);
      // A scheduled set is previewed at its moment (the book has no dated prices: the same prices).
      const at = new Date(Date.now() + 3_600_000).toISOString();
      if (set.scheduled) expect(await send(tenant, 'POST', `/v1/change-sets/${created.id}/apply`, { at })).toMatchObject({ state: 'scheduled' });
      const { before: quotesBefore } = await appliedAsPreviewed(created.id, async () => {
        if (set.scheduled) await suite.server.services.changeSets.applyDue(Date.parse(at) + 1000, 100);
        else await send(tenant, 'POST', `/v1/change-sets/${created.id}/apply`, {}, 200);
      });
      expect(await send(tenant, 'GET', `/v1/change-sets/${created.id}`)).toMatchObject({ state: 'applied' });

      // The new records are the expected ones, by content; the model takes their ids.
      const after = await live();
      const known = new Set([...before.prices.keys()]);
      const newPrices = [...after.prices].filter(([id]) => !known.has(id));
      expect(newPrices.map(([, record]) => key(record)).sort(), 'trade prices created').toEqual(expectedCreations.map(key).sort());
      for (const [id, record] of newPrices) next.prices.set(id, record);
      const knownEntries = new Set([...before.entries.keys()]);
      const newEntries = [...after.entries].filter(([id]) => !knownEntries.has(id));
      expect(newEntries.map(([, record]) => key(record)).sort(), 'entries created').toEqual(expectedEntries.map(key).sort());
      for (const [id, record] of newEntries) next.entries.set(id, record);
      expect(after, 'the live book after the set is the model’s').toEqual(next);
      model = next;

      if (set.revert) {
        const inverse = await send<{ id: number }>(tenant, 'POST', `/v1/change-sets/${created.id}/revert`, {}, 201);
        await appliedAsPreviewed(inverse.id, async () => {
          await send(tenant, 'POST', `/v1/change-sets/${inverse.id}/apply`, {}, 200);
        });
        expect(await send(tenant, 'GET', `/v1/change-sets/${created.id}`)).toMatchObject({ state: 'rolled_back' });
        expect(await live(), 'a set and its revert leave the book as it was, ids included').toEqual(before);
        expect(await quotes(), 'a set and its revert leave every price and winner as it was').toEqual(quotesBefore);
        model = cloneBook(before);
      }
    }

    // The history, replayed from its first entry, gives the live trade prices and entries.
    const history: Array<{ resource: string; resourceId: number; change: string }> = [];
    for (let offset = 0; ; offset += 100) {
      const page = await send<typeof history>(tenant, 'GET', `/v1/price-history?count=100&offset=${offset}`);
      history.push(...page);
      if (page.length < 100) break;
    }
    const replayed = { prices: new Set<number>(), entries: new Set<number>() };
    // Newest first as listed: replayed oldest first.
    for (const entry of history.reverse()) {
      const target = entry.resource === 'trade_price' ? replayed.prices : entry.resource === 'price_list_entry' ? replayed.entries : undefined;
      if (target === undefined) continue;
      if (entry.change === 'created') target.add(entry.resourceId);
      else if (entry.change === 'deleted') target.delete(entry.resourceId);
    }
    const book = await live();
    const byId = (ids: Iterable<number>) => [...ids].sort((a, b) => a - b);
    expect({ prices: byId(replayed.prices), entries: byId(replayed.entries) }).toEqual({
      prices: byId(book.prices.keys()),
      entries: byId(book.entries.keys()),
    });
  }

  it.each(REGRESSIONS.map((spec, index) => [index, spec] as const))(
    'regression %i',
    async (_index, spec) => {
      await run(spec);
    },
    120_000,
  );

  it(`random change sets agree with the model (${replayCommand})`, async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async (spec) => {
        await run(spec);
      }),
      { numRuns: RUNS, endOnFailure: true },
    );
  }, 300_000);
});

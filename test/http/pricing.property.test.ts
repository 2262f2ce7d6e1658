import fc from 'fast-check';
import { describe, expect, inject, it } from 'vitest';
import type { QuantityRule } from '../../src/contract/quantity-rules.js';
import type { Clock } from '../../src/modules/shared/clock.js';
import { enginesUnderTest } from '../support/engines.js';
import { suiteServer } from '../support/suite-server.js';
import type { Tenant } from '../support/test-server.js';

/**
 * On random catalogs (with quantity rules), trade prices, price lists (of both policies) and a customer group, a quote, the effective-price endpoint and an
 * order placed at the same moment price every line alike, and as a model of the rule
 * (docs/pricing.md) says. The run's property seed (printed at the start of `npm test`) drives
 * the random choices on both engines; PRICEBOOK_PROPERTY_SEED=N repeats them.
 */
const seed = inject('propertySeed');
const RUNS = 25;
const replayCommand = `PRICEBOOK_PROPERTY_SEED=${seed} npx vitest run --project main test/http/pricing.property.test.ts`;

/** Windows and moments are whole and half days around this moment. */
const REFERENCE = Date.parse('2030-01-01T00:00:00.000Z');
const DAY_MS = 86_400_000;
const momentOf = (days: number) => new Date(REFERENCE + days * DAY_MS).toISOString();

/** The moment the server believes it is: orders are placed, and priced, then. */
class SetClock implements Clock {
  moment = Date.now();
  now(): number {
    return this.moment;
  }
}

/** A trade price or list entry as generated: `sku` picks one of the catalog's SKUs; bounds are days from REFERENCE. */
interface RuleSpec {
  sku: number;
  units: number;
  minQuantity: number;
  from: number | null;
  until: number | null;
}

/** Ten-thousandths, up to 20.0000. */
const units = fc.integer({ min: 0, max: 200_000 });
const bound = fc.option(fc.integer({ min: -3, max: 3 }), { nil: null, freq: 3 });
/** A SKU among the first few: rules and lines meet often. */
const skuPick = fc.nat({ max: 6 });
const rule: fc.Arbitrary<RuleSpec> = fc.record({ sku: skuPick, units, minQuantity: fc.integer({ min: 1, max: 20 }), from: bound, until: bound }).map((spec) => {
  // A window ends after it starts: two bounds are put in order, and equal ones leave it open-ended.
  if (spec.from === null || spec.until === null || spec.from < spec.until) return spec;
  return spec.from === spec.until ? { ...spec, until: null } : { ...spec, from: spec.until, until: spec.from };
});
/** A percentage list's own rounding, or none (the store's: GBP, to the penny, half-up). */
const rounding = fc.option(
  fc.record({ incrementUnits: fc.constantFrom(1, 100, 500, 10_000), mode: fc.constantFrom('half-up' as const, 'up' as const, 'down' as const) }),
  { nil: null, freq: 2 },
);
/** One list in three is a `lowest` list: it takes no turn, and is paid when lower. */
const policy = fc.constantFrom('first' as const, 'first' as const, 'lowest' as const);
/** A quantity rule, or none (most SKUs have none): a case pack of 1–5, a minimum and maybe a maximum of it. */
const quantityRule = fc.oneof(
  { arbitrary: fc.constant(null), weight: 6 },
  {
    arbitrary: fc
      .record({
        increment: fc.integer({ min: 1, max: 5 }),
        packs: fc.integer({ min: 1, max: 4 }),
        more: fc.option(fc.integer({ min: 0, max: 4 }), { nil: null }),
      })
      .map(({ increment, packs, more }) => ({
        minimum: increment * packs,
        maximum: more === null ? null : increment * (packs + more),
        increment,
      })),
    weight: 1,
  },
);
/** A SKU's or entry's quantity rule, as the API answers it; null: none. */
type RuleOfQuantity = QuantityRule | null;
const scenario = fc.record({
  products: fc.array(
    fc.record({ units, rule: quantityRule, variations: fc.array(fc.record({ units: fc.option(units, { nil: null }), rule: quantityRule }), { maxLength: 3 }) }),
    { minLength: 1, maxLength: 3 },
  ),
  lists: fc.array(
    fc.oneof(
      {
        // Each entry may carry a quantity rule of its own, which a line it prices keeps instead of the SKU's.
        arbitrary: fc.record({
          kind: fc.constant('fixed' as const),
          entries: fc.array(
            fc.record({ rule, quantityRule }).map(({ rule: spec, quantityRule: own }) => ({ ...spec, quantityRule: own })),
            { minLength: 1, maxLength: 8 },
          ),
          policy,
        }),
        weight: 3,
      },
      {
        arbitrary: fc.record({ kind: fc.constant('percentage' as const), percentageUnits: fc.integer({ min: 0, max: 1_000_000 }), policy, rounding }),
        weight: 1,
      },
    ),
    { minLength: 1, maxLength: 3 },
  ),
  /** Positions in `lists`, in the order each customer has them (those beyond the lists are dropped). */
  traderLists: fc.shuffledSubarray([0, 1, 2]),
  lapsedLists: fc.shuffledSubarray([0, 1, 2]),
  /** A customer group's lists (positions as above), or no group; each customer joins it or not. */
  groupLists: fc.option(fc.shuffledSubarray([0, 1, 2]), { nil: null, freq: 3 }),
  /** `lowest`: every list of the group is a sale for its customers. */
  groupPolicy: fc.constantFrom('first' as const, 'lowest' as const),
  traderInGroup: fc.boolean(),
  lapsedInGroup: fc.boolean(),
  traderPrices: fc.array(rule, { minLength: 1, maxLength: 10 }),
  lapsedPrices: fc.array(rule, { maxLength: 10 }),
  lines: fc.array(fc.record({ sku: skuPick, quantity: fc.integer({ min: 1, max: 30 }) }), { minLength: 1, maxLength: 8 }),
  /** Half days from REFERENCE: every window bound is among them. */
  at: fc.integer({ min: -8, max: 8 }).map((halfDays) => momentOf(halfDays / 2)),
});
type Scenario = typeof scenario extends fc.Arbitrary<infer T> ? T : never;

interface CatalogSku {
  sku: string;
  productId: number;
  productUnits: number;
  variationUnits: number | null;
  /** The rule a line of it keeps: the variation's own, else the product's. */
  quantityRule: RuleOfQuantity;
}

/** A stored trade price or entry, as the model sees it. */
interface StoredRule {
  id: number;
  sku: string;
  units: number;
  minQuantity: number;
  fromMs: number;
  untilMs: number;
  /** A list entry's own quantity rule (a trade price has none). */
  quantityRule: RuleOfQuantity;
}

interface StoredList {
  id: number;
  percentageUnits: number | null;
  policy: 'first' | 'lowest';
  /** Its own rounding; null: the store's. */
  rounding: { incrementUnits: number; mode: 'half-up' | 'up' | 'down' } | null;
  entries: StoredRule[];
}

interface Priced {
  unitPrice: number;
  source: string;
  tradePriceId: number | null;
  priceListId: number | null;
  priceListPriceId: number | null;
  /** The paying entry's own quantity rule (not compared as a price: `modelLineRule` reads it). */
  entryRule?: RuleOfQuantity;
}

const pricedOf = ({ unitPrice, source, tradePriceId, priceListId, priceListPriceId }: Priced): Priced => ({
  unitPrice,
  source,
  tradePriceId,
  priceListId,
  priceListPriceId,
});

/** The rule, written from docs/pricing.md over numbers (moments in milliseconds, prices in units). */
function modelPrice(facts: { trade: boolean; tradeRules: StoredRule[]; lists: StoredList[] }, sku: CatalogSku, quantity: number, atMs: number): Priced {
  const best = (rules: StoredRule[]) =>
    rules
      .filter((candidate) => candidate.sku === sku.sku && candidate.minQuantity <= quantity && candidate.fromMs <= atMs && atMs < candidate.untilMs)
      .sort((a, b) => b.minQuantity - a.minQuantity || b.id - a.id)[0];
  const priced = (priceUnits: number, source: string, ids: Partial<Priced> = {}): Priced => ({
    unitPrice: priceUnits / 10_000,
    source,
    tradePriceId: null,
    priceListId: null,
    priceListPriceId: null,
    ...ids,
  });
  const catalogUnits = sku.variationUnits ?? sku.productUnits;
  // The exact amount (units × millionths), rounded to the list's increment or the store's penny
  // by its mode, at most the catalog price; below 2^53 throughout (20.0000 is 200 000 units), so exact in doubles.
  const percentageOff = (list: StoredList) => {
    const { incrementUnits, mode } = list.rounding ?? { incrementUnits: 100, mode: 'half-up' };
    const exact = catalogUnits * (1_000_000 - list.percentageUnits!);
    const step = 1_000_000 * incrementUnits;
    const steps = mode === 'down' ? Math.floor(exact / step) : mode === 'up' ? Math.ceil(exact / step) : Math.floor((2 * exact + step) / (2 * step));
    // Never above the catalog price.
    return priced(Math.min(steps * incrementUnits, catalogUnits), 'price_list', { priceListId: list.id });
  };
  const listPrice = (list: StoredList): Priced | undefined => {
    if (list.percentageUnits !== null) return percentageOff(list);
    const listed = best(list.entries);
    return listed === undefined
      ? undefined
      : priced(listed.units, 'price_list', { priceListId: list.id, priceListPriceId: listed.id, entryRule: listed.quantityRule });
  };
  const walked = (): Priced => {
    const tradePrice = facts.trade ? best(facts.tradeRules) : undefined;
    if (tradePrice !== undefined) return priced(tradePrice.units, 'trade', { tradePriceId: tradePrice.id });
    for (const list of facts.lists.filter((candidate) => candidate.policy === 'first')) {
      const price = listPrice(list);
      if (price !== undefined) return price;
    }
    return sku.variationUnits !== null ? priced(sku.variationUnits, 'variation') : priced(sku.productUnits, 'product');
  };
  // The lowest of the walk's pick and every `lowest` list's price: on a tie, the walk's, then the earlier list's.
  let paid = walked();
  for (const list of facts.lists.filter((candidate) => candidate.policy === 'lowest')) {
    const offer = listPrice(list);
    if (offer !== undefined && offer.unitPrice < paid.unitPrice) paid = offer;
  }
  return paid;
}

/** The rule a line keeps (docs/pricing.md, "Quantity rules"): the paying entry's own, else its SKU's. */
function modelLineRule(paid: Priced, sku: CatalogSku): RuleOfQuantity {
  return paid.entryRule ?? sku.quantityRule;
}

/** Why a line of `quantity` breaks `rule` (docs/pricing.md, "Quantity rules": the increment, then the minimum, then the maximum). */
function modelRuleBreak(rule: RuleOfQuantity, quantity: number): string | undefined {
  if (rule === null) return undefined;
  if (quantity % rule.increment !== 0) return `must be a multiple of ${rule.increment}`;
  if (quantity < rule.minimum) return `must be at least ${rule.minimum}`;
  if (rule.maximum !== null && quantity > rule.maximum) return `must be at most ${rule.maximum}`;
  return undefined;
}

describe.each(await enginesUnderTest())('pricing agreement on %s', (engine) => {
  const clock = new SetClock();
  const suite = suiteServer(engine, { tenants: 0, services: { clock } });

  async function send<T>(tenant: Tenant, method: string, path: string, body: unknown, status: number): Promise<T> {
    const response = await suite.api.request(method, path, { token: tenant.token, body });
    expect(response.status, `${method} ${path}: ${response.text.slice(0, 300)}`).toBe(status);
    return response.body as T;
  }

  /** Makes the scenario's store, fresh for each run: catalog, lists, the two customers and their trade prices. */
  async function storeOf(tenant: Tenant, spec: Scenario) {
    const skus: CatalogSku[] = [];
    for (const [index, product] of spec.products.entries()) {
      const variations = product.variations.map((variation, position) => ({
        sku: `P${index}-V${position}`,
        ...(variation.units !== null && { price: variation.units / 10_000 }),
        ...(variation.rule !== null && { quantityRule: variation.rule }),
      }));
      const ownRule = product.rule === null ? {} : { quantityRule: product.rule };
      const created = await send<{ id: number }>(
        tenant,
        'POST',
        '/v1/products',
        { title: `Product ${index}`, sku: `P${index}`, price: product.units / 10_000, ...ownRule, variations },
        201,
      );
      skus.push({ sku: `P${index}`, productId: created.id, productUnits: product.units, variationUnits: null, quantityRule: product.rule });
      product.variations.forEach((variation, position) =>
        skus.push({
          sku: `P${index}-V${position}`,
          productId: created.id,
          productUnits: product.units,
          variationUnits: variation.units,
          quantityRule: variation.rule ?? product.rule,
        }),
      );
    }
    const skuOf = (rule: RuleSpec) => skus[rule.sku % skus.length]!;
    const ruleFields = (rule: RuleSpec) => ({
      productId: skuOf(rule).productId,
      sku: skuOf(rule).sku,
      price: rule.units / 10_000,
      minQuantity: rule.minQuantity,
      ...(rule.from !== null && { validFrom: momentOf(rule.from) }),
      validUntil: rule.until === null ? null : momentOf(rule.until),
    });
    const stored = (rules: Array<RuleSpec & { quantityRule?: RuleOfQuantity }>, ids: number[]): StoredRule[] =>
      rules.map((rule, index) => ({
        quantityRule: rule.quantityRule ?? null,
        id: ids[index]!,
        sku: skuOf(rule).sku,
        units: rule.units,
        minQuantity: rule.minQuantity,
        fromMs: rule.from === null ? -Infinity : REFERENCE + rule.from * DAY_MS,
        untilMs: rule.until === null ? Infinity : REFERENCE + rule.until * DAY_MS,
      }));

    const lists: StoredList[] = [];
    for (const [index, list] of spec.lists.entries()) {
      const percentage = list.kind === 'percentage' ? list.percentageUnits / 10_000 : undefined;
      // `first` is the default: half of such lists say so, half leave it out.
      const policy = list.policy === 'lowest' || index % 2 === 0 ? { policy: list.policy } : {};
      const ownRounding =
        list.kind === 'percentage' && list.rounding !== null
          ? { rounding: { increment: list.rounding.incrementUnits / 10_000, mode: list.rounding.mode } }
          : {};
      const { id } = await send<{ id: number }>(
        tenant,
        'POST',
        '/v1/price-lists',
        { name: `List ${index}`, kind: list.kind, percentage, ...policy, ...ownRounding },
        201,
      );
      if (list.kind === 'percentage') {
        lists.push({ id, percentageUnits: list.percentageUnits, policy: list.policy, rounding: list.rounding, entries: [] });
        continue;
      }
      const entries =
        list.entries.length === 0
          ? []
          : await send<Array<{ id: number }>>(
              tenant,
              'POST',
              `/v1/price-lists/${id}/prices/bulk`,
              // Half the entries without a rule say null, half leave it out.
              list.entries.map((entry, position) => ({
                ...ruleFields(entry),
                ...((entry.quantityRule !== null || position % 2 === 0) && { quantityRule: entry.quantityRule }),
              })),
              201,
            );
      lists.push({
        id,
        percentageUnits: null,
        policy: list.policy,
        rounding: null,
        entries: stored(
          list.entries,
          entries.map((entry) => entry.id),
        ),
      });
    }

    const listsAt = (positions: number[]) => positions.filter((position) => position < lists.length).map((position) => lists[position]!);
    const group =
      spec.groupLists === null
        ? undefined
        : {
            // A `lowest` group's lists are sales for its customers, whatever their own policy (docs/pricing.md, "Customer groups").
            lists: listsAt(spec.groupLists).map((list) => (spec.groupPolicy === 'lowest' ? { ...list, policy: 'lowest' as const } : list)),
            id: (
              await send<{ id: number }>(
                tenant,
                'POST',
                '/v1/customer-groups',
                // `first` is the default: said or left out, half and half.
                {
                  name: 'Group',
                  priceListIds: listsAt(spec.groupLists).map((list) => list.id),
                  ...((spec.groupPolicy === 'lowest' || spec.traderInGroup) && { policy: spec.groupPolicy }),
                },
                201,
              )
            ).id,
          };
    // Both start as trade customers, to be given trade prices; the lapsed one then stops being one.
    const customer = async (name: string, positions: number[], prices: RuleSpec[], inGroup: boolean) => {
      const own = listsAt(positions);
      const joined = inGroup ? group : undefined;
      const membership = joined === undefined ? {} : { customerGroupId: joined.id };
      const { id } = await send<{ id: number }>(
        tenant,
        'POST',
        '/v1/customers',
        { email: `${name}@example.com`, trade: true, priceListIds: own.map((list) => list.id), ...membership },
        201,
      );
      const records =
        prices.length === 0
          ? []
          : await send<Array<{ id: number }>>(
              tenant,
              'POST',
              '/v1/trade-customer-product-prices/bulk',
              prices.map((price) => ({ customerId: id, ...ruleFields(price) })),
              201,
            );
      // Its own lists, then the group's it does not have itself (docs/pricing.md, "Customer groups").
      const walked = [...own, ...(joined?.lists ?? []).filter((list) => !own.some((mine) => mine.id === list.id))];
      return {
        id,
        trade: true,
        lists: walked,
        tradeRules: stored(
          prices,
          records.map((record) => record.id),
        ),
      };
    };
    const trader = await customer('trader', spec.traderLists, spec.traderPrices, spec.traderInGroup);
    const lapsed = await customer('lapsed', spec.lapsedLists, spec.lapsedPrices, spec.lapsedInGroup);
    await send(tenant, 'PUT', `/v1/customers/${lapsed.id}`, { trade: false }, 200);
    return { skus, customers: [trader, { ...lapsed, trade: false }] };
  }

  it('a quote, the effective price and an order placed then agree on every line, as the rule says', async () => {
    const details = await fc.check(
      fc.asyncProperty(scenario, async (spec) => {
        const tenant = await suite.server.createTenant();
        clock.moment = Date.parse(spec.at);
        const { skus, customers } = await storeOf(tenant, spec);
        // Each SKU once: an order refuses a SKU repeated on another line.
        const lines = [...new Map(spec.lines.map((line) => [skus[line.sku % skus.length]!, line.quantity])).entries()];
        const body = lines.map(([sku, quantity]) => ({ sku: sku.sku, quantity }));

        // A line that breaks its rule (the paying entry's, else its SKU's) is refused, naming it, by the quote and the order alike.
        const priced: typeof customers = [];
        for (const customer of customers) {
          const broken = lines.flatMap(([sku, quantity], index) => {
            const message = modelRuleBreak(modelLineRule(modelPrice(customer, sku, quantity, clock.moment), sku), quantity);
            return message === undefined ? [] : [{ index, field: 'quantity', message }];
          });
          if (broken.length === 0) {
            priced.push(customer);
            continue;
          }
          const refusedQuote = await suite.api.request('POST', '/v1/quotes', {
            token: tenant.token,
            body: { customerId: customer.id, at: spec.at, lines: body },
          });
          const refusedOrder = await suite.api.request('POST', '/v1/orders', { token: tenant.token, body: { customerId: customer.id, lines: body } });
          for (const refused of [refusedQuote, refusedOrder]) {
            expect(refused.status, refused.text.slice(0, 300)).toBe(422);
            expect((refused.body as { errors: unknown[] }).errors).toEqual(broken);
          }
        }
        for (const customer of priced) {
          const quote = await send<{ at: string; lines: Array<Priced & { productId: number; variationId: number | null }> }>(
            tenant,
            'POST',
            '/v1/quotes',
            { customerId: customer.id, at: spec.at, lines: body },
            200,
          );
          const order = await send<{ createdAt: string; lines: Array<Priced & { productId: number; variationId: number | null }> }>(
            tenant,
            'POST',
            '/v1/orders',
            { customerId: customer.id, lines: body },
            201,
          );
          expect([quote.at, order.createdAt]).toEqual([spec.at, spec.at]);
          for (const [index, [sku, quantity]] of lines.entries()) {
            const query = new URLSearchParams({ customerId: String(customer.id), sku: sku.sku, quantity: String(quantity), at: spec.at });
            const effective = await send<Priced & { price: number; productId: number; variationId: number | null }>(
              tenant,
              'GET',
              `/v1/trade-customer-product-prices/effective?${query}`,
              undefined,
              200,
            );
            const expected = modelPrice(customer, sku, quantity, clock.moment);
            expect((effective as unknown as { quantityRule: RuleOfQuantity }).quantityRule).toEqual(modelLineRule(expected, sku));
            const where = `${customer.trade ? 'trade' : 'lapsed'} customer, ${sku.sku} × ${quantity} at ${spec.at}`;
            expect(
              { quote: pricedOf(quote.lines[index]!), effective: pricedOf({ ...effective, unitPrice: effective.price }), order: pricedOf(order.lines[index]!) },
              where,
            ).toEqual({
              quote: pricedOf(expected),
              effective: pricedOf(expected),
              order: pricedOf(expected),
            });
            const ids = [quote.lines[index]!, effective, order.lines[index]!].map(({ productId, variationId }) => ({ productId, variationId }));
            expect(ids, where).toEqual([ids[0], ids[0], ids[0]]);
            expect(ids[0]!.productId).toBe(sku.productId);
          }
        }
      }),
      { numRuns: RUNS, seed },
    );
    if (details.failed) {
      const error = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
      const { actual, expected } = details.errorInstance as { actual?: unknown; expected?: unknown };
      const difference = actual === undefined ? '' : `Received: ${JSON.stringify(actual)}\nExpected: ${JSON.stringify(expected)}\n`;
      throw new Error(
        `pricing agreement on ${engine} failed (seed ${seed}, path ${details.counterexamplePath ?? '?'}, after ${details.numRuns} runs):\n${error}\n${difference}` +
          `Counterexample: ${JSON.stringify(details.counterexample?.[0] ?? null)}\nReplay: ${replayCommand}`,
      );
    }
  });
});

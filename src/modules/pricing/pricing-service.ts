import { MAX_ORDER_AMOUNT } from '../../contract/orders.js';
import type { QuantityRule } from '../../contract/quantity-rules.js';
import { quantityBreaks } from '../quantity-rules/quantity-rule.js';
import type { Quote, QuoteInput } from '../../contract/quotes.js';
import type { EffectivePrice } from '../../contract/trade-prices.js';
import { type Clock, isoTimestamp } from '../clock.js';
import { found, notFound, refusedBy, validationFailed } from '../errors.js';
import type { FieldProblem } from '../../contract/errors.js';
import { fromPriceUnits } from '../money.js';
import { amountOf, formatUnits, isOrderAmount, lineTotalUnits } from '../order-amounts.js';
import { canonicalTimestamp, TIMESTAMP_RULE } from '../timestamps.js';
import { batchStart, yieldToOtherWork } from '../yield-to-other-work.js';
import type { Repositories, UnitOfWork } from '../unit-of-work.js';
import { type CandidatePage, explainPrice } from './explain-price.js';
import { customerProblem } from './trade-customer.js';
import { customerAsOf, loadFactsAsOf } from './as-of-facts.js';
import { priceBreaks } from './price-breaks.js';
import { isValidAt, type Resolution, resolvePrice } from './price-resolution.js';
import type { SkuFacts, SkuPrice } from './pricing-repository.js';

/** An explanation over at least this many trade prices and entries lets other work run between reading and weighing them. */
const YIELD_ABOVE_RECORDS = 2000;

/** A line to price: a SKU and how many units (undefined: only look the SKU up). */
export interface LineToPrice {
  sku: string;
  quantity: number | undefined;
}

export interface PricedLines {
  /** In the order given; undefined for a line left out, without a quantity, or with an unknown SKU. */
  lines: Array<PricedLine | undefined>;
  /** The catalog entries of the SKUs the store has. */
  catalog: ReadonlyMap<string, SkuPrice>;
}

/** A line priced by the rule, amounts in ten-thousandths (BigInt for the totals). */
export interface PricedLine extends Resolution {
  sku: string;
  quantity: number;
  productId: number;
  variationId: number | null;
  lineTotalUnits: bigint;
  /** How many units the line may order (docs/pricing.md, "Quantity rules"): the rule of the entry that prices it, else the SKU's; null: any. */
  quantityRule: QuantityRule | null;
}

/**
 * Prices by the resolution rule (`price-resolution.ts`) for the effective-price endpoint,
 * quotes and orders, from facts read in a fixed number of queries whatever the number of
 * SKUs: the catalog prices, the customer's lists, their trade prices, the lists' entries.
 */
export class PricingService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  /**
   * Which price the customer pays for `quantity` units of the SKU at `at` (default now), and why:
   * with the `page` of candidates asked for and how many there are.
   */
  async explain(storeId: number, customerId: number, sku: string, quantity: number, at: string | undefined, page: CandidatePage): Promise<EffectivePrice> {
    const repos = this.uow.repos;
    const past = this.isPast(at);
    const customer = found(past ? await customerAsOf(repos, storeId, customerId, at) : await repos.customers.find(storeId, customerId), `Customer ${customerId}`);
    const moment = at ?? isoTimestamp(this.clock);
    const started = batchStart();
    const facts = (past ? await loadFactsAsOf(repos, storeId, customer, [sku], at, true) : await loadFacts(repos, storeId, customer, [sku], { explain: true })).get(sku);
    if (facts === undefined) throw notFound(`SKU '${sku}'`);
    // Reading thousands of records and weighing them are each a stretch of work that holds the
    // process (on SQLite the read is synchronous): other requests get a turn between the two.
    const records = facts.facts.tradeRules.length + facts.facts.lists.reduce((sum, list) => sum + list.rules.length, 0);
    if (records >= YIELD_ABOVE_RECORDS) await yieldToOtherWork(started);
    const explained = explainPrice(facts.facts, quantity, moment, page);
    return {
      customerId: customer.id,
      sku,
      productId: facts.catalog.productId,
      variationId: facts.catalog.variationId,
      quantity,
      at: moment,
      price: fromPriceUnits(explained.priceUnits),
      source: explained.source,
      tradePriceId: explained.tradePriceId,
      priceListId: explained.priceListId,
      priceListPriceId: explained.priceListPriceId,
      validUntil: explained.validUntil,
      nextChangeAt: explained.nextChangeAt,
      quantityRule: explained.quantityRule ?? facts.catalog.quantityRule,
      shadowedTradePriceIds: explained.shadowedTradePriceIds,
      candidateCount: explained.candidateCount,
      candidates: explained.candidates,
    };
  }

  /**
   * Prices a cart or a page of SKUs for a customer; nothing is stored. `shapeProblems` are what
   * the schema refused (a line's carry its `index`); an unknown customer or SKU, a bad `at`, a
   * line total or total of MAX_ORDER_AMOUNT or more are reported with them.
   */
  async quote(storeId: number, input: QuoteInput, shapeProblems: readonly FieldProblem[] = []): Promise<Quote> {
    const refused = refusedBy(shapeProblems);
    if (refused(undefined, null)) throw validationFailed(shapeProblems);
    const problems: FieldProblem[] = [...shapeProblems];
    const repos = this.uow.repos;

    let at = isoTimestamp(this.clock);
    let given: string | undefined;
    if (input.at !== undefined && !refused(undefined, 'at')) {
      const canonical = canonicalTimestamp(input.at);
      if (canonical === undefined) problems.push({ field: 'at', message: TIMESTAMP_RULE });
      else at = given = canonical;
    }
    // A moment in the past is priced from the book as it was then (`as-of-facts.ts`).
    const past = this.isPast(given);
    const findCustomer = (id: number) => (past ? customerAsOf(repos, storeId, id, at) : repos.customers.find(storeId, id));
    // The store's currency, which the quote names, is read beside the customer.
    const [customer, terms] = await Promise.all([refused(undefined, 'customerId') ? undefined : findCustomer(input.customerId), repos.pricing.storeTerms(storeId)]);
    const unknown = refused(undefined, 'customerId') ? undefined : customerProblem(`Customer ${input.customerId}`, customer, { trade: false });
    if (unknown !== undefined) problems.push({ field: 'customerId', message: unknown });

    const lines = refused(undefined, 'lines') ? [] : input.lines.map((line, index) => (refused(index, null) || refused(index, 'sku') || refused(index, 'quantity') ? undefined : line));
    const skus = lines.flatMap((line) => (line === undefined ? [] : [line.sku]));
    const factsBySku = past ? await loadFactsAsOf(repos, storeId, customer, skus, at, false) : await loadFacts(repos, storeId, customer, skus, { at });
    const { lines: priced } = priceFromFacts(factsBySku, lines, at);
    lines.forEach((line, index) => {
      if (line === undefined) return;
      const price = priced[index];
      const broken = price === undefined ? undefined : quantityBreaks(price.quantityRule, price.quantity);
      if (price === undefined) problems.push({ index, field: 'sku', message: `SKU '${line.sku}' does not exist in this store` });
      else if (broken !== undefined) problems.push({ index, field: 'quantity', message: broken });
      else if (!isOrderAmount(price.lineTotalUnits)) {
        problems.push({ index, field: 'quantity', message: `makes the line total ${formatUnits(price.lineTotalUnits)}; a line total must be below ${MAX_ORDER_AMOUNT}` });
      }
    });
    const totalUnits = priced.reduce((sum, line) => sum + (line?.lineTotalUnits ?? 0n), 0n);
    if (problems.length === 0 && !isOrderAmount(totalUnits)) {
      problems.push({ field: 'lines', message: `make the total ${formatUnits(totalUnits)}; a total must be below ${MAX_ORDER_AMOUNT} (quote fewer lines)` });
    }
    if (problems.length > 0 || customer === undefined) throw validationFailed(problems);

    return {
      customerId: customer.id,
      at,
      currency: terms.currency,
      lines: priced.map((line) => {
        const { sku, productId, variationId, quantity, priceUnits, lineTotalUnits: total, source, tradePriceId, priceListId, priceListPriceId } = line!;
        return { sku, productId, variationId, quantity, unitPrice: fromPriceUnits(priceUnits), lineTotal: amountOf(total), source, tradePriceId, priceListId, priceListPriceId };
      }),
      total: amountOf(totalUnits),
    };
  }

  /**
   * Each line priced at its quantity at `at`, in `repos` (an order's transaction). With no
   * customer, only the catalog is read (it still tells which SKUs exist).
   */
  async priceLines(
    repos: Repositories,
    storeId: number,
    customer: { id: number; trade: boolean } | undefined,
    lines: ReadonlyArray<LineToPrice | undefined>,
    at: string,
  ): Promise<PricedLines> {
    const skus = lines.flatMap((line) => (line === undefined ? [] : [line.sku]));
    return priceFromFacts(await loadFacts(repos, storeId, customer, skus, { at }), lines, at);
  }

  /**
   * What the customer pays for each SKU at `at`, from each quantity break on: the breaks of
   * every trade price and list entry valid then, and 1. Read from the live book (inside a
   * transaction, as that transaction sees it); an unknown customer prices nothing, and a SKU
   * the store does not have is left out.
   */
  async breakPrices(storeId: number, customerId: number, skus: readonly string[], at: string): Promise<Map<string, Array<{ minQuantity: number; priceUnits: number }>>> {
    const repos = this.uow.repos;
    const prices = new Map<string, Array<{ minQuantity: number; priceUnits: number }>>();
    const customer = await repos.customers.find(storeId, customerId);
    if (customer === undefined) return prices;
    for (const [sku, { facts }] of await loadFacts(repos, storeId, customer, skus, { at })) {
      const breaks = new Set([1]);
      const rules = [...(facts.trade ? facts.tradeRules : []), ...facts.lists.flatMap((list) => list.rules)];
      for (const rule of rules) if (isValidAt(rule, at)) breaks.add(rule.minQuantity);
      const priceOf = priceBreaks(facts, at);
      prices.set(
        sku,
        [...breaks].sort((a, b) => a - b).map((minQuantity) => ({ minQuantity, priceUnits: priceOf(minQuantity).priceUnits })),
      );
    }
    return prices;
  }

  /**
   * Whether `at` (canonical, as given) is before now: such a request is answered from the book
   * as it was then. Without `at`, or with now or a future moment, the live book is read.
   */
  private isPast(at: string | undefined): at is string {
    return at !== undefined && at < isoTimestamp(this.clock);
  }
}

/** Each line priced by the rule from its SKU's facts. */
function priceFromFacts(factsBySku: ReadonlyMap<string, SkuFacts>, lines: ReadonlyArray<LineToPrice | undefined>, at: string): PricedLines {
    // A SKU on several lines has its winners sorted by break once, and each line finds its own
    // by a binary search; a SKU on one line is resolved directly (its facts are already only
    // the newest valid record of each break).
    const linesOf = new Map<string, number>();
    for (const line of lines) if (line?.quantity !== undefined) linesOf.set(line.sku, (linesOf.get(line.sku) ?? 0) + 1);
    const pricers = new Map<string, (quantity: number) => Resolution>();
    const priced = lines.map((line) => {
      const facts = line === undefined ? undefined : factsBySku.get(line.sku);
      if (line?.quantity === undefined || facts === undefined) return undefined;
      let resolution: Resolution;
      if (linesOf.get(line.sku) === 1) resolution = resolvePrice(facts.facts, line.quantity, at);
      else {
        let pricer = pricers.get(line.sku);
        if (pricer === undefined) pricers.set(line.sku, (pricer = priceBreaks(facts.facts, at)));
        resolution = pricer(line.quantity);
      }
      return {
        ...resolution,
        sku: line.sku,
        quantity: line.quantity,
        productId: facts.catalog.productId,
        variationId: facts.catalog.variationId,
        lineTotalUnits: lineTotalUnits(BigInt(resolution.priceUnits), line.quantity),
        // The entry that prices the line may have a rule of its own (docs/pricing.md, "Quantity rules").
        quantityRule: resolution.quantityRule ?? facts.catalog.quantityRule,
      };
    });
    return { lines: priced, catalog: new Map([...factsBySku].map(([sku, facts]) => [sku, facts.catalog])) };
}

/**
 * The facts of every SKU at once, in at most four queries (a list comes with its rounding). To price at a moment (`at`), only
 * the trade prices and entries that can win then are read, and a customer's trade prices only
 * while they count (a trade customer); an explanation (`explain`) reads every one.
 */
async function loadFacts(
  repos: Repositories,
  storeId: number,
  customer: { id: number; trade: boolean } | undefined,
  skus: readonly string[],
  purpose: { at: string } | { explain: true },
): Promise<Map<string, SkuFacts>> {
  const distinct = [...new Set(skus)];
  const result = new Map<string, SkuFacts>();
  if (distinct.length === 0) return result;
  const at = 'at' in purpose ? purpose.at : undefined;
  const readTrade = customer !== undefined && (customer.trade || at === undefined);
  const [catalog, lists, tradeRules] = await Promise.all([
    repos.pricing.skuPrices(storeId, distinct),
    customer === undefined ? [] : repos.pricing.customerLists(storeId, customer.id),
    readTrade ? repos.pricing.tradeRules(storeId, customer.id, distinct, at) : [],
  ]);
  const fixedListIds = lists.filter((list) => list.kind === 'fixed').map((list) => list.id);
  const entries = fixedListIds.length === 0 ? [] : await repos.pricing.listRules(storeId, fixedListIds, distinct, at);

  const tradeBySku = groupBy(tradeRules, (rule) => rule.sku);
  const entriesBySkuAndList = groupBy(entries, (entry) => `${entry.priceListId}\u0000${entry.sku}`);
  for (const entry of catalog) {
    result.set(entry.sku, {
      catalog: entry,
      facts: {
        trade: customer?.trade ?? false,
        tradeRules: tradeBySku.get(entry.sku) ?? [],
        lists: lists.map((list) => ({ ...list, rules: entriesBySkuAndList.get(`${list.id}\u0000${entry.sku}`) ?? [] })),
        productPriceUnits: entry.productPriceUnits,
        variationPriceUnits: entry.variationPriceUnits,
      },
    });
  }
  return result;
}

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const group = groups.get(key(item));
    if (group === undefined) groups.set(key(item), [item]);
    else group.push(item);
  }
  return groups;
}

import { MAX_ORDER_AMOUNT } from '../../contract/orders.js';
import type { QuantityRule } from '../../contract/quantity-rules.js';
import { quantityBreaks } from '../quantity-rules/quantity-rule.js';
import type { Quote, QuoteInput } from '../../contract/quotes.js';
import type { EffectivePrice } from '../../contract/trade-prices.js';
import { type Clock, isoTimestamp } from '../shared/clock.js';
import { found, notFound, refusedBy, validationFailed } from '../shared/errors.js';
import type { FieldProblem } from '../../contract/errors.js';
import { fromPriceUnits } from '../shared/money.js';
import { amountOf, formatUnits, isOrderAmount, lineTotalUnits } from '../shared/order-amounts.js';
import { canonicalTimestamp, TIMESTAMP_RULE } from '../shared/timestamps.js';
import { longWork } from '../shared/long-work.js';
import type { Repositories, UnitOfWork } from '../shared/unit-of-work.js';
import { type CandidatePage, explainPrice } from './explain-price.js';
import { customerProblem } from './trade-customer.js';
import { priceBreaks } from './price-breaks.js';
import { isValidAt, type Resolution, resolvePrice } from './price-resolution.js';
import type { PricedCustomer } from './pricing-book.js';
import { loadFacts, pricingBook } from './pricing-facts.js';
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
    const moment = at ?? isoTimestamp(this.clock);
    const book = pricingBook(this.uow.repos, storeId, moment, this.isPast(at));
    const customer = found(await book.customer(customerId), `Customer ${customerId}`);
    const work = longWork();
    const facts = (await loadFacts(book, customer, [sku], true)).get(sku);
    if (facts === undefined) throw notFound(`SKU '${sku}'`);
    // Reading thousands of records and weighing them are each a stretch of work that holds the
    // process (on SQLite the read is synchronous): other requests get a turn between the two.
    const records = facts.facts.tradeRules.length + facts.facts.lists.reduce((sum, list) => sum + list.rules.length, 0);
    if (records >= YIELD_ABOVE_RECORDS) await work.rest();
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
    const book = pricingBook(repos, storeId, at, this.isPast(given));
    // The store's currency, which the quote names, is read beside the customer.
    const [customer, terms] = await Promise.all([
      refused(undefined, 'customerId') ? undefined : book.customer(input.customerId),
      repos.pricing.storeTerms(storeId),
    ]);
    const unknown = refused(undefined, 'customerId') ? undefined : customerProblem(`Customer ${input.customerId}`, customer, { trade: false });
    if (unknown !== undefined) problems.push({ field: 'customerId', message: unknown });

    const lines = refused(undefined, 'lines')
      ? []
      : input.lines.map((line, index) => (refused(index, null) || refused(index, 'sku') || refused(index, 'quantity') ? undefined : line));
    const skus = lines.flatMap((line) => (line === undefined ? [] : [line.sku]));
    const factsBySku = await loadFacts(book, customer, skus, false);
    const { lines: priced } = priceFromFacts(factsBySku, lines, at);
    lines.forEach((line, index) => {
      if (line === undefined) return;
      const price = priced[index];
      const broken = price === undefined ? undefined : quantityBreaks(price.quantityRule, price.quantity);
      if (price === undefined) problems.push({ index, field: 'sku', message: `SKU '${line.sku}' does not exist in this store` });
      else if (broken !== undefined) problems.push({ index, field: 'quantity', message: broken });
      else if (!isOrderAmount(price.lineTotalUnits)) {
        problems.push({
          index,
          field: 'quantity',
          message: `makes the line total ${formatUnits(price.lineTotalUnits)}; a line total must be below ${MAX_ORDER_AMOUNT}`,
        });
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
        return {
          sku,
          productId,
          variationId,
          quantity,
          unitPrice: fromPriceUnits(priceUnits),
          lineTotal: amountOf(total),
          source,
          tradePriceId,
          priceListId,
          priceListPriceId,
        };
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
    customer: PricedCustomer | undefined,
    lines: ReadonlyArray<LineToPrice | undefined>,
    at: string,
  ): Promise<PricedLines> {
    const skus = lines.flatMap((line) => (line === undefined ? [] : [line.sku]));
    return priceFromFacts(await loadFacts(pricingBook(repos, storeId, at, false), customer, skus, false), lines, at);
  }

  /**
   * What the customer pays for each SKU at `at`, from each quantity break on: the breaks of
   * every trade price and list entry valid then, and 1. Read from the live book (inside a
   * transaction, as that transaction sees it); an unknown customer prices nothing, and a SKU
   * the store does not have is left out.
   */
  async breakPrices(
    storeId: number,
    customerId: number,
    skus: readonly string[],
    at: string,
  ): Promise<Map<string, Array<{ minQuantity: number; priceUnits: number }>>> {
    const repos = this.uow.repos;
    const prices = new Map<string, Array<{ minQuantity: number; priceUnits: number }>>();
    const book = pricingBook(repos, storeId, at, false);
    const customer = await book.customer(customerId);
    if (customer === undefined) return prices;
    for (const [sku, { facts }] of await loadFacts(book, customer, skus, false)) {
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

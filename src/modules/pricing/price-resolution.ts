import type { PriceListKind, PriceListPolicy } from '../../contract/price-lists.js';
import type { QuantityRule } from '../../contract/quantity-rules.js';
import type { PriceSource } from '../../contract/trade-prices.js';
import { percentageOff, type Rounding } from '../currency/rounding.js';
import { ruleOfColumns } from '../quantity-rules/quantity-rule.js';

/**
 * The one rule that says which price a customer pays (docs/pricing.md). For customer C, SKU S,
 * quantity Q at time T:
 * 1. C's own trade prices for S (only while C is a trade customer), valid at T, with
 *    minQuantity ≤ Q: the highest minQuantity wins, then the newest record (highest id).
 * 2. Otherwise C's price lists in order (its own, then its group's): the first fixed list with an entry for S valid at T
 *    with minQuantity ≤ Q (same tie rule), or the first percentage list, whichever comes first.
 * 3. Otherwise the variation's own price, then the product's.
 * 4. Lists of the policy `lowest` take no turn in step 2. Each that prices S (its entry by the
 *    same tie rule, or its percentage) makes an offer, and C pays the lowest of the offers and
 *    what steps 1–3 picked: on a tie, steps 1–3's pick, then the earlier list.
 *
 * Pure: the effective-price endpoint, quotes and orders all call it with facts they read in a
 * fixed number of queries, so the three can never disagree. `resolveFrom` is the walk over the
 * sources; `resolvePrice` (one line), `priceBreaks` (many lines of one SKU, price-breaks.ts) and
 * `nextChangeAt` (every window bound, next-change.ts) only differ in how they find the winner
 * of each set of rules.
 */

/** A trade price or an entry of a fixed price list, as the rule sees it. */
export interface PriceRule {
  id: number;
  /** Ten-thousandths of the currency unit. */
  priceUnits: number;
  minQuantity: number;
  /** Canonical ISO 8601 UTC; null: no bound. Valid from `validFrom` (inclusive) until `validUntil` (exclusive). */
  validFrom: string | null;
  validUntil: string | null;
  /** A list entry's own quantity rule, as stored (all null or absent: none, the SKU's applies). */
  quantityMinimum?: number | null;
  quantityMaximum?: number | null;
  quantityIncrement?: number | null;
}

export interface ListFacts {
  id: number;
  kind: PriceListKind;
  /** Ten-thousandths of a percent (100 % is 1 000 000); null for a fixed list. */
  percentageUnits: number | null;
  /** `lowest`: the list takes no turn in the walk, and is paid when it is lower (step 4). */
  policy: PriceListPolicy;
  /** How a percentage list's prices round: its own rounding, else the store's (its currency's minor unit, by its mode). */
  rounding: Rounding;
  /** The group the customer has the list through; null: the customer's own (absent: the same). */
  customerGroupId?: number | null;
  /** A fixed list's entries for the SKU. */
  rules: readonly PriceRule[];
}

/** Everything the rule needs to price one SKU for one customer. */
export interface PricingFacts {
  /** Whether the customer is a trade customer now: their trade prices count only then. */
  trade: boolean;
  /** The customer's trade prices for the SKU, in any order. */
  tradeRules: readonly PriceRule[];
  /** The customer's price lists in their order: its own, then its group's. */
  lists: readonly ListFacts[];
  /** The catalog's prices of the SKU, in ten-thousandths; the variation's is null when it has none. */
  productPriceUnits: number;
  variationPriceUnits: number | null;
}

export interface Resolution {
  /** Ten-thousandths of the currency unit, for one unit. */
  priceUnits: number;
  source: PriceSource;
  tradePriceId: number | null;
  priceListId: number | null;
  priceListPriceId: number | null;
  /** When the applied trade price or entry stops applying; null for no end, or a catalog or percentage price. */
  validUntil: string | null;
  /** A computed price (a percentage list's) before its rounding, to 4 decimals; null for a price as stored. */
  unroundedPriceUnits: number | null;
  /** The applied entry's own quantity rule, which a line it prices keeps instead of the SKU's; null: none (the SKU's applies). */
  quantityRule: QuantityRule | null;
}

/** The price `facts` give for `quantity` units at `at` (canonical timestamp). */
export function resolvePrice(facts: PricingFacts, quantity: number, at: string): Resolution {
  return resolveFrom(facts, (set) => bestRule(rulesOfSet(facts, set), quantity, at));
}

/** `resolvePrice`, with how the rule decided (for an explanation). */
export function resolvePriceParts(facts: PricingFacts, quantity: number, at: string): ResolutionParts {
  return resolveParts(facts, (set) => bestRule(rulesOfSet(facts, set), quantity, at));
}

/**
 * The rule, given the winner of each set of rules: set 0 is the trade prices (asked only while
 * the customer is a trade customer), set i + 1 the entries of list i (asked only for a fixed
 * list the walk reaches, and for every fixed `lowest` list). `winner` answers, among the set's
 * rules that apply, the highest break, then the newest record.
 */
export function resolveFrom(
  facts: PricingFacts,
  winner: (set: number) => PriceRule | undefined,
  percentage: PercentagePrice = (list) => fromPercentageList(facts, list),
): Resolution {
  // As `resolveParts`, without keeping the offers: a quote calls this once a line.
  let paid = walk(facts, winner, percentage);
  for (let position = 0; position < facts.lists.length; position++) {
    const offer = offerOf(facts, position, winner, percentage);
    if (offer !== undefined && offer.priceUnits < paid.priceUnits) paid = offer;
  }
  return paid;
}

/** What a percentage list charges (`fromPercentageList`): given apart, so a caller that resolves many times computes it once. */
export type PercentagePrice = (list: ListFacts) => Resolution;

/** How the rule decided: what the walk (steps 1–3) picked, each `lowest` list's offer, and what is paid. */
export interface ResolutionParts {
  walked: Resolution;
  /** By list position; a `lowest` list that prices nothing (no applicable entry) makes none. */
  offers: ReadonlyMap<number, Resolution>;
  paid: Resolution;
}

export function resolveParts(facts: PricingFacts, winner: (set: number) => PriceRule | undefined): ResolutionParts {
  const percentage: PercentagePrice = (list) => fromPercentageList(facts, list);
  const walked = walk(facts, winner, percentage);
  const offers = new Map<number, Resolution>();
  let paid = walked;
  for (let position = 0; position < facts.lists.length; position++) {
    const offer = offerOf(facts, position, winner, percentage);
    if (offer === undefined) continue;
    offers.set(position, offer);
    if (offer.priceUnits < paid.priceUnits) paid = offer;
  }
  return { walked, offers, paid };
}

/** Step 4: what list `position` offers when it is a `lowest` list that prices the SKU. */
function offerOf(facts: PricingFacts, position: number, winner: (set: number) => PriceRule | undefined, percentage: PercentagePrice): Resolution | undefined {
  const list = facts.lists[position]!;
  if (list.policy !== 'lowest') return undefined;
  if (list.kind === 'percentage') return percentage(list);
  const entry = winner(position + 1);
  return entry === undefined ? undefined : fromRule('price_list', entry, list.id);
}

/** Steps 1–3: the trade prices, then the lists that take turns (`first`), then the catalog. */
function walk(facts: PricingFacts, winner: (set: number) => PriceRule | undefined, percentage: PercentagePrice): Resolution {
  const trade = facts.trade ? winner(0) : undefined;
  if (trade !== undefined) return fromRule('trade', trade, null);
  for (let position = 0; position < facts.lists.length; position++) {
    const list = facts.lists[position]!;
    if (list.policy === 'lowest') continue;
    if (list.kind === 'percentage') return percentage(list);
    const entry = winner(position + 1);
    if (entry !== undefined) return fromRule('price_list', entry, list.id);
  }
  return facts.variationPriceUnits !== null ? catalog('variation', facts.variationPriceUnits) : catalog('product', facts.productPriceUnits);
}

/** Whether two resolutions name the same winner (a record, a percentage list, the catalog), and so the same price. */
export function sameWinner(a: Resolution, b: Resolution): boolean {
  return a.source === b.source && a.tradePriceId === b.tradePriceId && a.priceListId === b.priceListId && a.priceListPriceId === b.priceListPriceId;
}

/** The rules of set `set` as `resolveFrom` numbers them: 0 the trade prices, i + 1 list i's entries. */
export function rulesOfSet(facts: PricingFacts, set: number): readonly PriceRule[] {
  return set === 0 ? facts.tradeRules : facts.lists[set - 1]!.rules;
}

/** Whether `a` outranks `b` within one set: the higher break, then the newer record. */
export function outranks(a: PriceRule, b: PriceRule): boolean {
  return a.minQuantity > b.minQuantity || (a.minQuantity === b.minQuantity && a.id > b.id);
}

/** Whether a rule applies at `at`: validFrom ≤ at < validUntil. */
export function isValidAt(rule: Pick<PriceRule, 'validFrom' | 'validUntil'>, at: string): boolean {
  return (rule.validFrom === null || rule.validFrom <= at) && (rule.validUntil === null || at < rule.validUntil);
}

/**
 * What a percentage list charges for the SKU of `facts`: its percentage off, rounded by the
 * list's rounding (its own or the store's), and never above the catalog price (rounding 0.30 up to a whole unit
 * would charge more than the catalog's 0.50).
 */
export function fromPercentageList(facts: PricingFacts, list: ListFacts): Resolution {
  const catalogUnits = facts.variationPriceUnits ?? facts.productPriceUnits;
  const { priceUnits, unroundedUnits } = percentageOff(catalogUnits, list.percentageUnits ?? 0, list.rounding);
  return {
    priceUnits: Math.min(priceUnits, catalogUnits),
    source: 'price_list',
    tradePriceId: null,
    priceListId: list.id,
    priceListPriceId: null,
    validUntil: null,
    unroundedPriceUnits: unroundedUnits,
    quantityRule: null,
  };
}

/** Of the rules that apply at `at` to `quantity` units, the highest break, then the newest. */
function bestRule(rules: readonly PriceRule[], quantity: number, at: string): PriceRule | undefined {
  let best: PriceRule | undefined;
  for (const rule of rules) {
    if (rule.minQuantity > quantity || !isValidAt(rule, at)) continue;
    if (best === undefined || outranks(rule, best)) best = rule;
  }
  return best;
}

function fromRule(source: 'trade' | 'price_list', rule: PriceRule, priceListId: number | null): Resolution {
  return {
    priceUnits: rule.priceUnits,
    source,
    tradePriceId: source === 'trade' ? rule.id : null,
    priceListId,
    priceListPriceId: source === 'price_list' ? rule.id : null,
    validUntil: rule.validUntil,
    unroundedPriceUnits: null,
    quantityRule: ruleOf(rule),
  };
}

/** An entry's own quantity rule from its stored fields (a trade price has none). */
function ruleOf(rule: PriceRule): QuantityRule | null {
  return ruleOfColumns({
    quantity_minimum: rule.quantityMinimum ?? null,
    quantity_maximum: rule.quantityMaximum ?? null,
    quantity_increment: rule.quantityIncrement ?? null,
  });
}

function catalog(source: 'variation' | 'product', priceUnits: number): Resolution {
  return { priceUnits, source, tradePriceId: null, priceListId: null, priceListPriceId: null, validUntil: null, unroundedPriceUnits: null, quantityRule: null };
}

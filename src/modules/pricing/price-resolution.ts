import type { PriceListKind } from '../../contract/price-lists.js';
import type { PriceCandidate, PriceSource } from '../../contract/trade-prices.js';
import { fromPriceUnits } from '../money.js';

/**
 * The one rule that says which price a customer pays (docs/pricing.md). For customer C, SKU S,
 * quantity Q at time T:
 * 1. C's own trade prices for S (only while C is a trade customer), valid at T, with
 *    minQuantity ≤ Q: the highest minQuantity wins, then the newest record (highest id).
 * 2. Otherwise C's price lists in order: the first fixed list with an entry for S valid at T
 *    with minQuantity ≤ Q (same tie rule), or the first percentage list, whichever comes first.
 * 3. Otherwise the variation's own price, then the product's.
 *
 * Pure: the effective-price endpoint, quotes and orders all call it with facts they read in a
 * fixed number of queries, so the three can never disagree.
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
}

export interface ListFacts {
  id: number;
  kind: PriceListKind;
  /** Ten-thousandths of a percent (100 % is 1 000 000); null for a fixed list. */
  percentageUnits: number | null;
  /** A fixed list's entries for the SKU. */
  rules: readonly PriceRule[];
}

/** Everything the rule needs to price one SKU for one customer. */
export interface PricingFacts {
  /** Whether the customer is a trade customer now: their trade prices count only then. */
  trade: boolean;
  /** The customer's trade prices for the SKU, in any order. */
  tradeRules: readonly PriceRule[];
  /** The customer's price lists in their order. */
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
}

export interface Explanation extends Resolution {
  /** The earliest moment after `at` at which the resolution at this quantity differs; null: never. */
  nextChangeAt: string | null;
  /** The other trade prices for the SKU, newest first. */
  shadowedTradePriceIds: number[];
  candidates: PriceCandidate[];
}

/** The price `facts` give for `quantity` units at `at` (canonical timestamp). */
export function resolvePrice(facts: PricingFacts, quantity: number, at: string): Resolution {
  const trade = facts.trade ? bestRule(facts.tradeRules, quantity, at) : undefined;
  if (trade !== undefined) return fromRule('trade', trade, null);
  for (const list of facts.lists) {
    if (list.kind === 'percentage') return fromPercentageList(facts, list);
    const entry = bestRule(list.rules, quantity, at);
    if (entry !== undefined) return fromRule('price_list', entry, list.id);
  }
  return facts.variationPriceUnits !== null ? catalog('variation', facts.variationPriceUnits) : catalog('product', facts.productPriceUnits);
}

/** `resolvePrice`, with every candidate the rule looked at and why each does or does not apply. */
export function explainPrice(facts: PricingFacts, quantity: number, at: string): Explanation {
  const resolution = resolvePrice(facts, quantity, at);
  const winnerKey = keyOf(resolution);
  const tradeRules = newestFirst(facts.tradeRules);
  const candidates: PriceCandidate[] = [];

  const tradeWinner = resolution.source === 'trade' ? tradeRules.find((rule) => rule.id === resolution.tradePriceId) : undefined;
  for (const rule of tradeRules) {
    const reason = !facts.trade ? 'customer is not a trade customer' : (ineligibility(rule, quantity, at) ?? (rule === tradeWinner ? null : lostTo(rule, tradeWinner)));
    candidates.push(candidate('trade', rule, null, reason));
  }

  const winningList = resolution.source === 'price_list' ? facts.lists.findIndex((list) => list.id === resolution.priceListId) : -1;
  facts.lists.forEach((list, position) => {
    // Eligible candidates outside the winning list lost to the source that won.
    const outranked = resolution.source === 'trade' ? 'trade price wins' : 'earlier price list wins';
    if (list.kind === 'percentage') {
      const applies = position === winningList;
      const percentage = fromPercentageList(facts, list);
      // A percentage list prices every SKU: reached, it wins; not reached, something before it won.
      const reason = applies ? null : outranked;
      candidates.push({
        source: 'price_list',
        tradePriceId: null,
        priceListId: list.id,
        priceListPriceId: null,
        price: fromPriceUnits(percentage.priceUnits),
        minQuantity: 1,
        validFrom: null,
        validUntil: null,
        applies,
        reason,
      });
      return;
    }
    const listWinner = position === winningList ? list.rules.find((rule) => rule.id === resolution.priceListPriceId) : undefined;
    for (const rule of newestFirst(list.rules)) {
      const own = ineligibility(rule, quantity, at);
      const reason = own ?? (position === winningList ? (rule === listWinner ? null : lostTo(rule, listWinner)) : outranked);
      candidates.push(candidate('price_list', rule, list.id, reason));
    }
  });

  return {
    ...resolution,
    nextChangeAt: nextChange(facts, quantity, at, winnerKey),
    shadowedTradePriceIds: tradeRules.filter((rule) => rule.id !== resolution.tradePriceId).map((rule) => rule.id),
    candidates,
  };
}

/** Whether a rule applies at `at`: validFrom ≤ at < validUntil. */
export function isValidAt(rule: Pick<PriceRule, 'validFrom' | 'validUntil'>, at: string): boolean {
  return (rule.validFrom === null || rule.validFrom <= at) && (rule.validUntil === null || at < rule.validUntil);
}

/**
 * A percentage off a catalog price, rounded half-up to 4 decimals: in BigInt, since a price of
 * 10^13 units times 10^6 is beyond a double's exact integers.
 */
export function percentageOff(catalogUnits: number, percentageUnits: number): number {
  const kept = BigInt(catalogUnits) * BigInt(1_000_000 - percentageUnits);
  return Number((kept + 500_000n) / 1_000_000n);
}

/** Of the rules that apply at `at` to `quantity` units, the highest break, then the newest. */
function bestRule(rules: readonly PriceRule[], quantity: number, at: string): PriceRule | undefined {
  let best: PriceRule | undefined;
  for (const rule of rules) {
    if (rule.minQuantity > quantity || !isValidAt(rule, at)) continue;
    if (best === undefined || rule.minQuantity > best.minQuantity || (rule.minQuantity === best.minQuantity && rule.id > best.id)) best = rule;
  }
  return best;
}

/** Why a rule cannot apply by itself, or undefined when it could. */
function ineligibility(rule: PriceRule, quantity: number, at: string): string | undefined {
  if (rule.validFrom !== null && at < rule.validFrom) return `not valid until ${rule.validFrom}`;
  if (rule.validUntil !== null && at >= rule.validUntil) return `expired ${rule.validUntil}`;
  if (rule.minQuantity > quantity) return `below minimum quantity ${rule.minQuantity}`;
  return undefined;
}

/** Why an applicable rule lost to the winner of its own set. */
function lostTo(rule: PriceRule, winner: PriceRule | undefined): string {
  return winner !== undefined && winner.minQuantity > rule.minQuantity ? 'higher quantity break wins' : 'newer record wins';
}

/**
 * Between two consecutive bounds of the rules the answer cannot change: the first bound after
 * `at` where resolving again gives another answer is the next change.
 */
function nextChange(facts: PricingFacts, quantity: number, at: string, current: string): string | null {
  const rules = [...(facts.trade ? facts.tradeRules : []), ...facts.lists.flatMap((list) => list.rules)];
  const bounds = new Set<string>();
  for (const rule of rules) {
    if (rule.validFrom !== null && rule.validFrom > at) bounds.add(rule.validFrom);
    if (rule.validUntil !== null && rule.validUntil > at) bounds.add(rule.validUntil);
  }
  for (const bound of [...bounds].sort()) {
    if (keyOf(resolvePrice(facts, quantity, bound)) !== current) return bound;
  }
  return null;
}

function keyOf(resolution: Resolution): string {
  return `${resolution.source}:${resolution.priceUnits}:${resolution.tradePriceId}:${resolution.priceListId}:${resolution.priceListPriceId}`;
}

function newestFirst(rules: readonly PriceRule[]): PriceRule[] {
  return [...rules].sort((a, b) => b.id - a.id);
}

function fromRule(source: 'trade' | 'price_list', rule: PriceRule, priceListId: number | null): Resolution {
  return {
    priceUnits: rule.priceUnits,
    source,
    tradePriceId: source === 'trade' ? rule.id : null,
    priceListId,
    priceListPriceId: source === 'price_list' ? rule.id : null,
    validUntil: rule.validUntil,
  };
}

function fromPercentageList(facts: PricingFacts, list: ListFacts): Resolution {
  const catalogUnits = facts.variationPriceUnits ?? facts.productPriceUnits;
  return { priceUnits: percentageOff(catalogUnits, list.percentageUnits ?? 0), source: 'price_list', tradePriceId: null, priceListId: list.id, priceListPriceId: null, validUntil: null };
}

function catalog(source: 'variation' | 'product', priceUnits: number): Resolution {
  return { priceUnits, source, tradePriceId: null, priceListId: null, priceListPriceId: null, validUntil: null };
}

function candidate(source: 'trade' | 'price_list', rule: PriceRule, priceListId: number | null, reason: string | null | undefined): PriceCandidate {
  return {
    source,
    tradePriceId: source === 'trade' ? rule.id : null,
    priceListId,
    priceListPriceId: source === 'price_list' ? rule.id : null,
    price: fromPriceUnits(rule.priceUnits),
    minQuantity: rule.minQuantity,
    validFrom: rule.validFrom,
    validUntil: rule.validUntil,
    applies: reason === null,
    reason: reason ?? null,
  };
}

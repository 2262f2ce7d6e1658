import type { PriceCandidate } from '../../contract/trade-prices.js';
import { fromPriceUnits } from '../shared/money.js';
import { nextChangeAt } from './next-change.js';
import { fromPercentageList, type ListFacts, type PriceRule, type PricingFacts, type Resolution, resolvePriceParts, sameWinner } from './price-resolution.js';

/** Which candidates to list: `count` of them from position `offset` (from 0) in the rule's order. */
export interface CandidatePage {
  offset: number;
  count: number;
}

export interface Explanation extends Resolution {
  /** The earliest moment after `at` at which the resolution at this quantity differs; null: never. */
  nextChangeAt: string | null;
  /** The other trade prices for the SKU, newest first: all of them. */
  shadowedTradePriceIds: number[];
  /** The page of candidates asked for. */
  candidates: PriceCandidate[];
  /** How many candidates there are in all. */
  candidateCount: number;
}

/**
 * `resolvePrice`, with the candidates the rule looked at (one page of them) and why each does or
 * does not apply. Every trade price is a candidate (newest first), then each list's entries
 * (newest first) or the percentage list itself, in the customer's order of lists. What the
 * walk picked, and each `lowest` list's offer, loses with "lower price wins" (or, for an offer
 * on a tie, "same price: the rule's own pick stays" or "…: an earlier lowest-price list wins")
 * when something else is paid. Costs
 * O(N log N) for N trade prices and entries (the sorts and `nextChangeAt`), and only the
 * page's candidates are built.
 */
export function explainPrice(facts: PricingFacts, quantity: number, at: string, page: CandidatePage): Explanation {
  const { walked, offers, paid: resolution } = resolvePriceParts(facts, quantity, at);
  const tradeRules = newestFirst(facts.tradeRules);
  const tradeWinner = walked.source === 'trade' ? tradeRules.find((rule) => rule.id === walked.tradePriceId) : undefined;
  const winningList = walked.source === 'price_list' ? facts.lists.findIndex((list) => list.policy === 'first' && list.id === walked.priceListId) : -1;
  // Eligible candidates of the walk outside the list it reached lost to the source it picked.
  const outranked = walked.source === 'trade' ? 'trade price wins' : 'earlier price list wins';
  /**
   * Why the walk's pick or a `lowest` list's offer is not paid, or null when it is. Only an
   * offer loses a tie: to the walk's pick, or to an earlier `lowest` list.
   */
  const weighed = (offer: Resolution): string | null => {
    if (sameWinner(offer, resolution)) return null;
    if (offer.priceUnits > resolution.priceUnits) return 'lower price wins';
    return sameWinner(walked, resolution) ? "same price: the rule's own pick stays" : 'same price: an earlier lowest-price list wins';
  };

  /** One stretch of candidates in the rule's order: its length, and how to make its i-th. */
  interface Stretch {
    size: number;
    at(index: number): PriceCandidate;
  }
  const stretches: Stretch[] = [
    {
      size: tradeRules.length,
      at: (index) => {
        const rule = tradeRules[index]!;
        const reason = !facts.trade
          ? 'customer is not a trade customer'
          : (ineligibility(rule, quantity, at) ?? (rule === tradeWinner ? weighed(walked) : lostTo(rule, tradeWinner)));
        return candidate('trade', rule, null, reason);
      },
    },
  ];
  facts.lists.forEach((list, position) => {
    if (list.kind === 'percentage') {
      // A percentage list prices every SKU: reached (or `lowest`), it is weighed; not reached,
      // something before it won.
      const percentage = fromPercentageList(facts, list);
      const reason = list.policy === 'lowest' ? weighed(percentage) : position === winningList ? weighed(walked) : outranked;
      stretches.push({
        size: 1,
        at: () => ({
          source: 'price_list',
          tradePriceId: null,
          priceListId: list.id,
          priceListPriceId: null,
          ...throughGroup(list),
          price: fromPriceUnits(percentage.priceUnits),
          unroundedPrice: fromPriceUnits(percentage.unroundedPriceUnits ?? percentage.priceUnits),
          minQuantity: 1,
          validFrom: null,
          validUntil: null,
          applies: reason === null,
          reason,
        }),
      });
      return;
    }
    let sorted: PriceRule[] | undefined;
    // The list's own winner: the walk's pick when the walk reached it, or its offer (`lowest`).
    const pick = list.policy === 'lowest' ? offers.get(position) : position === winningList ? walked : undefined;
    const listWinner = pick === undefined ? undefined : list.rules.find((rule) => rule.id === pick.priceListPriceId);
    stretches.push({
      size: list.rules.length,
      at: (index) => {
        // Sorted only when the page reaches this list.
        sorted ??= newestFirst(list.rules);
        const rule = sorted[index]!;
        const reason = ineligibility(rule, quantity, at) ?? (pick !== undefined ? (rule === listWinner ? weighed(pick) : lostTo(rule, listWinner)) : outranked);
        return { ...candidate('price_list', rule, list.id, reason), ...throughGroup(list) };
      },
    });
  });

  const candidates: PriceCandidate[] = [];
  let skip = page.offset;
  for (const stretch of stretches) {
    if (candidates.length >= page.count) break;
    if (skip >= stretch.size) {
      skip -= stretch.size;
      continue;
    }
    for (let index = skip; index < stretch.size && candidates.length < page.count; index++) candidates.push(stretch.at(index));
    skip = 0;
  }

  const shadowedTradePriceIds: number[] = [];
  for (const rule of tradeRules) if (rule.id !== resolution.tradePriceId) shadowedTradePriceIds.push(rule.id);
  return {
    ...resolution,
    nextChangeAt: nextChangeAt(facts, quantity, at),
    shadowedTradePriceIds,
    candidates,
    candidateCount: stretches.reduce((sum, stretch) => sum + stretch.size, 0),
  };
}

/** `customerGroupId` for the candidates of a list the customer has through its group; nothing for its own. */
function throughGroup(list: ListFacts): Pick<PriceCandidate, 'customerGroupId'> {
  return list.customerGroupId === null || list.customerGroupId === undefined ? {} : { customerGroupId: list.customerGroupId };
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

function newestFirst(rules: readonly PriceRule[]): PriceRule[] {
  return [...rules].sort((a, b) => b.id - a.id);
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

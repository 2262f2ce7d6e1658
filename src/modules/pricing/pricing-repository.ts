import type { QuantityRule } from '../../contract/quantity-rules.js';
import type { PriceListKind, PriceListPolicy } from '../../contract/price-lists.js';
import type { Rounding } from '../currency/rounding.js';
import type { PriceRule, PricingFacts } from './price-resolution.js';

/** A SKU of the store with the catalog prices that apply when no trade price or list does. */
export interface SkuPrice {
  sku: string;
  productId: number;
  variationId: number | null;
  /** Ten-thousandths. */
  productPriceUnits: number;
  /** Ten-thousandths; null when the variation has no price of its own (or the SKU is the product's). */
  variationPriceUnits: number | null;
  /** How many units a line may order: the variation's own rule, else the product's; null: none. */
  quantityRule: QuantityRule | null;
}

/** One SKU's catalog entry and everything the rule weighs for it. */
export interface SkuFacts {
  catalog: SkuPrice;
  facts: PricingFacts;
}

/** What a price list contributes to the rule, besides its entries. */
export interface PriceListTerms {
  id: number;
  kind: PriceListKind;
  /** Ten-thousandths of a percent; null for a fixed list. */
  percentageUnits: number | null;
  policy: PriceListPolicy;
  /** How its prices round: the list's own rounding, else the store's (the list is read with its store). */
  rounding: Rounding;
  /** The group the customer has the list through; null: the customer's own. */
  customerGroupId: number | null;
}

/** The policy a list applies by for a customer: a `lowest` group's lists are all lowest-price lists; otherwise the list's own. */
export function groupedPolicy(own: PriceListPolicy, groupPolicy: string | null | undefined): PriceListPolicy {
  return groupPolicy === 'lowest' ? 'lowest' : own;
}

/**
 * A customer's lists as the rule walks them: its own in their order, then its group's, each
 * list once (a list the customer has itself keeps its own place).
 */
export function ownThenGroup<T extends { id: number }>(lists: readonly T[]): T[] {
  const seen = new Set<number>();
  return lists.filter((list) => !seen.has(list.id) && seen.add(list.id));
}

/**
 * The reads behind the resolution rule: each takes every SKU of a request at once, so pricing
 * 1 line or 1000 costs the same number of queries.
 */
/** The store's currency and the rounding of the prices it computes. */
export interface StoreTerms {
  currency: string;
  rounding: Rounding;
}

export interface PricingRepository {
  /** The store's currency and rounding (a quote names the currency; an as-of read rounds by it). */
  storeTerms(storeId: number): Promise<StoreTerms>;
  /** Catalog prices of these SKUs; unknown SKUs are absent. */
  skuPrices(storeId: number, skus: readonly string[]): Promise<SkuPrice[]>;
  /** The customer's price lists in their order, then its group's (`ownThenGroup`), each with the rounding its prices take (read with the store's in one query). */
  customerLists(storeId: number, customerId: number): Promise<PriceListTerms[]>;
  /**
   * The customer's trade prices for these SKUs. With `validAt`, at least those that can win
   * then (valid at that moment, the newest of each SKU and quantity break: the rule never looks
   * past them), maybe more; without, all of them (an explanation lists every one).
   */
  tradeRules(storeId: number, customerId: number, skus: readonly string[], validAt?: string): Promise<Array<PriceRule & { sku: string }>>;
  /** The entries of these lists for these SKUs; `validAt` as for `tradeRules`, per list. */
  listRules(
    storeId: number,
    priceListIds: readonly number[],
    skus: readonly string[],
    validAt?: string,
  ): Promise<Array<PriceRule & { sku: string; priceListId: number }>>;
}

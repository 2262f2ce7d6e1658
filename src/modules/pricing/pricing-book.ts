import type { PriceRule } from './price-resolution.js';
import type { PriceListTerms, SkuPrice } from './pricing-repository.js';

/** A customer as the rule weighs it: its trade flag, its own lists and its group. */
export interface PricedCustomer {
  id: number;
  trade: boolean;
  priceListIds: number[];
  /** Its group; null: none. */
  customerGroupId: number | null;
}

/**
 * A trade price or list entry as a book reads it: the rule and its SKU, and, where the read
 * cannot tell whether the record's product owned the SKU at the moment (a past one), the
 * product it was recorded for.
 */
export type BookRule = PriceRule & { sku: string; productId?: number };

/**
 * The reads behind the resolution rule at one moment: the live book (`liveBook`) or the book as
 * it stood at a past moment (`bookAsOf`, from the history). Each takes every SKU of a request at
 * once. A fact the rule comes to weigh is read here, in both books, and put together in
 * `loadFacts`, once.
 */
export interface PricingBook {
  /** The customer then; undefined when it did not exist. */
  customer(customerId: number): Promise<PricedCustomer | undefined>;
  /** The catalog entries of these SKUs then, in the read's order; a SKU nobody had is absent. */
  catalog(skus: readonly string[]): Promise<ReadonlyMap<string, SkuPrice>>;
  /** The customer's lists as the rule walks them: its own, then its group's, each once. */
  customerLists(customer: PricedCustomer): Promise<PriceListTerms[]>;
  /** The customer's trade prices for these SKUs: those that can win (`every` false) or every one (an explanation). */
  tradeRules(customerId: number, skus: readonly string[], every: boolean): Promise<BookRule[]>;
  /** The entries of these lists for these SKUs; `every` as for trade prices. */
  listRules(priceListIds: readonly number[], skus: readonly string[], every: boolean): Promise<Array<BookRule & { priceListId: number }>>;
}

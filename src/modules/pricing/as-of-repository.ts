import type { QuantityRule } from '../../contract/quantity-rules.js';
import type { PriceListTerms } from './pricing-repository.js';

/** A list's own terms, before the rule knows whose it is. */
export type ListTermsOfRow = Omit<PriceListTerms, 'customerGroupId'>;
import type { PriceRule } from './price-resolution.js';

/** The scalar resources whose state at a moment the history gives (design rule 4, docs/history.md). */
export type StatefulResource = 'customer' | 'customer_group' | 'price_list' | 'product' | 'variation';

/** A trade price or list entry that existed at a moment, with the product it was recorded for. */
export type RuleAsOf = PriceRule & { sku: string; productId: number };

/** A product or variation as the catalog holds it now (prices in ten-thousandths). */
export interface CatalogRow {
  id: number;
  productId: number;
  sku: string | null;
  priceUnits: number | null;
  /** Its own quantity rule then; null: none. */
  quantityRule: QuantityRule | null;
  createdAt: string;
}

/**
 * The reads behind an as-of price (docs/history.md, "As-of reads"): the history's records
 * around a moment, the trade prices and entries that existed then (live ones created by then,
 * deleted ones created by then and deleted after), and the current rows a resource without
 * history falls back to. Each takes all the ids or SKUs of a request at once.
 */
export interface PricingAsOfRepository {
  /**
   * Each resource's record at `at` as the API showed it: the `after` of its latest entry at or
   * before `at`, else the `before` of its earliest entry after `at` (null: it did not exist
   * then). A resource with no entries at all is absent from the map.
   */
  statesAt(storeId: number, resource: StatefulResource, ids: readonly number[], at: string): Promise<Map<number, Record<string, unknown> | null>>;
  /** The products and variations whose entries name one of these SKUs. */
  skuHolders(storeId: number, skus: readonly string[]): Promise<Array<{ resource: 'product' | 'variation'; id: number }>>;
  /** The customer's trade prices for these SKUs that existed at `at`; with `validOnly`, only those valid then. */
  tradeRulesAt(storeId: number, customerId: number, skus: readonly string[], at: string, validOnly: boolean): Promise<RuleAsOf[]>;
  /** The entries of these lists for these SKUs that existed at `at`; `validOnly` as for trade prices. */
  listRulesAt(
    storeId: number,
    priceListIds: readonly number[],
    skus: readonly string[],
    at: string,
    validOnly: boolean,
  ): Promise<Array<RuleAsOf & { priceListId: number }>>;
  /** The lists' current terms and creation moment (for lists without history); missing ids are absent. */
  currentLists(storeId: number, ids: readonly number[]): Promise<Array<ListTermsOfRow & { createdAt: string }>>;
  /** Current products (`productId` = `id`) and variations; missing ids are absent. */
  currentProducts(storeId: number, ids: readonly number[]): Promise<CatalogRow[]>;
  currentVariations(storeId: number, ids: readonly number[]): Promise<CatalogRow[]>;
}

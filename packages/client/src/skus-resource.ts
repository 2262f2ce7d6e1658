import type { Caller } from './api-caller.js';
import type { SkuLookupResult, SkuSearchItem, SkuSearchQuery } from './types.js';

/** SKUs in one lookup request: the API's limit. */
export const MAX_LOOKUP_SKUS = 1000;

/** How many unknown SKUs an `UnknownSkusError`'s message names; `skus` holds every one. */
const NAMED_IN_MESSAGE = 20;

/** An item of a trade price bulk create or replace that may name its product by SKU alone (`WithOptionalProductId<TradePriceInput>`). */
export type WithOptionalProductId<T extends { productId: number; sku: string }> = Omit<T, 'productId'> & { productId?: number };

/** Thrown by `fillProductIds` when SKUs are not in the store: nothing was sent but lookups. */
export class UnknownSkusError extends Error {
  /** Every unknown SKU, each once, in the order of the items. */
  readonly skus: readonly string[];

  constructor(skus: readonly string[]) {
    const named = skus.slice(0, NAMED_IN_MESSAGE).map((sku) => JSON.stringify(sku));
    const more = skus.length > NAMED_IN_MESSAGE ? ` and ${skus.length - NAMED_IN_MESSAGE} more` : '';
    super(`${skus.length} SKU${skus.length === 1 ? ' is' : 's are'} not in this store: ${named.join(', ')}${more}`);
    this.name = 'UnknownSkusError';
    this.skus = skus;
  }
}

/** `POST /v1/skus/lookup`: SKUs to product and variation ids and catalog prices; `GET /v1/skus`: SKUs found by part of them. */
export class SkusResource {
  constructor(private readonly api: Caller) {}

  /**
   * One lookup as the API takes it: 1–1000 SKUs, compared exactly. Known SKUs come back in
   * request order with `productId`, `variationId` (null for a product's own SKU) and the catalog
   * `price`; the others are listed in `unknown`.
   */
  lookup(skus: readonly string[]): Promise<SkuLookupResult> {
    return this.api.call('skus.lookup', { body: { skus: [...skus] } });
  }

  /**
   * Up to `count` (default 20, at most 50) of the store's SKUs containing `contains`, the
   * letters A–Z in either case, in code point order, each with its product's title and catalog
   * price: for a SKU picker. One request.
   */
  search(query: SkuSearchQuery): Promise<SkuSearchItem[]> {
    return this.api.call('skus.search', { query });
  }

  /**
   * The items with `productId` filled from their SKU, for `tradePrices.bulkCreate` and
   * `replaceCustomerPrices` when the caller knows SKUs only. An item that already has a
   * `productId` keeps it. The SKUs without one are looked up once each, 1000 a request; if any
   * is not in the store, throws an `UnknownSkusError` listing them, and no item is returned.
   */
  async fillProductIds<I extends { sku: string; productId?: number }>(items: readonly I[]): Promise<Array<I & { productId: number }>> {
    const wanted = [...new Set(items.filter((item) => item.productId === undefined).map((item) => item.sku))];
    const productIds = new Map<string, number>();
    const unknown: string[] = [];
    for (let start = 0; start < wanted.length; start += MAX_LOOKUP_SKUS) {
      const answer = await this.lookup(wanted.slice(start, start + MAX_LOOKUP_SKUS));
      for (const found of answer.found) productIds.set(found.sku, found.productId);
      unknown.push(...answer.unknown);
    }
    if (unknown.length > 0) throw new UnknownSkusError(unknown);
    // Every SKU without a productId was looked up above, and none is unknown: the map has it.
    return items.map((item) => ({ ...item, productId: item.productId ?? productIds.get(item.sku)! }));
  }
}

import type { Repositories } from '../shared/unit-of-work.js';
import { bookAsOf } from './as-of-facts.js';
import type { BookRule, PricedCustomer, PricingBook } from './pricing-book.js';
import type { SkuFacts } from './pricing-repository.js';

/**
 * Where a request's facts come from: the book as it stood at `at` when `past`, else the live
 * book (priced at `at`).
 */
export function pricingBook(repos: Repositories, storeId: number, at: string, past: boolean): PricingBook {
  return past ? bookAsOf(repos, storeId, at) : liveBook(repos, storeId, at);
}

/**
 * The facts of every SKU at once, in a fixed number of queries whatever the SKUs: the catalog,
 * the customer's lists, its trade prices (read only while they count, a trade customer, unless
 * explained), then the fixed lists' entries. To price (`explain` false) only the records that
 * can win are read; an explanation reads every one.
 */
export async function loadFacts(
  book: PricingBook,
  customer: PricedCustomer | undefined,
  skus: readonly string[],
  explain: boolean,
): Promise<Map<string, SkuFacts>> {
  const distinct = [...new Set(skus)];
  const result = new Map<string, SkuFacts>();
  if (distinct.length === 0) return result;
  const readTrade = customer !== undefined && (customer.trade || explain);
  const [catalog, lists, tradeRules] = await Promise.all([
    book.catalog(distinct),
    customer === undefined ? [] : book.customerLists(customer),
    readTrade ? book.tradeRules(customer.id, distinct, explain) : [],
  ]);
  const fixedListIds = lists.filter((list) => list.kind === 'fixed').map((list) => list.id);
  const entries = fixedListIds.length === 0 ? [] : await book.listRules(fixedListIds, distinct, explain);

  // A record counts only for the product that owned its SKU at the moment (docs/pricing.md).
  const owned = (rule: BookRule) => rule.productId === undefined || catalog.get(rule.sku)?.productId === rule.productId;
  const tradeBySku = Map.groupBy(tradeRules.filter(owned), (rule) => rule.sku);
  const entriesBySkuAndList = Map.groupBy(entries.filter(owned), (entry) => `${entry.priceListId}\u0000${entry.sku}`);
  for (const entry of catalog.values()) {
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

/** The live book, priced at `at`: its records are those of the product that owns each SKU now (the reads join it). */
function liveBook(repos: Repositories, storeId: number, at: string): PricingBook {
  const validAt = (every: boolean) => (every ? undefined : at);
  return {
    customer: (customerId) => repos.customers.find(storeId, customerId),
    catalog: async (skus) => new Map((await repos.pricing.skuPrices(storeId, skus)).map((price) => [price.sku, price])),
    customerLists: (customer) => repos.pricing.customerLists(storeId, customer.id),
    tradeRules: (customerId, skus, every) => repos.pricing.tradeRules(storeId, customerId, skus, validAt(every)),
    listRules: (priceListIds, skus, every) => repos.pricing.listRules(storeId, priceListIds, skus, validAt(every)),
  };
}

import type { QuantityRule } from '../../contract/quantity-rules.js';
import { isRoundingMode, type Rounding } from '../currency/rounding.js';
import { toPriceUnits } from '../money.js';
import type { Repositories } from '../unit-of-work.js';
import type { CatalogRow, ListTermsOfRow, RuleAsOf, StatefulResource } from './as-of-repository.js';
import type { PriceRule } from './price-resolution.js';
import { groupedPolicy, ownThenGroup, type PriceListTerms, type SkuFacts, type SkuPrice } from './pricing-repository.js';

/*
 * The facts of the resolution rule as they stood at a past moment T (docs/history.md, "As-of
 * reads"), so an effective price or a quote asked `at` T answers what the server answered then.
 * A scalar resource (customer, list, product, variation) is as its history says (design rule 4):
 * the latest entry at or before T gives its record, else the earliest after T its `before`; one
 * with no entries at all is as its current row (it has not changed since history began), if
 * that row was created by T. Trade
 * prices and list entries are the live ones created by T and the deleted ones created by T and
 * deleted after it. The rule itself (`price-resolution.ts`) is the live one.
 */

/** A customer as the rule saw it at T. */
export interface CustomerAsOf {
  id: number;
  trade: boolean;
  priceListIds: number[];
  /** Its group then; null: none (a record from before groups names none). */
  customerGroupId: number | null;
}

/** The customer at `at`; undefined when it did not exist then (or has neither history nor a row). */
export async function customerAsOf(repos: Repositories, storeId: number, customerId: number, at: string): Promise<CustomerAsOf | undefined> {
  const states = await repos.pricingAsOf.statesAt(storeId, 'customer', [customerId], at);
  if (!states.has(customerId)) {
    const current = await repos.customers.find(storeId, customerId);
    return current === undefined || current.createdAt > at ? undefined : { id: current.id, trade: current.trade, priceListIds: current.priceListIds, customerGroupId: current.customerGroupId };
  }
  const record = states.get(customerId);
  if (record === null || record === undefined) return undefined;
  const group = record.customerGroupId;
  return { id: customerId, trade: record.trade === true, priceListIds: numbers(record.priceListIds), customerGroupId: typeof group === 'number' ? group : null };
}

/**
 * The facts of every SKU at `at`, in a fixed number of queries whatever the SKUs: the
 * customer's lists then, the catalog then, the trade prices and entries that existed then (of
 * the product that owned the SKU then). To price (`explain` false) only the records valid at
 * `at` are read; an explanation reads every one that existed.
 */
export async function loadFactsAsOf(repos: Repositories, storeId: number, customer: CustomerAsOf | undefined, skus: readonly string[], at: string, explain: boolean): Promise<Map<string, SkuFacts>> {
  const distinct = [...new Set(skus)];
  const result = new Map<string, SkuFacts>();
  if (distinct.length === 0) return result;
  const readTrade = customer !== undefined && (customer.trade || explain);
  const [catalog, lists, tradeRules] = await Promise.all([
    catalogAsOf(repos, storeId, distinct, at),
    customer === undefined ? [] : customerListsAsOf(repos, storeId, customer, at),
    readTrade ? repos.pricingAsOf.tradeRulesAt(storeId, customer.id, distinct, at, !explain) : [],
  ]);
  const fixedListIds = lists.filter((list) => list.kind === 'fixed').map((list) => list.id);
  const entries = fixedListIds.length === 0 ? [] : await repos.pricingAsOf.listRulesAt(storeId, fixedListIds, distinct, at, !explain);

  // A record counts only for the product that owned its SKU at T (docs/pricing.md).
  const owned = (rule: RuleAsOf) => catalog.get(rule.sku)?.productId === rule.productId;
  const tradeBySku = groupBy(tradeRules.filter(owned), (rule) => rule.sku);
  const entriesBySkuAndList = groupBy(entries.filter(owned), (entry) => `${entry.priceListId}\u0000${entry.sku}`);
  for (const entry of catalog.values()) {
    result.set(entry.sku, {
      catalog: entry,
      facts: {
        trade: customer?.trade ?? false,
        tradeRules: (tradeBySku.get(entry.sku) ?? []).map(asRule),
        lists: lists.map((list) => ({ ...list, rules: (entriesBySkuAndList.get(`${list.id}\u0000${entry.sku}`) ?? []).map(asRule) })),
        productPriceUnits: entry.productPriceUnits,
        variationPriceUnits: entry.variationPriceUnits,
      },
    });
  }
  return result;
}

/**
 * The customer's lists at `at` as the rule walked them then: its own, then its group's as the
 * group was then (a group that did not exist then gives none), each list once.
 */
async function customerListsAsOf(repos: Repositories, storeId: number, customer: CustomerAsOf, at: string): Promise<PriceListTerms[]> {
  const groupId = customer.customerGroupId;
  const group = groupId === null ? undefined : await groupAsOf(repos, storeId, groupId, at);
  const groupListIds = group?.priceListIds ?? [];
  const named = ownThenGroup([...customer.priceListIds.map((id) => ({ id, customerGroupId: null })), ...groupListIds.map((id) => ({ id, customerGroupId: groupId }))]);
  const terms = new Map((await listsAsOf(repos, storeId, named.map((list) => list.id), at)).map((list) => [list.id, list]));
  return named.flatMap(({ id, customerGroupId }) => {
    const list = terms.get(id);
    return list === undefined ? [] : [{ ...list, policy: customerGroupId === null ? list.policy : groupedPolicy(list.policy, group?.policy), customerGroupId }];
  });
}

/** A group at `at`, as customers are (its history, else its row if created by then). */
async function groupAsOf(repos: Repositories, storeId: number, groupId: number, at: string): Promise<{ priceListIds: number[]; policy: string } | undefined> {
  const states = await repos.pricingAsOf.statesAt(storeId, 'customer_group', [groupId], at);
  if (!states.has(groupId)) {
    const current = await repos.customerGroups.find(storeId, groupId);
    return current === undefined || current.createdAt > at ? undefined : current;
  }
  const record = states.get(groupId);
  // A group recorded before groups had a policy applied its lists by their own (`first`).
  return record === null || record === undefined ? undefined : { priceListIds: numbers(record.priceListIds), policy: typeof record.policy === 'string' ? record.policy : 'first' };
}

/** The lists among `ids` that existed at `at`, in that order, with their kind and percentage then. */
async function listsAsOf(repos: Repositories, storeId: number, ids: readonly number[], at: string): Promise<ListTermsOfRow[]> {
  if (ids.length === 0) return [];
  const states = await repos.pricingAsOf.statesAt(storeId, 'price_list', ids, at);
  // A list recorded then without a rounding of its own takes the store's: today's, since a
  // store's currency is not history.
  const [currentLists, store] = await Promise.all([repos.pricingAsOf.currentLists(storeId, ids.filter((id) => !states.has(id))), repos.pricing.storeTerms(storeId)]);
  const current = new Map(currentLists.map((list) => [list.id, list]));
  return ids.flatMap((id): ListTermsOfRow[] => {
    if (!states.has(id)) {
      const list = current.get(id);
      return list === undefined || list.createdAt > at ? [] : [{ id: list.id, kind: list.kind, percentageUnits: list.percentageUnits, policy: list.policy, rounding: list.rounding }];
    }
    const record = states.get(id);
    if (record === null || record === undefined) return [];
    const kind = record.kind === 'percentage' ? 'percentage' : 'fixed';
    // Lists recorded before policies existed were all `first`.
    const policy = record.policy === 'lowest' ? 'lowest' : 'first';
    return [{ id, kind, percentageUnits: typeof record.percentage === 'number' ? toPriceUnits(record.percentage) : null, policy, rounding: roundingOfRecord(record) ?? store.rounding }];
  });
}

/**
 * Which product or variation had each SKU at `at`, with the prices then. The candidates are
 * the SKU's owner now and every product and variation whose history names the SKU; each is
 * taken as it was at `at`, and the one whose SKU was this one then (a variation only while its
 * product existed) owns it. A SKU nobody had then is absent.
 */
async function catalogAsOf(repos: Repositories, storeId: number, skus: readonly string[], at: string): Promise<Map<string, SkuPrice>> {
  const [now, holders] = await Promise.all([repos.pricing.skuPrices(storeId, skus), repos.pricingAsOf.skuHolders(storeId, skus)]);
  const variationIds = new Set<number>();
  const productIds = new Set<number>();
  for (const entry of now) {
    productIds.add(entry.productId);
    if (entry.variationId !== null) variationIds.add(entry.variationId);
  }
  for (const holder of holders) (holder.resource === 'product' ? productIds : variationIds).add(holder.id);

  const variations = await catalogRowsAt(repos, storeId, 'variation', [...variationIds], at);
  for (const variation of variations.values()) productIds.add(variation.productId);
  const products = await catalogRowsAt(repos, storeId, 'product', [...productIds], at);

  const wanted = new Set(skus);
  const result = new Map<string, SkuPrice>();
  for (const variation of variations.values()) {
    const product = products.get(variation.productId);
    if (variation.sku === null || !wanted.has(variation.sku) || product === undefined) continue;
    result.set(variation.sku, {
      sku: variation.sku,
      productId: product.id,
      variationId: variation.id,
      productPriceUnits: product.priceUnits ?? 0,
      variationPriceUnits: variation.priceUnits,
      quantityRule: variation.quantityRule ?? product.quantityRule,
    });
  }
  for (const product of products.values()) {
    if (product.sku === null || !wanted.has(product.sku) || result.has(product.sku)) continue;
    result.set(product.sku, { sku: product.sku, productId: product.id, variationId: null, productPriceUnits: product.priceUnits ?? 0, variationPriceUnits: null, quantityRule: product.quantityRule });
  }
  return result;
}

/** The products or variations that existed at `at`, as they were then. */
async function catalogRowsAt(repos: Repositories, storeId: number, resource: StatefulResource & ('product' | 'variation'), ids: readonly number[], at: string): Promise<Map<number, CatalogRow>> {
  const rows = new Map<number, CatalogRow>();
  if (ids.length === 0) return rows;
  const states = await repos.pricingAsOf.statesAt(storeId, resource, ids, at);
  const withoutHistory = ids.filter((id) => !states.has(id));
  const current = resource === 'product' ? await repos.pricingAsOf.currentProducts(storeId, withoutHistory) : await repos.pricingAsOf.currentVariations(storeId, withoutHistory);
  for (const row of current) if (row.createdAt <= at) rows.set(row.id, row);
  for (const [id, record] of states) {
    if (record === null) continue;
    rows.set(id, {
      id,
      productId: resource === 'product' ? id : Number(record.productId),
      sku: typeof record.sku === 'string' ? record.sku : null,
      priceUnits: typeof record.price === 'number' ? toPriceUnits(record.price) : null,
      quantityRule: ruleOfRecord(record.quantityRule),
      createdAt: typeof record.createdAt === 'string' ? record.createdAt : at,
    });
  }
  return rows;
}

function asRule({ id, priceUnits, minQuantity, validFrom, validUntil, quantityMinimum, quantityMaximum, quantityIncrement }: RuleAsOf): PriceRule {
  return { id, priceUnits, minQuantity, validFrom, validUntil, quantityMinimum, quantityMaximum, quantityIncrement };
}

function numbers(value: unknown): number[] {
  return Array.isArray(value) ? value.filter((item): item is number => typeof item === 'number') : [];
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

/**
 * A list's own rounding as its history record holds it (`rounding: {increment, mode}`); null
 * when it took the store's. A record from before lists had a rounding has no such field: its
 * prices were charged to 4 decimals, half-up, and are priced so at its moments.
 */
function roundingOfRecord(record: Record<string, unknown>): Rounding | null {
  if (!('rounding' in record)) return { incrementUnits: 1, mode: 'half-up' };
  const value = record.rounding;
  if (typeof value !== 'object' || value === null) return null;
  const { increment, mode } = value as { increment?: unknown; mode?: unknown };
  return typeof increment === 'number' && typeof mode === 'string' && isRoundingMode(mode) ? { incrementUnits: toPriceUnits(increment), mode } : null;
}

/** A quantity rule as a product's or variation's history record holds it; null when none (or recorded before rules existed). */
function ruleOfRecord(value: unknown): QuantityRule | null {
  if (typeof value !== 'object' || value === null) return null;
  const { minimum, maximum, increment } = value as { minimum?: unknown; maximum?: unknown; increment?: unknown };
  if (typeof minimum !== 'number' || typeof increment !== 'number') return null;
  return { minimum, maximum: typeof maximum === 'number' ? maximum : null, increment };
}

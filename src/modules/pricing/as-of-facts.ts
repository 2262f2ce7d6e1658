import type { QuantityRule } from '../../contract/quantity-rules.js';
import { isRoundingMode, type Rounding } from '../currency/rounding.js';
import { toPriceUnits } from '../shared/money.js';
import type { Repositories } from '../shared/unit-of-work.js';
import type { CatalogRow, ListTermsOfRow, StatefulResource } from './as-of-repository.js';
import type { PricedCustomer, PricingBook } from './pricing-book.js';
import { groupedPolicy, ownThenGroup, type PriceListTerms, type SkuPrice } from './pricing-repository.js';

/*
 * The facts of the resolution rule as they stood at a past moment T (docs/history.md, "As-of
 * reads"), so an effective price or a quote asked `at` T answers what the server answered then.
 * A scalar resource (customer, list, product, variation) is as its history says (design rule 4):
 * the latest entry at or before T gives its record, else the earliest after T its `before`; one
 * with no entries at all is as its current row (it has not changed since history began), if
 * that row was created by T. Trade prices and list entries are the live ones created by T and
 * the deleted ones created by T and deleted after it. The rule itself (`price-resolution.ts`)
 * is the live one, and so is the loader that puts the facts together (`pricing-facts.ts`).
 */

/**
 * The book as it stood at `at`, a past moment. Its trade prices and entries name the product
 * they were recorded for: `loadFacts` keeps those of the product that owned the SKU then.
 */
export function bookAsOf(repos: Repositories, storeId: number, at: string): PricingBook {
  return {
    customer: (customerId) => customerAsOf(repos, storeId, customerId, at),
    catalog: (skus) => catalogAsOf(repos, storeId, skus, at),
    customerLists: (customer) => customerListsAsOf(repos, storeId, customer, at),
    tradeRules: (customerId, skus, every) => repos.pricingAsOf.tradeRulesAt(storeId, customerId, skus, at, !every),
    listRules: (priceListIds, skus, every) => repos.pricingAsOf.listRulesAt(storeId, priceListIds, skus, at, !every),
  };
}

/** The customer at `at`; undefined when it did not exist then (or has neither history nor a row). */
async function customerAsOf(repos: Repositories, storeId: number, customerId: number, at: string): Promise<PricedCustomer | undefined> {
  const states = await repos.pricingAsOf.statesAt(storeId, 'customer', [customerId], at);
  if (!states.has(customerId)) {
    const current = await repos.customers.find(storeId, customerId);
    return current === undefined || current.createdAt > at
      ? undefined
      : { id: current.id, trade: current.trade, priceListIds: current.priceListIds, customerGroupId: current.customerGroupId };
  }
  const record = states.get(customerId);
  if (record === null || record === undefined) return undefined;
  const group = record.customerGroupId;
  // A record from before groups names none.
  return {
    id: customerId,
    trade: record.trade === true,
    priceListIds: numbers(record.priceListIds),
    customerGroupId: typeof group === 'number' ? group : null,
  };
}

/**
 * The customer's lists at `at` as the rule walked them then: its own, then its group's as the
 * group was then (a group that did not exist then gives none), each list once.
 */
async function customerListsAsOf(repos: Repositories, storeId: number, customer: PricedCustomer, at: string): Promise<PriceListTerms[]> {
  const groupId = customer.customerGroupId;
  const group = groupId === null ? undefined : await groupAsOf(repos, storeId, groupId, at);
  const groupListIds = group?.priceListIds ?? [];
  const named = ownThenGroup([
    ...customer.priceListIds.map((id) => ({ id, customerGroupId: null })),
    ...groupListIds.map((id) => ({ id, customerGroupId: groupId })),
  ]);
  const terms = new Map(
    (
      await listsAsOf(
        repos,
        storeId,
        named.map((list) => list.id),
        at,
      )
    ).map((list) => [list.id, list]),
  );
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
  return record === null || record === undefined
    ? undefined
    : { priceListIds: numbers(record.priceListIds), policy: typeof record.policy === 'string' ? record.policy : 'first' };
}

/** The lists among `ids` that existed at `at`, in that order, with their kind and percentage then. */
async function listsAsOf(repos: Repositories, storeId: number, ids: readonly number[], at: string): Promise<ListTermsOfRow[]> {
  if (ids.length === 0) return [];
  const states = await repos.pricingAsOf.statesAt(storeId, 'price_list', ids, at);
  // A list recorded then without a rounding of its own takes the store's: today's, since a
  // store's currency is not history.
  const [currentLists, store] = await Promise.all([
    repos.pricingAsOf.currentLists(
      storeId,
      ids.filter((id) => !states.has(id)),
    ),
    repos.pricing.storeTerms(storeId),
  ]);
  const current = new Map(currentLists.map((list) => [list.id, list]));
  return ids.flatMap((id): ListTermsOfRow[] => {
    if (!states.has(id)) {
      const list = current.get(id);
      return list === undefined || list.createdAt > at
        ? []
        : [{ id: list.id, kind: list.kind, percentageUnits: list.percentageUnits, policy: list.policy, rounding: list.rounding }];
    }
    const record = states.get(id);
    if (record === null || record === undefined) return [];
    const kind = record.kind === 'percentage' ? 'percentage' : 'fixed';
    // Lists recorded before policies existed were all `first`.
    const policy = record.policy === 'lowest' ? 'lowest' : 'first';
    return [
      {
        id,
        kind,
        percentageUnits: typeof record.percentage === 'number' ? toPriceUnits(record.percentage) : null,
        policy,
        rounding: roundingOfRecord(record) ?? store.rounding,
      },
    ];
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
    result.set(product.sku, {
      sku: product.sku,
      productId: product.id,
      variationId: null,
      productPriceUnits: product.priceUnits ?? 0,
      variationPriceUnits: null,
      quantityRule: product.quantityRule,
    });
  }
  return result;
}

/** The products or variations that existed at `at`, as they were then. */
async function catalogRowsAt(
  repos: Repositories,
  storeId: number,
  resource: StatefulResource & ('product' | 'variation'),
  ids: readonly number[],
  at: string,
): Promise<Map<number, CatalogRow>> {
  const rows = new Map<number, CatalogRow>();
  if (ids.length === 0) return rows;
  const states = await repos.pricingAsOf.statesAt(storeId, resource, ids, at);
  const withoutHistory = ids.filter((id) => !states.has(id));
  const current =
    resource === 'product'
      ? await repos.pricingAsOf.currentProducts(storeId, withoutHistory)
      : await repos.pricingAsOf.currentVariations(storeId, withoutHistory);
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

function numbers(value: unknown): number[] {
  return Array.isArray(value) ? value.filter((item): item is number => typeof item === 'number') : [];
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

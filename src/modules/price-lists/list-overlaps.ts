import { MAX_OVERLAP_KEY_ENTRIES, type PriceListEntryOverlap, type PriceListPrice, type ReplacePriceListPricesResult } from '../../contract/price-lists.js';
import type { PricedSku } from '../../contract/trade-prices.js';
import { invalidField } from '../shared/errors.js';
import type { Page } from '../shared/page.js';
import type { Repositories } from '../shared/unit-of-work.js';
import { longWork } from '../shared/long-work.js';
import { overlapGroups, overlapsOf } from './entry-overlaps.js';
import type { PriceListPriceFilter } from './price-list-repository.js';

/** Entries the overlaps read at a time, with a turn for other requests between reads. */
export const OVERLAP_READ_CHUNK = 1000;

/**
 * The overlaps among the list's entries (`entry-overlaps.ts`), in key order (SKU, product,
 * break), then by start: the page asked for. The entries are read in key order, a chunk at a
 * time, until the page is full: a request reads the list's entries at most once, and holds one
 * key's entries (at most MAX_OVERLAP_KEY_ENTRIES: a key of more is refused) and the page.
 */
export async function pageOfOverlaps(
  repos: Repositories,
  storeId: number,
  priceListId: number,
  filter: Pick<PriceListPriceFilter, 'productId' | 'sku'>,
  page: Page,
): Promise<PriceListEntryOverlap[]> {
  const shown: PriceListEntryOverlap[] = [];
  let skipped = 0;
  let key: PriceListPrice[] = [];
  const closeKey = () => {
    const first = key[0];
    if (first === undefined) return;
    for (const overlap of overlapsOf(first, key)) {
      if (skipped < page.offset) skipped += 1;
      else if (shown.length < page.count) shown.push(overlap);
    }
    key = [];
  };
  let after: PriceListPrice | undefined;
  const work = longWork();
  for (;;) {
    const chunk = await repos.priceLists.pricesInKeyOrder(storeId, priceListId, filter, after, OVERLAP_READ_CHUNK);
    for (const entry of chunk) {
      const first = key[0];
      if (first !== undefined && (first.sku !== entry.sku || first.productId !== entry.productId || first.minQuantity !== entry.minQuantity)) closeKey();
      if (shown.length === page.count) return shown;
      key.push(entry);
      if (key.length > MAX_OVERLAP_KEY_ENTRIES) {
        throw invalidField(
          'sku',
          `Price list ${priceListId} holds more than ${MAX_OVERLAP_KEY_ENTRIES} entries of SKU '${entry.sku}' from ${entry.minQuantity} units: too many to weigh for overlaps. Delete the ones that never apply, or ask for other SKUs (sku=)`,
        );
      }
    }
    after = chunk.at(-1);
    if (chunk.length < OVERLAP_READ_CHUNK) break;
    await work.rest();
  }
  closeKey();
  return shown;
}

/**
 * Where the entries a replace leaves overlap: all of `prices` (a replace makes the list's entries
 * of each SKU it names exactly those), ranked by the tie rule: a kept entry by its id, a created
 * one after every stored id, in the order of `prices` (as they will be numbered). A created
 * entry's id is null here.
 */
export function plannedOverlaps(
  prices: ReadonlyArray<PricedSku>,
  matches: ReadonlyArray<PriceListPrice | undefined>,
): ReplacePriceListPricesResult['overlaps'] {
  const byKey = new Map<
    string,
    Array<{ index: number; rank: number; id: number | null; price: number; validFrom: string | null; validUntil: string | null }>
  >();
  prices.forEach((item, index) => {
    const match = matches[index];
    const key = JSON.stringify([item.sku, item.productId, item.minQuantity]);
    const entry = {
      index,
      rank: match?.id ?? Number.MAX_SAFE_INTEGER - prices.length + index,
      id: match?.id ?? null,
      price: item.price,
      validFrom: item.validFrom,
      validUntil: item.validUntil,
    };
    const same = byKey.get(key);
    if (same === undefined) byKey.set(key, [entry]);
    else same.push(entry);
  });
  // By SKU (as JavaScript compares text), product and break.
  const keys = [...byKey.keys()].map((key) => JSON.parse(key) as [string, number, number]);
  keys.sort(([skuA, productA, breakA], [skuB, productB, breakB]) => (skuA < skuB ? -1 : skuA > skuB ? 1 : productA - productB || breakA - breakB));
  return keys.flatMap(([sku, productId, minQuantity]) => {
    return overlapGroups(byKey.get(JSON.stringify([sku, productId, minQuantity]))!).map((group) => ({
      sku,
      productId,
      minQuantity,
      ...group,
      entries: group.entries.map(({ index, id, price, validFrom, validUntil }) => ({ index, id, price, validFrom, validUntil })),
    }));
  });
}

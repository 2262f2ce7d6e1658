import { type EntryOverlapKind, MAX_OVERLAP_ENTRIES_SHOWN, type PriceListEntryOverlap } from '../../contract/price-lists.js';

/** What the entries of one overlap share: the same SKU, product and quantity break. */
export interface EntryKey {
  sku: string;
  productId: number;
  minQuantity: number;
}

/** An entry as the overlaps weigh it: its rank in the tie rule (higher: newer) and its window. */
export interface Windowed {
  /** Higher ranks are newer: the id, or where an entry has none yet, a rank after every id. */
  rank: number;
  /** Canonical timestamps; null: no bound. */
  validFrom: string | null;
  validUntil: string | null;
}

/** One overlap of `E`s: how many, and the newest MAX_OVERLAP_ENTRIES_SHOWN, newest first. */
export interface OverlapGroup<E> {
  kind: EntryOverlapKind;
  from: string | null;
  until: string | null;
  entryCount: number;
  entries: E[];
}

/**
 * The overlaps among the entries of one key (docs/pricing.md, "Overlaps"): entries whose
 * windows (`validFrom` inclusive, `validUntil` exclusive, a missing bound unbounded) meet, joined
 * while they chain: when A meets B and B meets C, the three are one overlap, though A and C may
 * not meet. An entry that meets no other is in none. Each overlap lists its entries newest first,
 * the order in which the tie rule prefers them (at any moment, the first of them valid then is
 * the one that applies), the newest MAX_OVERLAP_ENTRIES_SHOWN of them, and counts them all. `duplicate` when every entry has the same window (only the newest ever
 * applies), `overlap` otherwise. In order of their start.
 */
export function overlapGroups<E extends Windowed>(entries: readonly E[]): Array<OverlapGroup<E>> {
  // By start (no start first), then by rank, so the walk meets every entry of an overlap in a row.
  const byStart = [...entries].sort((a, b) => compareStarts(a.validFrom, b.validFrom) || a.rank - b.rank);
  const groups: Array<OverlapGroup<E>> = [];
  let group: E[] = [];
  // The latest end of the group so far; null: it never ends.
  let end = null as string | null;
  const close = () => {
    if (group.length > 1) groups.push(groupOf(group, end));
  };
  for (const entry of byStart) {
    const meets = group.length > 0 && (end === null || entry.validFrom === null || entry.validFrom < end);
    if (!meets) {
      close();
      group = [];
      end = entry.validUntil;
    } else if (end !== null) {
      end = entry.validUntil === null || entry.validUntil > end ? entry.validUntil : end;
    }
    group.push(entry);
  }
  close();
  return groups;
}

/** The overlaps of one key's stored entries, as `GET /v1/price-lists/{id}/overlaps` answers them. */
export function overlapsOf(
  key: EntryKey,
  entries: ReadonlyArray<{ id: number; price: number; validFrom: string | null; validUntil: string | null }>,
): PriceListEntryOverlap[] {
  const ranked = entries.map(({ id, price, validFrom, validUntil }) => ({ rank: id, id, price, validFrom, validUntil }));
  return overlapGroups(ranked).map((group) => ({
    sku: key.sku,
    productId: key.productId,
    minQuantity: key.minQuantity,
    ...group,
    entries: group.entries.map(({ id, price, validFrom, validUntil }) => ({ id, price, validFrom, validUntil })),
  }));
}

function groupOf<E extends Windowed>(group: readonly E[], until: string | null): OverlapGroup<E> {
  const first = group[0]!;
  const duplicate = group.every((entry) => entry.validFrom === first.validFrom && entry.validUntil === first.validUntil);
  // The walk is in order of start: the first entry starts first.
  const newestFirst = [...group].sort((a, b) => b.rank - a.rank);
  return {
    kind: duplicate ? 'duplicate' : 'overlap',
    from: first.validFrom,
    until,
    entryCount: group.length,
    entries: newestFirst.slice(0, MAX_OVERLAP_ENTRIES_SHOWN),
  };
}

/** Orders window starts, no start (always valid) first; canonical timestamps compare as text. */
function compareStarts(a: string | null, b: string | null): number {
  if (a === b) return 0;
  if (a === null) return -1;
  if (b === null) return 1;
  return a < b ? -1 : 1;
}

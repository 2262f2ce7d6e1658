import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_OVERLAP_ENTRIES_SHOWN, type OverlappingEntry } from '../../contract/price-lists.js';
import { overlapsOf } from './entry-overlaps.js';

/**
 * The overlaps of one key's entries, against their definition: two entries meet when their
 * windows share a moment, and an overlap is a set of entries joined by meetings (a connected
 * component of more than one). The run's property seed (printed at the start) drives the random
 * windows; PRICEBOOK_PROPERTY_SEED=N npx vitest run src/modules/price-lists/entry-overlaps.test.ts
 * repeats them.
 */
const KEY = { sku: 'S', productId: 1, minQuantity: 1 };
const moment = (day: number) => new Date(Date.UTC(2030, 0, 1 + day)).toISOString();
const entry = (id: number, from: number | null, until: number | null, price = 1): OverlappingEntry => ({
  id,
  price,
  validFrom: from === null ? null : moment(from),
  validUntil: until === null ? null : moment(until),
});

/** Whether two windows share a moment: each starts before the other ends. */
function meet(a: OverlappingEntry, b: OverlappingEntry): boolean {
  const startsBeforeEnd = (x: OverlappingEntry, y: OverlappingEntry) => x.validFrom === null || y.validUntil === null || x.validFrom < y.validUntil;
  return startsBeforeEnd(a, b) && startsBeforeEnd(b, a);
}

/** The definition: connected components of the meeting graph with two or more entries, as sets of ids. */
function componentsByDefinition(entries: readonly OverlappingEntry[]): number[][] {
  const component = new Map(entries.map((e) => [e.id, e.id]));
  const root = (id: number): number => (component.get(id) === id ? id : root(component.get(id)!));
  for (const a of entries) for (const b of entries) if (a.id < b.id && meet(a, b)) component.set(root(a.id), root(b.id));
  const groups = new Map<number, number[]>();
  for (const e of entries) groups.set(root(e.id), [...(groups.get(root(e.id)) ?? []), e.id]);
  return [...groups.values()].filter((ids) => ids.length > 1).map((ids) => ids.sort((a, b) => b - a));
}

describe('overlapsOf', () => {
  it('groups entries whose windows meet, chained, newest first; touching windows do not meet', () => {
    const entries = [
      entry(1, null, null, 9.5),
      entry(2, null, null, 9),
      entry(3, 10, 20),
      entry(4, 15, 30),
      entry(5, 30, null),
      entry(6, 40, 50),
      entry(7, 25, 28),
    ];
    // 1 and 2 always apply (so they meet everything): one overlap of all seven.
    expect(overlapsOf(KEY, entries).map((o) => o.entries.map((e) => e.id))).toEqual([[7, 6, 5, 4, 3, 2, 1]]);
    const dated = entries.slice(2);
    expect(overlapsOf(KEY, dated)).toEqual([
      { ...KEY, kind: 'overlap', from: moment(10), until: moment(30), entryCount: 3, entries: [entry(7, 25, 28), entry(4, 15, 30), entry(3, 10, 20)] },
      { ...KEY, kind: 'overlap', from: moment(30), until: null, entryCount: 2, entries: [entry(6, 40, 50), entry(5, 30, null)] },
    ]);
    expect(overlapsOf(KEY, [entry(8, null, null, 2), entry(9, null, null, 3)])).toEqual([
      { ...KEY, kind: 'duplicate', from: null, until: null, entryCount: 2, entries: [entry(9, null, null, 3), entry(8, null, null, 2)] },
    ]);
    expect(overlapsOf(KEY, [entry(1, 0, 10), entry(2, 10, 20), entry(3, 20, null)])).toEqual([]);
    expect(overlapsOf(KEY, [])).toEqual([]);
  });

  it(`lists the newest ${MAX_OVERLAP_ENTRIES_SHOWN} entries of a larger overlap and counts them all`, () => {
    const many = Array.from({ length: 250 }, (_, index) => entry(index + 1, null, null));
    const [overlap] = overlapsOf(KEY, many);
    expect(overlap!.entryCount).toBe(250);
    expect(overlap!.entries.map((e) => e.id)).toEqual(Array.from({ length: MAX_OVERLAP_ENTRIES_SHOWN }, (_, index) => 250 - index));
  });

  it('finds exactly the connected entries of the definition, with their span and kind, on random windows', () => {
    const window = fc.oneof(
      fc.constant([null, null] as const),
      fc
        .tuple(fc.option(fc.integer({ min: 0, max: 30 }), { nil: null }), fc.option(fc.integer({ min: 1, max: 31 }), { nil: null }))
        .filter(([from, until]) => from === null || until === null || from < until),
    );
    fc.assert(
      fc.property(fc.array(window, { maxLength: 12 }), (windows) => {
        const entries = windows.map(([from, until], index) => entry(index + 1, from, until));
        const overlaps = overlapsOf(KEY, entries);
        const expected = componentsByDefinition(entries);
        expect(new Set(overlaps.map((o) => o.entries.map((e) => e.id).join(',')))).toEqual(new Set(expected.map((ids) => ids.join(','))));
        for (const overlap of overlaps) {
          expect(overlap.entryCount).toBe(overlap.entries.length);
          const starts = overlap.entries.map((e) => e.validFrom);
          const ends = overlap.entries.map((e) => e.validUntil);
          expect(overlap.from).toBe(starts.includes(null) ? null : [...starts].sort()[0]);
          expect(overlap.until).toBe(ends.includes(null) ? null : [...ends].sort().at(-1));
          const same = overlap.entries.every((e) => e.validFrom === starts[0] && e.validUntil === ends[0]);
          expect(overlap.kind).toBe(same ? 'duplicate' : 'overlap');
        }
        // In order of start, no start first.
        const firstStarts = overlaps.map((o) => o.from ?? '');
        expect(firstStarts).toEqual([...firstStarts].sort());
      }),
      { numRuns: 500 },
    );
  });
});

/**
 * Rows all kept previews hold together, at most (docs/change-sets.md, "Preview"): a row is a
 * few hundred bytes, so some tens of MiB of a process. A preview of more rows is not kept.
 */
export const MAX_KEPT_PREVIEW_ROWS = 100_000;
/** Previews kept at most, whatever their size. */
export const MAX_KEPT_PREVIEWS = 32;

/** The moments a preview worked out for "now" holds for: from `from` (inclusive) to `until` (exclusive; null: for ever). */
export interface HeldFor {
  from: string;
  until: string | null;
}

/**
 * Previews of a process kept by a key that names everything they were worked out from (the
 * caller's to make: a set's revision, the state of the store's book, the moment), so that one
 * is found only while it is what working it out again would answer. One worked out for "now"
 * holds for a stretch of moments (`HeldFor`). The least recently used go first, past
 * MAX_KEPT_PREVIEWS or MAX_KEPT_PREVIEW_ROWS.
 */
export class KeptPreviews<P extends { rows: readonly unknown[] }> {
  private readonly kept = new Map<string, { preview: P; heldFor: HeldFor | undefined }>();
  private rows = 0;

  constructor(
    private readonly maxRows = MAX_KEPT_PREVIEW_ROWS,
    private readonly maxPreviews = MAX_KEPT_PREVIEWS,
  ) {}

  /** The preview kept under `key` that holds at `moment` (ISO 8601, canonical), if any. */
  find(key: string, moment: string): P | undefined {
    const held = this.kept.get(key);
    if (held === undefined) return undefined;
    const { heldFor } = held;
    if (heldFor !== undefined && (moment < heldFor.from || (heldFor.until !== null && moment >= heldFor.until))) {
      this.drop(key);
      return undefined;
    }
    // The most recently used last: the first ones are the next to go.
    this.kept.delete(key);
    this.kept.set(key, held);
    return held.preview;
  }

  /** Keeps `preview` under `key` (for the moments `heldFor`, when it was worked out for now). */
  keep(key: string, preview: P, heldFor?: HeldFor): void {
    this.drop(key);
    if (preview.rows.length > this.maxRows) return;
    this.kept.set(key, { preview, heldFor });
    this.rows += preview.rows.length;
    for (const oldest of this.kept.keys()) {
      if (this.rows <= this.maxRows && this.kept.size <= this.maxPreviews) break;
      this.drop(oldest);
    }
  }

  private drop(key: string): void {
    const held = this.kept.get(key);
    if (held === undefined) return;
    this.kept.delete(key);
    this.rows -= held.preview.rows.length;
  }
}

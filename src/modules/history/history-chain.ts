import { createHash } from 'node:crypto';
import type { HistoryEntry } from './history-entry.js';

/** The hash a store's first entry follows. */
export const GENESIS_HASH = '0'.repeat(64);

/**
 * JSON with every object's keys in code-point order, at every depth, and no white space: one
 * text for one value, whoever writes it. `before` and `after` are stored in this form.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) => {
    if (inner === null || typeof inner !== 'object' || Array.isArray(inner)) return inner;
    const sorted: Record<string, unknown> = {};
    for (const key of Object.keys(inner).sort()) sorted[key] = (inner as Record<string, unknown>)[key];
    return sorted;
  });
}

/**
 * The text an entry's hash covers: every field but `id` (the database's), `prevHash` and
 * `hash`, in a fixed order, as one JSON array. `before` and `after` go in as the stored text,
 * so verifying never depends on parsing them back.
 */
export function canonicalEntry(entry: Omit<HistoryEntry, 'id' | 'prevHash' | 'hash'>): string {
  return JSON.stringify([
    entry.storeId,
    entry.seq,
    entry.at,
    entry.resource,
    entry.resourceId,
    entry.change,
    entry.before,
    entry.after,
    entry.customerId,
    entry.productId,
    entry.priceListId,
    entry.sku,
    entry.actor.type,
    entry.actor.id,
    entry.actor.name,
    entry.source,
    entry.sourceId,
    entry.requestId,
  ]);
}

/** `hash = SHA-256(previous hash ‖ canonical entry)`, in lower-case hex. */
export function chainHash(prevHash: string, entry: Omit<HistoryEntry, 'id' | 'prevHash' | 'hash'>): string {
  return createHash('sha256').update(prevHash, 'utf8').update(canonicalEntry(entry), 'utf8').digest('hex');
}

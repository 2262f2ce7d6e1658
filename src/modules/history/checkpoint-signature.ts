import { createHmac, timingSafeEqual } from 'node:crypto';
import type { HistoryCheckpoint } from './history-repository.js';

/**
 * HMAC-SHA256, hex, under the server's history key (`PRICEBOOK_HISTORY_KEY`), over every field
 * of a checkpoint but its signature, as one JSON array. Whoever can write to the database but
 * does not hold the key cannot move a checkpoint (to hide the removal of entries as a cut)
 * without `pricebook history verify` noticing.
 */
export function signCheckpoint(key: string, checkpoint: Omit<HistoryCheckpoint, 'signature'>): string {
  const text = JSON.stringify(['pricebook-history-checkpoint', checkpoint.storeId, checkpoint.seq, checkpoint.hash, checkpoint.lastCutAt, checkpoint.cutAt]);
  return createHmac('sha256', key).update(text, 'utf8').digest('hex');
}

export function checkpointSignatureHolds(key: string, checkpoint: HistoryCheckpoint): boolean {
  const expected = Buffer.from(signCheckpoint(key, checkpoint), 'utf8');
  const stored = Buffer.from(checkpoint.signature, 'utf8');
  return expected.length === stored.length && timingSafeEqual(expected, stored);
}

import { longWork } from './long-work.js';

/** Records removed, and their events written, per batch of a cascade. */
export const CASCADE_BATCH = 500;

/**
 * Runs a cascade a batch at a time inside the caller's transaction: `deleteBatch` removes the
 * lowest-id records above `afterId` (at most `limit`) and returns them in id order, `afterEach`
 * writes their events. Memory holds one batch whatever the count, and between batches the
 * event loop serves other requests (reads do not wait for this transaction).
 */
export async function deleteInBatches<T extends { id: number }>(
  deleteBatch: (afterId: number, limit: number) => Promise<T[]>,
  afterEach: (batch: T[]) => Promise<void>,
): Promise<void> {
  const work = longWork();
  for (let afterId = 0; ;) {
    const batch = await deleteBatch(afterId, CASCADE_BATCH);
    if (batch.length > 0) await afterEach(batch);
    // A short batch was the last; each full one removed rows, so the loop ends.
    if (batch.length < CASCADE_BATCH) return;
    afterId = batch[batch.length - 1]!.id;
    await work.rest();
  }
}

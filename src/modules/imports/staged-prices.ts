import type { NewTradePrice } from '../trade-prices/trade-price-repository.js';
import type { Repositories } from '../shared/unit-of-work.js';
import { APPLY_BATCH } from './import-limits.js';
import type { StagedPrice } from './import-contents-repository.js';

/** The import's staged prices in the file's order, `APPLY_BATCH` at a time, read with `repos`. */
export async function* stagedBatches(repos: Repositories, importId: number): AsyncGenerator<StagedPrice[]> {
  for (let after = 0; ;) {
    const batch = await repos.importContents.staged(importId, after, APPLY_BATCH);
    if (batch.length === 0) return;
    yield batch;
    after = batch[batch.length - 1]!.position;
  }
}

/** A staged price as the price it creates. */
export function asNewPrice(staged: StagedPrice): NewTradePrice {
  const { customerId, productId, sku, price, minQuantity, validFrom, validUntil } = staged;
  return { customerId, productId, sku, price, minQuantity, validFrom, validUntil };
}

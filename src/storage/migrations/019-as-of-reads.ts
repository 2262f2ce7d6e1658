import type { Kysely, Migration } from 'kysely';

/**
 * What an as-of read of the effective price or a quote (docs/history.md, "As-of reads") looks
 * up besides a resource's entries around a moment (migration 015's `price_history_resource`):
 * which products and variations ever had a SKU. By SKU, then resource, so the lookup skips the
 * SKU's trade price and list entry entries (thousands, where a SKU is widely priced) and reads
 * only the catalog's few.
 */
export function asOfReadsSchema(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.createIndex('price_history_sku_holders').on('price_history').columns(['store_id', 'sku', 'resource', 'resource_id']).execute();
    },
  };
}

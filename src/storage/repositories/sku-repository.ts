import type { Kysely } from 'kysely';
import type { Engine } from '../engine.js';
import type { SkuHolder, SkuRepository } from '../../modules/catalog/sku-repository.js';
import type { Tables } from '../tables.js';
import { byCodePoint, containsIgnoringAsciiCase } from './values.js';

export class KyselySkuRepository implements SkuRepository {
  constructor(
    private readonly db: Kysely<Tables>,
    private readonly engine: Engine,
  ) {}

  async search(storeId: number, text: string, limit: number): Promise<Array<SkuHolder & { title: string }>> {
    // Along the register's key (store, SKU): the first `limit` matches end the read.
    const rows = await this.db
      .selectFrom('skus')
      .innerJoin('products', 'products.id', 'skus.product_id')
      .select(['skus.sku', 'skus.product_id', 'skus.variation_id', 'products.title'])
      .where('skus.store_id', '=', storeId)
      .where(containsIgnoringAsciiCase(this.engine, 'skus.sku', text))
      .orderBy(byCodePoint(this.engine, 'skus.sku'))
      .limit(limit)
      .execute();
    return rows.map((row) => ({ sku: row.sku, productId: row.product_id, variationId: row.variation_id, title: row.title }));
  }

  async holders(storeId: number, skus: readonly string[]): Promise<SkuHolder[]> {
    if (skus.length === 0) return [];
    const rows = await this.db
      .selectFrom('skus')
      .select(['sku', 'product_id', 'variation_id'])
      .where('store_id', '=', storeId)
      .where('sku', 'in', [...skus])
      .execute();
    return rows.map((row) => ({ sku: row.sku, productId: row.product_id, variationId: row.variation_id }));
  }

  async firstSkus(storeId: number, limit: number): Promise<string[]> {
    const rows = await this.db.selectFrom('skus').select('sku').where('store_id', '=', storeId).orderBy('sku').limit(limit).execute();
    return rows.map((row) => row.sku);
  }

  async claim(storeId: number, entries: readonly SkuHolder[]): Promise<string[]> {
    if (entries.length === 0) return [];
    // A SKU another writer holds is skipped, not an error, so RETURNING tells exactly which SKUs
    // were lost. PostgreSQL waits for a writer still holding the key and skips the row if it
    // commits; SQLite runs one writer at a time.
    const claimed = await this.db
      .insertInto('skus')
      .values(entries.map((entry) => ({ store_id: storeId, sku: entry.sku, product_id: entry.productId, variation_id: entry.variationId })))
      .onConflict((conflict) => conflict.columns(['store_id', 'sku']).doNothing())
      .returning('sku')
      .execute();
    const won = new Set(claimed.map((row) => row.sku));
    return entries.map((entry) => entry.sku).filter((sku) => !won.has(sku));
  }

  async release(storeId: number, productId: number, skus: readonly string[]): Promise<void> {
    if (skus.length === 0) return;
    await this.db
      .deleteFrom('skus')
      .where('store_id', '=', storeId)
      .where('sku', 'in', [...skus])
      .where('product_id', '=', productId)
      .execute();
  }

  async reassign(storeId: number, productId: number, sku: string, variationId: number | null): Promise<void> {
    await this.db
      .updateTable('skus')
      .set({ variation_id: variationId })
      .where('store_id', '=', storeId)
      .where('sku', '=', sku)
      .where('product_id', '=', productId)
      .execute();
  }

  async releaseVariation(storeId: number, productId: number, variationId: number): Promise<void> {
    await this.db.deleteFrom('skus').where('store_id', '=', storeId).where('product_id', '=', productId).where('variation_id', '=', variationId).execute();
  }
}

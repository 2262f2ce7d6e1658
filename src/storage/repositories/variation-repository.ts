import type { Kysely, Selectable } from 'kysely';
import type { Variation } from '../../contract/variations.js';
import type { VariationFields, VariationRepository } from '../../modules/catalog/variation-repository.js';
import { fromPriceUnits, toPriceUnits } from '../../modules/shared/money.js';
import type { Page } from '../../modules/shared/page.js';
import type { Tables } from '../tables.js';
import type { ProductVariationsTable } from '../tables/catalog-tables.js';
import { columnsOfRule, ruleOfColumns } from '../../modules/quantity-rules/quantity-rule.js';

export class KyselyVariationRepository implements VariationRepository {
  constructor(private readonly db: Kysely<Tables>) {}

  async list(storeId: number, productId: number, page: Page): Promise<Variation[]> {
    const rows = await this.ofProduct(storeId, productId).selectAll().orderBy('id').limit(page.count).offset(page.offset).execute();
    return rows.map(toVariation);
  }

  async count(storeId: number, productId: number): Promise<number> {
    const row = await this.ofProduct(storeId, productId)
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  async find(storeId: number, productId: number, id: number): Promise<Variation | undefined> {
    const row = await this.ofProduct(storeId, productId).selectAll().where('id', '=', id).executeTakeFirst();
    return row && toVariation(row);
  }

  async insertMany(storeId: number, productId: number, variations: readonly VariationFields[], createdAt: string): Promise<Variation[]> {
    if (variations.length === 0) return [];
    const rows = await this.db
      .insertInto('product_variations')
      .values(
        variations.map((variation) => ({
          store_id: storeId,
          product_id: productId,
          sku: variation.sku,
          price: variation.price === null ? null : toPriceUnits(variation.price),
          stock: variation.stock,
          ...columnsOfRule(variation.quantityRule),
          created_at: createdAt,
        })),
      )
      .returningAll()
      .execute();
    // RETURNING does not promise the order of the values; SKUs are unique within the product.
    const bySku = new Map(rows.map((row) => [row.sku, toVariation(row)]));
    return variations.map((variation) => bySku.get(variation.sku)).filter((variation): variation is Variation => variation !== undefined);
  }

  async update(storeId: number, productId: number, id: number, patch: Partial<VariationFields>): Promise<Variation | undefined> {
    if (patch.sku === undefined && patch.price === undefined && patch.stock === undefined && patch.quantityRule === undefined)
      return this.find(storeId, productId, id);
    const row = await this.db
      .updateTable('product_variations')
      .set({
        ...(patch.sku !== undefined && { sku: patch.sku }),
        ...(patch.price !== undefined && { price: patch.price === null ? null : toPriceUnits(patch.price) }),
        ...(patch.stock !== undefined && { stock: patch.stock }),
        ...(patch.quantityRule !== undefined && columnsOfRule(patch.quantityRule)),
      })
      .where('store_id', '=', storeId)
      .where('product_id', '=', productId)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
    return row && toVariation(row);
  }

  async deleteMany(storeId: number, productId: number, ids: readonly number[]): Promise<number> {
    if (ids.length === 0) return 0;
    const result = await this.db
      .deleteFrom('product_variations')
      .where('store_id', '=', storeId)
      .where('product_id', '=', productId)
      .where('id', 'in', [...ids])
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  private ofProduct(storeId: number, productId: number) {
    return this.db.selectFrom('product_variations').where('store_id', '=', storeId).where('product_id', '=', productId);
  }
}

export function toVariation(row: Selectable<ProductVariationsTable>): Variation {
  return {
    id: row.id,
    productId: row.product_id,
    sku: row.sku,
    price: row.price === null ? null : fromPriceUnits(row.price),
    stock: row.stock,
    quantityRule: ruleOfColumns(row),
    createdAt: row.created_at,
  };
}

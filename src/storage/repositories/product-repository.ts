import type { Kysely, Selectable, SelectQueryBuilder } from 'kysely';
import type { Product } from '../../contract/products.js';
import type { ProductFields, ProductFilter, ProductRepository } from '../../modules/catalog/product-repository.js';
import { fromPriceUnits, toPriceUnits } from '../../modules/shared/money.js';
import type { Page } from '../../modules/shared/page.js';
import type { Tables } from '../tables.js';
import type { ProductsTable } from '../tables/catalog-tables.js';
import { fromFlag, toFlag } from './values.js';
import { toVariation } from './variation-repository.js';
import { columnsOfRule, ruleOfColumns } from '../../modules/quantity-rules/quantity-rule.js';

export class KyselyProductRepository implements ProductRepository {
  constructor(private readonly db: Kysely<Tables>) {}

  async list(storeId: number, filter: ProductFilter, page: Page): Promise<Product[]> {
    const rows = await this.filtered(storeId, filter).selectAll().orderBy('id').limit(page.count).offset(page.offset).execute();
    return this.withRelations(storeId, rows);
  }

  async count(storeId: number, filter: ProductFilter): Promise<number> {
    const row = await this.filtered(storeId, filter)
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  async find(storeId: number, id: number): Promise<Product | undefined> {
    const [product] = await this.findMany(storeId, [id]);
    return product;
  }

  async findMany(storeId: number, ids: readonly number[]): Promise<Product[]> {
    if (ids.length === 0) return [];
    const rows = await this.db
      .selectFrom('products')
      .selectAll()
      .where('store_id', '=', storeId)
      .where('id', 'in', [...ids])
      .orderBy('id')
      .execute();
    return this.withRelations(storeId, rows);
  }

  async exists(storeId: number, id: number): Promise<boolean> {
    return (await this.db.selectFrom('products').select('id').where('store_id', '=', storeId).where('id', '=', id).executeTakeFirst()) !== undefined;
  }

  async insert(storeId: number, fields: ProductFields, createdAt: string): Promise<number> {
    const row = await this.db
      .insertInto('products')
      .values({
        store_id: storeId,
        title: fields.title,
        sku: fields.sku,
        price: toPriceUnits(fields.price),
        active: toFlag(fields.active),
        ...columnsOfRule(fields.quantityRule),
        created_at: createdAt,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  async update(storeId: number, id: number, patch: Partial<ProductFields>): Promise<boolean> {
    const result = await this.db
      .updateTable('products')
      .set({
        ...(patch.title !== undefined && { title: patch.title }),
        ...(patch.sku !== undefined && { sku: patch.sku }),
        ...(patch.price !== undefined && { price: toPriceUnits(patch.price) }),
        ...(patch.active !== undefined && { active: toFlag(patch.active) }),
        ...(patch.quantityRule !== undefined && columnsOfRule(patch.quantityRule)),
      })
      .where('store_id', '=', storeId)
      .where('id', '=', id)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  async replaceCategories(storeId: number, id: number, categoryIds: readonly number[]): Promise<void> {
    await this.db.deleteFrom('product_categories').where('store_id', '=', storeId).where('product_id', '=', id).execute();
    if (categoryIds.length === 0) return;
    await this.db
      .insertInto('product_categories')
      .values(categoryIds.map((categoryId) => ({ store_id: storeId, product_id: id, category_id: categoryId })))
      .execute();
  }

  async delete(storeId: number, id: number): Promise<boolean> {
    // Rows that reference the product go first: the foreign keys do not cascade.
    await this.db.deleteFrom('skus').where('store_id', '=', storeId).where('product_id', '=', id).execute();
    await this.db.deleteFrom('product_categories').where('store_id', '=', storeId).where('product_id', '=', id).execute();
    await this.db.deleteFrom('product_variations').where('store_id', '=', storeId).where('product_id', '=', id).execute();
    const result = await this.db.deleteFrom('products').where('store_id', '=', storeId).where('id', '=', id).executeTakeFirst();
    return result.numDeletedRows > 0n;
  }

  /** Variations and category ids of a page of products: two queries, whatever the page size. */
  private async withRelations(storeId: number, rows: readonly Selectable<ProductsTable>[]): Promise<Product[]> {
    if (rows.length === 0) return [];
    const ids = rows.map((row) => row.id);
    const [variations, links] = await Promise.all([
      this.db.selectFrom('product_variations').selectAll().where('store_id', '=', storeId).where('product_id', 'in', ids).orderBy('id').execute(),
      this.db
        .selectFrom('product_categories')
        .select(['product_id', 'category_id'])
        .where('store_id', '=', storeId)
        .where('product_id', 'in', ids)
        .orderBy('category_id')
        .execute(),
    ]);
    const products = new Map<number, Product>(rows.map((row) => [row.id, toProduct(row)]));
    for (const variation of variations) {
      const { id, sku, price, stock, quantityRule } = toVariation(variation);
      products.get(variation.product_id)?.variations.push({ id, sku, price, stock, quantityRule });
    }
    for (const link of links) products.get(link.product_id)?.categoryIds.push(link.category_id);
    return [...products.values()];
  }

  private filtered(storeId: number, filter: ProductFilter): SelectQueryBuilder<Tables, 'products', object> {
    let query = this.db.selectFrom('products').where('store_id', '=', storeId);
    const { sku, categoryId } = filter;
    if (sku !== undefined) {
      query = query.where('id', 'in', (eb) => eb.selectFrom('skus').select('product_id').where('store_id', '=', storeId).where('sku', '=', sku));
    }
    if (categoryId !== undefined) {
      query = query.where('id', 'in', (eb) =>
        eb.selectFrom('product_categories').select('product_id').where('store_id', '=', storeId).where('category_id', '=', categoryId),
      );
    }
    return query;
  }
}

function toProduct(row: Selectable<ProductsTable>): Product {
  return {
    id: row.id,
    title: row.title,
    sku: row.sku,
    price: fromPriceUnits(row.price),
    active: fromFlag(row.active),
    quantityRule: ruleOfColumns(row),
    categoryIds: [],
    variations: [],
    createdAt: row.created_at,
  };
}

import type { Kysely, Selectable } from 'kysely';
import type { Category } from '../../contract/categories.js';
import type { CategoryFields, CategoryFilter, CategoryRepository } from '../../modules/catalog/category-repository.js';
import type { Tables } from '../tables.js';
import type { CategoriesTable } from '../tables/catalog-tables.js';
import { KyselyStoreRecords, type RecordsTable } from './store-records.js';

/** A category's row and fields. */
const CATEGORIES: RecordsTable<'categories', Category, CategoryFields, CategoryFilter> = {
  table: 'categories',
  toRecord: toCategory,
  toColumns: (fields) => ({
    ...(fields.title !== undefined && { title: fields.title }),
    ...(fields.parentId !== undefined && { parent_id: fields.parentId }),
  }),
  filters: {},
};

export class KyselyCategoryRepository extends KyselyStoreRecords<'categories', Category, CategoryFields, CategoryFilter> implements CategoryRepository {
  constructor(db: Kysely<Tables>) {
    super(db, CATEGORIES);
  }

  async existing(storeId: number, ids: readonly number[]): Promise<number[]> {
    if (ids.length === 0) return [];
    const rows = await this.db
      .selectFrom('categories')
      .select('id')
      .where('store_id', '=', storeId)
      .where('id', 'in', [...ids])
      .execute();
    return rows.map((row) => row.id);
  }

  async withAncestors(storeId: number, ids: readonly number[]): Promise<Category[]> {
    if (ids.length === 0) return [];
    // One recursive query climbs every branch at once; UNION (not UNION ALL) drops rows already
    // seen, so even a broken tree with a cycle cannot make it run forever.
    const rows = await this.db
      .withRecursive('lineage(id, title, parent_id, created_at)', (db) =>
        db
          .selectFrom('categories')
          .select(['id', 'title', 'parent_id', 'created_at'])
          .where('store_id', '=', storeId)
          .where('id', 'in', [...ids])
          .union(
            db
              .selectFrom('categories as parent')
              .innerJoin('lineage', 'lineage.parent_id', 'parent.id')
              .select(['parent.id', 'parent.title', 'parent.parent_id', 'parent.created_at'])
              .where('parent.store_id', '=', storeId),
          ),
      )
      .selectFrom('lineage')
      .selectAll()
      .execute();
    return rows.map(toCategory);
  }

  async hasChildren(storeId: number, id: number): Promise<boolean> {
    const row = await this.db.selectFrom('categories').select('id').where('store_id', '=', storeId).where('parent_id', '=', id).limit(1).executeTakeFirst();
    return row !== undefined;
  }

  async lockTree(storeId: number): Promise<void> {
    // A no-op write to the store's row: on PostgreSQL it holds the row lock until the
    // transaction ends (inserts referencing the store are not blocked by it); SQLite already
    // runs one writer at a time.
    await this.db
      .updateTable('stores')
      .set((eb) => ({ name: eb.ref('name') }))
      .where('id', '=', storeId)
      .execute();
  }

  override async delete(storeId: number, id: number): Promise<boolean> {
    await this.db.deleteFrom('product_categories').where('store_id', '=', storeId).where('category_id', '=', id).execute();
    return super.delete(storeId, id);
  }
}

function toCategory(row: Pick<Selectable<CategoriesTable>, 'id' | 'title' | 'parent_id' | 'created_at'>): Category {
  return { id: row.id, title: row.title, parentId: row.parent_id, createdAt: row.created_at };
}

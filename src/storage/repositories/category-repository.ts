import type { Kysely, Selectable } from 'kysely';
import type { Category } from '../../contract/categories.js';
import type { CategoryFields, CategoryRepository } from '../../modules/catalog/category-repository.js';
import type { Page } from '../../modules/shared/page.js';
import type { Tables } from '../tables.js';
import type { CategoriesTable } from '../tables/catalog-tables.js';

export class KyselyCategoryRepository implements CategoryRepository {
  constructor(private readonly db: Kysely<Tables>) {}

  async list(storeId: number, page: Page): Promise<Category[]> {
    const rows = await this.db
      .selectFrom('categories')
      .selectAll()
      .where('store_id', '=', storeId)
      .orderBy('id')
      .limit(page.count)
      .offset(page.offset)
      .execute();
    return rows.map(toCategory);
  }

  async count(storeId: number): Promise<number> {
    const row = await this.db
      .selectFrom('categories')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('store_id', '=', storeId)
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  async find(storeId: number, id: number): Promise<Category | undefined> {
    const row = await this.db.selectFrom('categories').selectAll().where('store_id', '=', storeId).where('id', '=', id).executeTakeFirst();
    return row && toCategory(row);
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

  async insert(storeId: number, fields: CategoryFields, createdAt: string): Promise<Category> {
    const row = await this.db
      .insertInto('categories')
      .values({ store_id: storeId, title: fields.title, parent_id: fields.parentId, created_at: createdAt })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toCategory(row);
  }

  async update(storeId: number, id: number, patch: Partial<CategoryFields>): Promise<Category | undefined> {
    const row = await this.db
      .updateTable('categories')
      .set({
        ...(patch.title !== undefined && { title: patch.title }),
        ...(patch.parentId !== undefined && { parent_id: patch.parentId }),
      })
      .where('store_id', '=', storeId)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
    return row && toCategory(row);
  }

  async delete(storeId: number, id: number): Promise<boolean> {
    await this.db.deleteFrom('product_categories').where('store_id', '=', storeId).where('category_id', '=', id).execute();
    const result = await this.db.deleteFrom('categories').where('store_id', '=', storeId).where('id', '=', id).executeTakeFirst();
    return result.numDeletedRows > 0n;
  }
}

function toCategory(row: Pick<Selectable<CategoriesTable>, 'id' | 'title' | 'parent_id' | 'created_at'>): Category {
  return { id: row.id, title: row.title, parentId: row.parent_id, createdAt: row.created_at };
}

import type { Category } from '../../contract/categories.js';
import type { Page } from '../shared/page.js';

export interface CategoryFields {
  title: string;
  parentId: number | null;
}

/** Categories as stored, never with `parents`: the service assembles those. */
export interface CategoryRepository {
  list(storeId: number, page: Page): Promise<Category[]>;
  count(storeId: number): Promise<number>;
  find(storeId: number, id: number): Promise<Category | undefined>;
  /** Those of the ids that are categories of the store. */
  existing(storeId: number, ids: readonly number[]): Promise<number[]>;
  /** Those of the ids that are categories of the store, with all their ancestors, in no order. */
  withAncestors(storeId: number, ids: readonly number[]): Promise<Category[]>;
  hasChildren(storeId: number, id: number): Promise<boolean>;
  /**
   * Serializes changes of parents within one store until the transaction ends, so two
   * concurrent moves cannot together make a cycle that neither sees alone.
   */
  lockTree(storeId: number): Promise<void>;
  insert(storeId: number, fields: CategoryFields, createdAt: string): Promise<Category>;
  update(storeId: number, id: number, patch: Partial<CategoryFields>): Promise<Category | undefined>;
  /** Deletes the category and its product links; false when missing. */
  delete(storeId: number, id: number): Promise<boolean>;
}

import type { Category } from '../../contract/categories.js';
import type { StoreRecords } from '../shared/store-records.js';

export interface CategoryFields {
  title: string;
  parentId: number | null;
}

/** Categories are listed by no filter but their store's. */
export type CategoryFilter = Record<never, never>;

/** Categories as stored, never with `parents`: the service assembles those. `delete` takes the category's product links with it. */
export interface CategoryRepository extends StoreRecords<Category, CategoryFields, CategoryFilter> {
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
}

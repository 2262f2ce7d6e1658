import type { Product } from '../../contract/products.js';
import type { QuantityRule } from '../../contract/quantity-rules.js';
import type { Page } from '../shared/page.js';

export interface ProductFilter {
  /** The product owning this SKU, its own or a variation's. */
  sku?: string;
  /** Products linked to this category. */
  categoryId?: number;
}

/** A product's own columns; variations, categories and SKUs have their own repositories. */
export interface ProductFields {
  title: string;
  sku: string | null;
  price: number;
  active: boolean;
  /** Null: no rule. */
  quantityRule: QuantityRule | null;
}

export interface ProductRepository {
  /** Products with their variations and category ids, in a fixed number of queries per page. */
  list(storeId: number, filter: ProductFilter, page: Page): Promise<Product[]>;
  count(storeId: number, filter: ProductFilter): Promise<number>;
  find(storeId: number, id: number): Promise<Product | undefined>;
  /** Finds several at once; missing and other stores' ids are simply absent. */
  findMany(storeId: number, ids: readonly number[]): Promise<Product[]>;
  exists(storeId: number, id: number): Promise<boolean>;
  insert(storeId: number, fields: ProductFields, createdAt: string): Promise<number>;
  /** False when the store has no such product. */
  update(storeId: number, id: number, patch: Partial<ProductFields>): Promise<boolean>;
  /** Replaces the set of categories the product is linked to. */
  replaceCategories(storeId: number, id: number, categoryIds: readonly number[]): Promise<void>;
  /** Deletes the product with its variations, category links and SKUs; false when missing. */
  delete(storeId: number, id: number): Promise<boolean>;
}

import type { QuantityRule } from '../../contract/quantity-rules.js';
import type { Variation } from '../../contract/variations.js';
import type { Page } from '../shared/page.js';

export interface VariationFields {
  sku: string;
  /** null: the product price applies. */
  price: number | null;
  /** null: stock is not tracked. */
  stock: number | null;
  /** null: the product's rule applies. */
  quantityRule: QuantityRule | null;
}

export interface VariationRepository {
  list(storeId: number, productId: number, page: Page): Promise<Variation[]>;
  count(storeId: number, productId: number): Promise<number>;
  find(storeId: number, productId: number, id: number): Promise<Variation | undefined>;
  /** Returns the created variations in the order given. */
  insertMany(storeId: number, productId: number, variations: readonly VariationFields[], createdAt: string): Promise<Variation[]>;
  update(storeId: number, productId: number, id: number, patch: Partial<VariationFields>): Promise<Variation | undefined>;
  /** Deletes the variations; their SKUs must have been released first. */
  deleteMany(storeId: number, productId: number, ids: readonly number[]): Promise<number>;
}

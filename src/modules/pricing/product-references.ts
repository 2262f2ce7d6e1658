import type { FieldProblem } from '../errors.js';

/** The store's products and SKU owners among those a batch names, looked up at once. */
export interface ProductReferences {
  productIds: ReadonlySet<number>;
  /** The product owning each SKU. */
  skuOwners: ReadonlyMap<string, number>;
}

/** An item's product must be the store's, and its SKU the product's own or one of its variations'. */
export function productProblems(item: { productId: number; sku: string }, index: number, references: ProductReferences): FieldProblem[] {
  if (!references.productIds.has(item.productId)) return [{ index, field: 'productId', message: `Product ${item.productId} does not exist in this store` }];
  if (references.skuOwners.get(item.sku) !== item.productId) return [{ index, field: 'sku', message: `SKU '${item.sku}' does not belong to product ${item.productId}` }];
  return [];
}

import type { Generated } from 'kysely';

/* The catalog: categories, products, their variations, and the SKUs both own. */

export interface CategoriesTable {
  id: Generated<number>;
  store_id: number;
  title: string;
  parent_id: number | null;
  created_at: string;
}

export interface ProductsTable {
  id: Generated<number>;
  store_id: number;
  title: string;
  sku: string | null;
  /** Ten-thousandths of the currency unit. */
  price: number;
  active: number;
  /** The quantity rule (docs/pricing.md), all three null when none. */
  quantity_minimum: number | null;
  quantity_maximum: number | null;
  quantity_increment: number | null;
  created_at: string;
}

export interface ProductVariationsTable {
  id: Generated<number>;
  store_id: number;
  product_id: number;
  sku: string;
  /** Ten-thousandths; null means the product's price applies. */
  price: number | null;
  stock: number | null;
  /** Its own quantity rule, all three null when none (the product's applies). */
  quantity_minimum: number | null;
  quantity_maximum: number | null;
  quantity_increment: number | null;
  created_at: string;
}

export interface ProductCategoriesTable {
  store_id: number;
  product_id: number;
  category_id: number;
}

/**
 * Every SKU of a store, product or variation: its primary key makes SKUs unique per store
 * across both, so two concurrent writers cannot both claim one.
 */
export interface SkusTable {
  store_id: number;
  sku: string;
  product_id: number;
  variation_id: number | null;
}

/** The catalog: this area's tables, by name (composed into `Tables`). */
export interface CatalogTables {
  categories: CategoriesTable;
  products: ProductsTable;
  product_variations: ProductVariationsTable;
  product_categories: ProductCategoriesTable;
  skus: SkusTable;
}

import { Type, type Static } from '@sinclair/typebox';
import { Annotated, Id, NoControlCharacters, Nullable, PageQuery, PartialStrictObject, Price, StrictObject, Timestamp } from './common.js';
import { QuantityRule, QuantityRuleInput } from './quantity-rules.js';
import { ProductVariation, Sku, VariationInput } from './variations.js';

export const ProductInput = StrictObject(
  {
    title: NoControlCharacters(Type.String({ minLength: 1, maxLength: 255 })),
    sku: Type.Optional(Nullable({ ...Sku, description: 'The product’s own SKU; products with variations may have none' })),
    price: Price,
    active: Type.Optional(Type.Boolean({ default: true })),
    quantityRule: Type.Optional(
      Nullable({
        ...QuantityRuleInput,
        description: 'How many units a line may order of its SKUs (a variation may have its own); null or left out on create: no rule',
      }),
    ),
    categoryIds: Type.Optional(Type.Array(Id, { default: [], uniqueItems: true, maxItems: 100, description: 'Categories of this store' })),
    variations: Type.Optional(Type.Array(VariationInput, { default: [], maxItems: 1000, description: 'On update: replaces the list, matched by sku' })),
  },
  { title: 'ProductInput' },
);
export type ProductInput = Static<typeof ProductInput>;

/** Products in one bulk create, and variations in all of them together. */
export const MAX_BULK_PRODUCTS = 1000;
export const MAX_BULK_VARIATIONS = 10_000;

export const BulkProductRequest = Type.Array(ProductInput, {
  minItems: 1,
  maxItems: MAX_BULK_PRODUCTS,
  description: `1–${MAX_BULK_PRODUCTS} products, each as \`POST /v1/products\` takes it (up to 1000 variations each, ${MAX_BULK_VARIATIONS} in all); all are created or none`,
});

export const ProductUpdate = PartialStrictObject(ProductInput, { title: 'ProductUpdate' });
export type ProductUpdate = Static<typeof ProductUpdate>;

export const Product = Type.Object(
  {
    id: Id,
    title: Type.String(),
    sku: Nullable(Type.String()),
    price: Type.Number(),
    active: Type.Boolean(),
    quantityRule: Nullable({ ...QuantityRule, description: 'How many units a line may order of its SKUs; null: no rule' }),
    categoryIds: Type.Array(Id, { description: 'Ascending' }),
    variations: Type.Array(ProductVariation, { description: 'Ascending by id' }),
    createdAt: Timestamp,
  },
  { title: 'Product', $id: 'Product', additionalProperties: false },
);
export type Product = Static<typeof Product>;

const ProductFilterQuery = {
  sku: Type.Optional(Type.String({ minLength: 1, maxLength: 255, description: 'The product owning this SKU, its own or a variation’s' })),
  categoryId: Type.Optional(Annotated(Id, { description: 'Products linked to this category (not to its subcategories)' })),
};

export const ProductListQuery = Type.Object({ ...PageQuery, ...ProductFilterQuery }, { title: 'ProductListQuery', additionalProperties: false });
export type ProductListQuery = Static<typeof ProductListQuery>;

export const ProductCountQuery = Type.Object(ProductFilterQuery, { title: 'ProductCountQuery', additionalProperties: false });

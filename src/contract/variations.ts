import { Type, type Static } from '@sinclair/typebox';
import { Id, NoControlCharacters, Nullable, PageQuery, PartialStrictObject, Price, StrictObject, Timestamp } from './common.js';
import { QuantityRule, QuantityRuleInput } from './quantity-rules.js';

/** Unique within a store across products and variations; compared exactly (case-sensitive). */
export const Sku = NoControlCharacters(Type.String({ minLength: 1, maxLength: 255, examples: ['TEE-RED-M'] }));

/** Units in stock; null when stock is not tracked. Capped at the storage column's range. */
export const Stock = Type.Integer({ minimum: 0, maximum: 2_147_483_647 });

export const VariationInput = StrictObject(
  {
    sku: Sku,
    price: Type.Optional(Nullable({ ...Price, description: 'null: the product price applies (omitted on create: null)' })),
    stock: Type.Optional(Nullable({ ...Stock, description: 'null: stock is not tracked (omitted on create: null)' })),
    quantityRule: Type.Optional(
      Nullable({ ...QuantityRuleInput, description: "How many units a line may order; null: the product's rule applies (omitted on create: null)" }),
    ),
  },
  { title: 'VariationInput' },
);
export type VariationInput = Static<typeof VariationInput>;

export const VariationUpdate = PartialStrictObject(VariationInput, { title: 'VariationUpdate' });
export type VariationUpdate = Static<typeof VariationUpdate>;

const VariationProperties = {
  id: Id,
  sku: Type.String(),
  price: Nullable(Type.Number({ description: 'null: the product price applies' })),
  stock: Nullable(Type.Integer()),
  quantityRule: Nullable({ ...QuantityRule, description: "The variation's own quantity rule; null: the product's applies" }),
};

/** A variation as its product lists it. */
export const ProductVariation = Type.Object(VariationProperties, { additionalProperties: false });
export type ProductVariation = Static<typeof ProductVariation>;

/** A variation on its own, under `/v1/products/{id}/variations`. */
export const Variation = Type.Object(
  {
    id: Id,
    productId: Id,
    sku: VariationProperties.sku,
    price: VariationProperties.price,
    stock: VariationProperties.stock,
    quantityRule: VariationProperties.quantityRule,
    createdAt: Timestamp,
  },
  { title: 'Variation', $id: 'Variation', additionalProperties: false },
);
export type Variation = Static<typeof Variation>;

/** `variationId` ends in `Id`, so a malformed one is a 404 like `id`. */
export const VariationParams = Type.Object({ id: Id, variationId: Id }, { additionalProperties: false });

export const VariationListQuery = Type.Object({ ...PageQuery }, { title: 'VariationListQuery', additionalProperties: false });

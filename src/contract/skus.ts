import { Type, type Static } from '@sinclair/typebox';
import { Id, Nullable, StrictObject } from './common.js';
import { Sku } from './variations.js';

/** SKUs in one lookup request. */
export const MAX_LOOKUP_SKUS = 1000;

export const SkuLookupRequest = StrictObject(
  {
    skus: Type.Array(Sku, {
      minItems: 1,
      maxItems: MAX_LOOKUP_SKUS,
      description: `1–${MAX_LOOKUP_SKUS} SKUs, compared exactly (case-sensitive). A SKU sent more than once is answered once, at its first position`,
    }),
  },
  { title: 'SkuLookupRequest' },
);
export type SkuLookupRequest = Static<typeof SkuLookupRequest>;

/** A SKU of the store, who holds it and its catalog price: a lookup's and a search's answer. */
const SkuHolderFields = {
  sku: Type.String(),
  productId: Id,
  variationId: Nullable(Type.Integer({ minimum: 1, description: 'null: the product’s own SKU' })),
  price: Type.Number({ description: 'The catalog price of the SKU: the variation’s own price, else its product’s' }),
};

export const SkuLookupItem = Type.Object(SkuHolderFields, { title: 'SkuLookupItem', additionalProperties: false });
export type SkuLookupItem = Static<typeof SkuLookupItem>;

export const SkuLookupResult = Type.Object(
  {
    found: Type.Array(SkuLookupItem, { description: 'The SKUs of this store that were sent, in request order' }),
    unknown: Type.Array(Type.String(), { description: 'The SKUs sent that this store does not have, in request order' }),
  },
  { title: 'SkuLookupResult', $id: 'SkuLookupResult', additionalProperties: false },
);
export type SkuLookupResult = Static<typeof SkuLookupResult>;

/** SKUs one search answers, at most. */
export const MAX_SKU_SEARCH = 50;

export const SkuSearchQuery = Type.Object(
  {
    contains: Type.String({
      minLength: 1,
      maxLength: 255,
      description: 'Text the SKU contains, the letters A–Z in either case (for finding a SKU; prices match SKUs exactly)',
    }),
    count: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_SKU_SEARCH, default: 20, description: `SKUs to answer, 1–${MAX_SKU_SEARCH}` })),
  },
  { title: 'SkuSearchQuery', additionalProperties: false },
);
export type SkuSearchQuery = Static<typeof SkuSearchQuery>;

export const SkuSearchItem = Type.Object(
  { ...SkuHolderFields, title: Type.String({ description: 'The product’s title' }) },
  { title: 'SkuSearchItem', $id: 'SkuSearchItem', additionalProperties: false },
);
export type SkuSearchItem = Static<typeof SkuSearchItem>;

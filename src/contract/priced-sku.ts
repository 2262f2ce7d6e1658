import { Type, type Static } from '@sinclair/typebox';
import { Price, PriceRuleInput } from './common.js';
import { Sku } from './variations.js';

/**
 * A price for one SKU of one product, with its optional quantity break and validity window:
 * an entry of a price list, or a customer's price in a replace.
 */
export const PricedSkuInput = Type.Object(
  {
    productId: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'A product of this store' }),
    sku: Sku,
    price: Price,
    ...PriceRuleInput,
  },
  { additionalProperties: false },
);
export type PricedSkuInput = Static<typeof PricedSkuInput>;

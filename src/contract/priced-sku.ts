import { Type, type Static, type TProperties } from '@sinclair/typebox';
import { Id, Nullable, Price, PriceRuleFields, PriceRuleInput, Timestamp } from './common.js';
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
  { title: 'PricedSkuInput', additionalProperties: false },
);
export type PricedSkuInput = Static<typeof PricedSkuInput>;

/**
 * A record a replace created, its owner's field first (`customerId`, `priceListId`); in a dry
 * run, one that would be: no id and no createdAt yet.
 */
export function PlannedPricedRecord<Owner extends TProperties, Extra extends TProperties>(owner: Owner, extra: Extra) {
  return Type.Object(
    {
      id: Nullable({ ...Id, description: 'Null in a dry run' }),
      ...owner,
      productId: Id,
      sku: Type.String(),
      price: Type.Number(),
      ...PriceRuleFields,
      ...extra,
      createdAt: Nullable({ ...Timestamp, description: 'Null in a dry run' }),
    },
    { additionalProperties: false },
  );
}

import { Type, type Static } from '@sinclair/typebox';
import { Id, MomentQuery, NoControlCharacters, Nullable, PageQuery, PartialStrictObject, PriceRuleFields, StrictObject, Timestamp } from './common.js';
import { PricedSkuInput } from './priced-sku.js';

/** Entries in one bulk create. */
export const MAX_PRICE_LIST_BULK_ITEMS = 1000;
/** Price lists one customer can have. */
export const MAX_PRICE_LISTS_PER_CUSTOMER = 20;

export const PRICE_LIST_KINDS = ['fixed', 'percentage'] as const;
export type PriceListKind = (typeof PRICE_LIST_KINDS)[number];

const Kind = Type.Unsafe<PriceListKind>({
  type: 'string',
  enum: [...PRICE_LIST_KINDS],
  description: '`fixed`: a price per SKU, from its entries. `percentage`: a share off every catalog price. Set at creation, never changed',
});

/** Percent off the catalog price: 0–100 with at most 4 decimals (12.5 is 12.5 % off). */
export const Percentage = Type.Number({ minimum: 0, maximum: 100, 'x-decimal-places': 4, examples: [12.5] });

export const PriceListInput = StrictObject({
  name: NoControlCharacters(Type.String({ minLength: 1, maxLength: 255 })),
  kind: Kind,
  percentage: Type.Optional(Nullable({ ...Percentage, description: 'Required for a percentage list; absent or null for a fixed one' })),
});
export type PriceListInput = Static<typeof PriceListInput>;

/** `kind` may be sent, but only as it is. */
export const PriceListUpdate = PartialStrictObject(PriceListInput);
export type PriceListUpdate = Static<typeof PriceListUpdate>;

export const PriceList = Type.Object(
  {
    id: Id,
    name: Type.String(),
    kind: Kind,
    percentage: Nullable({ ...Percentage, description: 'Percent off the catalog price (rounded half-up to 4 decimals); null for a fixed list' }),
    createdAt: Timestamp,
  },
  { $id: 'PriceList', additionalProperties: false },
);
export type PriceList = Static<typeof PriceList>;

const ListFilters = {
  kind: Type.Optional(Type.Union([Type.Literal('fixed'), Type.Literal('percentage')], { description: 'Only lists of this kind' })),
};
export const PriceListListQuery = Type.Object({ ...PageQuery, ...ListFilters }, { additionalProperties: false });
export type PriceListListQuery = Static<typeof PriceListListQuery>;
export const PriceListCountQuery = Type.Object(ListFilters, { additionalProperties: false });
export const PriceListGetQuery = Type.Object({ fields: PageQuery.fields }, { additionalProperties: false });

/** One entry of a fixed list's bulk create. */
export const PriceListPriceInput = PricedSkuInput;
export type PriceListPriceInput = PricedSkuInput;

export const BulkPriceListPriceRequest = Type.Array(PriceListPriceInput, {
  minItems: 1,
  maxItems: MAX_PRICE_LIST_BULK_ITEMS,
  description: `1–${MAX_PRICE_LIST_BULK_ITEMS} entries; all are created or none`,
});

export const PriceListPrice = Type.Object(
  {
    id: Id,
    priceListId: Id,
    productId: Id,
    sku: Type.String(),
    price: Type.Number({ description: 'Exactly as sent' }),
    ...PriceRuleFields,
    createdAt: Timestamp,
  },
  { $id: 'PriceListPrice', additionalProperties: false },
);
export type PriceListPrice = Static<typeof PriceListPrice>;

const EntryFilters = {
  productId: Type.Optional(Type.Integer({ minimum: 1 })),
  sku: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
  validAt: MomentQuery('Only entries valid at this moment: validFrom ≤ validAt < validUntil'),
};
export const PriceListPriceListQuery = Type.Object({ ...PageQuery, ...EntryFilters }, { additionalProperties: false });
export type PriceListPriceListQuery = Static<typeof PriceListPriceListQuery>;
export const PriceListPriceCountQuery = Type.Object(EntryFilters, { additionalProperties: false });

export const PriceListPriceParams = Type.Object({ id: Id, priceId: Id }, { additionalProperties: false });

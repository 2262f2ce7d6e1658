import { Type, type Static } from '@sinclair/typebox';
import { EmbedQuery, Id, Price, PageQuery, FieldsQuery, Timestamp } from './common.js';
import { Customer } from './customers.js';
import { Product } from './products.js';

export const MAX_BULK_ITEMS = 1000;

export const Sku = Type.String({ minLength: 1, maxLength: 255, description: 'Exact SKU of the product or one of its variations (case-sensitive)' });

/** One item of a bulk create: exactly these four fields. */
export const TradePriceInput = Type.Object(
  {
    customerId: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'A trade customer of this store' }),
    productId: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'A product of this store' }),
    sku: Sku,
    price: Price,
  },
  { additionalProperties: false },
);
export type TradePriceInput = Static<typeof TradePriceInput>;

export const BulkTradePriceRequest = Type.Array(TradePriceInput, {
  minItems: 1,
  maxItems: MAX_BULK_ITEMS,
  description: '1–1000 trade prices; all are created or none',
});

export const TradePrice = Type.Object(
  {
    id: Id,
    customerId: Id,
    productId: Id,
    sku: Type.String(),
    price: Type.Number({ description: 'Exactly as sent' }),
    createdAt: Timestamp,
  },
  { $id: 'TradeCustomerProductPrice', additionalProperties: false },
);
export type TradePrice = Static<typeof TradePrice>;

export const TRADE_PRICE_EMBEDS = ['customer', 'product'] as const;

/** A record with `embed=customer,product`; the product is the catalog's product object. */
export const TradePriceWithEmbeds = Type.Composite([
  TradePrice,
  Type.Object({ customer: Type.Optional(Customer), product: Type.Optional(Product) }),
]);

const Filters = {
  customerId: Type.Optional(Type.Integer({ minimum: 1, description: 'Only this customer’s prices' })),
  productId: Type.Optional(Type.Integer({ minimum: 1 })),
  sku: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
};

export const TradePriceListQuery = Type.Object({ ...PageQuery, ...Filters, embed: EmbedQuery(TRADE_PRICE_EMBEDS) }, { additionalProperties: false });
export type TradePriceListQuery = Static<typeof TradePriceListQuery>;

export const TradePriceCountQuery = Type.Object(Filters, { additionalProperties: false });

export const TradePriceGetQuery = Type.Object({ ...FieldsQuery, embed: EmbedQuery(TRADE_PRICE_EMBEDS) }, { additionalProperties: false });

export const EffectivePriceQuery = Type.Object(
  { customerId: Type.Integer({ minimum: 1 }), sku: Sku },
  { additionalProperties: false },
);

export const EffectivePrice = Type.Object(
  {
    customerId: Id,
    sku: Type.String(),
    productId: Id,
    variationId: Type.Union([Id, Type.Null()]),
    price: Type.Number(),
    source: Type.Union([Type.Literal('trade'), Type.Literal('variation'), Type.Literal('product')]),
    tradePriceId: Type.Union([Id, Type.Null()], { description: 'The trade price applied, if any' }),
    shadowedTradePriceIds: Type.Array(Id, { description: 'Other trade prices of this customer for this SKU, newest first; they do not apply' }),
  },
  { $id: 'EffectivePrice', additionalProperties: false },
);
export type EffectivePrice = Static<typeof EffectivePrice>;

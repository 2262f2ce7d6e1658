import { Type, type Static } from '@sinclair/typebox';
import { Annotated, FieldsQuery, Id, MAX_LINE_QUANTITY, Nullable, PageQuery, StrictObject, Timestamp } from './common.js';
import { Sku } from './variations.js';
import { PRICE_SOURCES, type PriceSource } from './trade-prices.js';

/** Lines in one order. */
export const MAX_ORDER_LINES = 500;
export { MAX_LINE_QUANTITY } from './common.js';
/**
 * Every line total and order total stays below this amount: with 4 decimals that is at most 15
 * significant digits, which a JSON number (a binary double) carries exactly.
 */
export const MAX_ORDER_AMOUNT = 100_000_000_000;

export const OrderLineInput = StrictObject({
  sku: Annotated(Sku, { description: 'Exact SKU of a product or variation of this store (case-sensitive); each SKU once per order' }),
  quantity: Type.Integer({ minimum: 1, maximum: MAX_LINE_QUANTITY, description: `A JSON integer, 1–${MAX_LINE_QUANTITY}` }),
});
export type OrderLineInput = Static<typeof OrderLineInput>;

export const OrderInput = StrictObject(
  {
    customerId: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'An active customer of this store' }),
    lines: Type.Array(OrderLineInput, { minItems: 1, maxItems: MAX_ORDER_LINES, description: `1–${MAX_ORDER_LINES} lines, each SKU at most once` }),
  },
  { title: 'OrderInput' },
);
export type OrderInput = Static<typeof OrderInput>;

const Amount = (description: string) =>
  Type.Number({ minimum: 0, exclusiveMaximum: MAX_ORDER_AMOUNT, description: `${description}; exact, at most 4 decimals` });

export const OrderLine = Type.Object(
  {
    sku: Type.String(),
    quantity: Type.Integer({ minimum: 1 }),
    productId: Id,
    variationId: Type.Union([Id, Type.Null()], { description: 'Null when the SKU is the product’s own' }),
    unitPrice: Amount('The customer’s effective price when the order was placed'),
    lineTotal: Amount('unitPrice × quantity'),
    // Null only on lines of orders placed before prices had sources (see docs/pricing.md).
    source: Type.Unsafe<PriceSource | null>({
      type: ['string', 'null'],
      enum: [...PRICE_SOURCES, null],
      description: 'Where unitPrice came from, by the resolution rule (docs/pricing.md)',
    }),
    tradePriceId: Nullable({ ...Id, description: 'The trade price applied, if any' }),
    priceListId: Nullable({ ...Id, description: 'The price list applied, if any' }),
    priceListPriceId: Nullable({ ...Id, description: 'The entry of a fixed price list applied, if any' }),
  },
  { title: 'OrderLine', additionalProperties: false },
);
export type OrderLine = Static<typeof OrderLine>;

export const Order = Type.Object(
  {
    id: Id,
    customerId: Id,
    status: Type.Literal('placed'),
    currency: Type.String({ description: "The store's currency (ISO 4217) when the order was placed: of every amount of the order", examples: ['GBP'] }),
    lines: Type.Array(OrderLine, { description: 'In request order' }),
    total: Amount('Sum of the line totals'),
    createdAt: Timestamp,
  },
  { title: 'Order', $id: 'Order', additionalProperties: false },
);
export type Order = Static<typeof Order>;

const Filters = {
  customerId: Type.Optional(Type.Integer({ minimum: 1, description: 'Only this customer’s orders' })),
};

export const OrderListQuery = Type.Object({ ...PageQuery, ...Filters }, { title: 'OrderListQuery', additionalProperties: false });
export const OrderCountQuery = Type.Object(Filters, { title: 'OrderCountQuery', additionalProperties: false });
export const OrderGetQuery = Type.Object(FieldsQuery, { title: 'OrderGetQuery', additionalProperties: false });

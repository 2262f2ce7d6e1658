import { Type, type Static } from '@sinclair/typebox';
import { Annotated, Id, Nullable, Quantity, StrictObject, Timestamp } from './common.js';
import { MAX_ORDER_AMOUNT } from './orders.js';
import { PricedLineFields } from './trade-prices.js';
import { Sku } from './variations.js';

/** Lines in one quote: a cart, or a page of a catalog. */
export const MAX_QUOTE_LINES = 1000;

export const QuoteLineInput = StrictObject({ sku: Sku, quantity: Quantity });

export const QuoteInput = StrictObject(
  {
    customerId: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'A customer of this store' }),
    at: Type.Optional(Annotated(Timestamp, { description: 'The moment to price at; default now' })),
    lines: Type.Array(QuoteLineInput, { minItems: 1, maxItems: MAX_QUOTE_LINES, description: `1–${MAX_QUOTE_LINES} lines; a SKU may come more than once` }),
  },
  { title: 'QuoteInput' },
);
export type QuoteInput = Static<typeof QuoteInput>;

const Amount = (description: string) =>
  Type.Number({ minimum: 0, exclusiveMaximum: MAX_ORDER_AMOUNT, description: `${description}; exact, at most 4 decimals` });

export const QuoteLine = Type.Object(
  {
    sku: Type.String(),
    productId: Id,
    variationId: Nullable(Id),
    quantity: Type.Integer({ minimum: 1 }),
    unitPrice: Amount('The customer’s price for one unit at this quantity'),
    lineTotal: Amount('unitPrice × quantity'),
    ...PricedLineFields,
  },
  { additionalProperties: false },
);
export type QuoteLine = Static<typeof QuoteLine>;

export const Quote = Type.Object(
  {
    customerId: Id,
    at: Timestamp,
    currency: Type.String({ description: "The store's currency (ISO 4217) of every amount of the quote", examples: ['GBP'] }),
    lines: Type.Array(QuoteLine, { description: 'In request order' }),
    total: Amount('Sum of the line totals'),
  },
  { title: 'Quote', $id: 'Quote', additionalProperties: false },
);
export type Quote = Static<typeof Quote>;

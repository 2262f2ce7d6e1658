import { Type, type Static } from '@sinclair/typebox';
import {
  Annotated,
  EmbedQuery,
  Id,
  MomentQuery,
  NoControlCharacters,
  Nullable,
  Price,
  PageQuery,
  PriceRuleFields,
  PriceRuleInput,
  Quantity,
  FieldsQuery,
  Timestamp,
} from './common.js';
import { Customer } from './customers.js';
import { QuantityRule } from './quantity-rules.js';
import { PlannedPricedRecord, PricedSkuInput } from './priced-sku.js';
import { Product } from './products.js';

export const MAX_BULK_ITEMS = 1000;

const SkuText = Type.String({ minLength: 1, maxLength: 255, description: 'Exact SKU of the product or one of its variations (case-sensitive)' });
export const Sku = NoControlCharacters(SkuText);

/**
 * One item of a bulk create: the interface's four fields, and optionally a quantity break and a
 * validity window (left out: from 1 unit, always).
 */
export const TradePriceInput = Type.Object(
  {
    customerId: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'A trade customer of this store' }),
    productId: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'A product of this store' }),
    sku: Sku,
    price: Price,
    ...PriceRuleInput,
  },
  { title: 'TradePriceInput', additionalProperties: false },
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
    ...PriceRuleFields,
    createdAt: Timestamp,
  },
  { title: 'TradePrice', $id: 'TradeCustomerProductPrice', additionalProperties: false },
);
export type TradePrice = Static<typeof TradePrice>;

/**
 * What makes a price, whoever holds it (a trade price, a price list entry, a row of an import):
 * `price` is a decimal with at most 4 places, as the API sends and answers it (ten-thousandths
 * appear only in storage, and in amounts named `…Units`); `minQuantity` in units of the SKU;
 * the bounds canonical timestamps, or null for none.
 */
export type PricedSku = Pick<TradePrice, 'productId' | 'sku' | 'price' | 'minQuantity' | 'validFrom' | 'validUntil'>;

/** Prices in one replace: within the 1 MiB body limit. */
export const MAX_REPLACE_ITEMS = 10_000;

export const ReplaceTradePricesRequest = Type.Object(
  {
    customerId: Type.Integer({
      minimum: 1,
      maximum: Number.MAX_SAFE_INTEGER,
      description: 'A customer of this store (a trade customer, unless `prices` is empty)',
    }),
    prices: Type.Array(PricedSkuInput, {
      maxItems: MAX_REPLACE_ITEMS,
      description: `0–${MAX_REPLACE_ITEMS} prices, as a bulk create's items without customerId`,
    }),
    scope: Type.Unsafe<'customer' | 'skus'>({
      type: 'string',
      enum: ['customer', 'skus'],
      description: '`customer`: the customer’s prices become exactly `prices`. `skus`: only the prices of the SKUs named in `prices` are replaced; others stay',
    }),
    dryRun: Type.Optional(Type.Boolean({ default: false, description: 'Answer what would change, and change nothing' })),
  },
  { title: 'ReplaceTradePricesRequest', additionalProperties: false },
);
export type ReplaceTradePricesRequest = Static<typeof ReplaceTradePricesRequest>;

/** A created record; in a dry run, one that would be: no id and no createdAt yet. */
export const PlannedTradePrice = PlannedPricedRecord({ customerId: Id }, {});

export const ReplaceTradePricesResult = Type.Object(
  {
    created: Type.Array(PlannedTradePrice, { description: 'In the order of `prices`' }),
    deleted: Type.Array(TradePrice, { description: 'By id' }),
    unchanged: Type.Integer({ minimum: 0, description: 'Prices equal in every field to a record already there: it stays, with its id, and no event' }),
  },
  { title: 'ReplaceTradePricesResult', $id: 'ReplaceTradePricesResult', additionalProperties: false },
);
export type ReplaceTradePricesResult = Static<typeof ReplaceTradePricesResult>;

export const TRADE_PRICE_EMBEDS = ['customer', 'product'] as const;

/** A record with `embed=customer,product`; the product is the catalog's product object. */
export const TradePriceWithEmbeds = Type.Composite([TradePrice, Type.Object({ customer: Type.Optional(Customer), product: Type.Optional(Product) })], {
  title: 'TradePriceWithEmbeds',
  additionalProperties: false,
});

const Filters = {
  customerId: Type.Optional(Type.Integer({ minimum: 1, description: 'Only this customer’s prices' })),
  productId: Type.Optional(Type.Integer({ minimum: 1 })),
  sku: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
  skuContains: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 255,
      description: 'Only records whose SKU contains this text, the letters A–Z in either case (for finding a record; prices still match SKUs exactly)',
    }),
  ),
  validAt: MomentQuery('Only records valid at this moment: validFrom ≤ validAt < validUntil'),
};

/** Orders of a list page: a field, ascending, or `-` and the field, descending; ties in id order, the same way. */
export const TRADE_PRICE_SORTS = [
  'id',
  '-id',
  'sku',
  '-sku',
  'productId',
  '-productId',
  'price',
  '-price',
  'minQuantity',
  '-minQuantity',
  'validFrom',
  '-validFrom',
  'validUntil',
  '-validUntil',
] as const;
export type TradePriceSort = (typeof TRADE_PRICE_SORTS)[number];

export const TradePriceListQuery = Type.Object(
  {
    ...PageQuery,
    ...Filters,
    sort: Type.Optional(
      Type.Unsafe<TradePriceSort>({
        type: 'string',
        enum: [...TRADE_PRICE_SORTS],
        default: 'id',
        description:
          'The order of the records: a field, ascending, or `-` and the field, descending (`-id`: newest first); ties in id order, the same way. A missing validFrom (no start) comes first ascending, a missing validUntil (no end) last. `productId` keeps a product’s prices together, products in the order they were added. SKUs compare by their characters’ code points',
      }),
    ),
    embed: EmbedQuery(TRADE_PRICE_EMBEDS),
  },
  { title: 'TradePriceListQuery', additionalProperties: false },
);
export type TradePriceListQuery = Static<typeof TradePriceListQuery>;

export const TradePriceCountQuery = Type.Object(Filters, { title: 'TradePriceCountQuery', additionalProperties: false });

export const TradePriceGetQuery = Type.Object(
  { ...FieldsQuery, embed: EmbedQuery(TRADE_PRICE_EMBEDS) },
  { title: 'TradePriceGetQuery', additionalProperties: false },
);

/** Candidates in one effective-price answer, at most (`candidatesCount`'s maximum and default). */
export const MAX_CANDIDATES = 100;

export const EffectivePriceQuery = Type.Object(
  {
    customerId: Type.Integer({ minimum: 1 }),
    sku: SkuText,
    quantity: Type.Optional(Annotated(Quantity, { default: 1, description: 'Units in the line being priced; default 1' })),
    at: MomentQuery('The moment to price at; default now'),
    candidatesOffset: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: Number.MAX_SAFE_INTEGER,
        default: 0,
        description: 'Candidates to skip, in the order the rule looks at them; default 0',
      }),
    ),
    candidatesCount: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: MAX_CANDIDATES,
        default: MAX_CANDIDATES,
        description: `Candidates to return, 1–${MAX_CANDIDATES}; default ${MAX_CANDIDATES}`,
      }),
    ),
    ...FieldsQuery,
  },
  { title: 'EffectivePriceQuery', additionalProperties: false },
);

export const PRICE_SOURCES = ['trade', 'price_list', 'variation', 'product'] as const;
export type PriceSource = (typeof PRICE_SOURCES)[number];
export const PriceSourceSchema = Type.Unsafe<PriceSource>({
  type: 'string',
  enum: [...PRICE_SOURCES],
  description: 'Where the price comes from: the customer’s own trade price, one of their price lists, the variation’s price or the product’s',
});

/** How one order or quote line was priced. */
export const PricedLineFields = {
  source: PriceSourceSchema,
  tradePriceId: Nullable({ ...Id, description: 'The trade price applied, if any' }),
  priceListId: Nullable({ ...Id, description: 'The price list applied, if any' }),
  priceListPriceId: Nullable({ ...Id, description: 'The entry of a fixed price list applied, if any' }),
};

/** A trade price, a price list entry or a percentage list that the resolution rule looked at. */
export const PriceCandidate = Type.Object(
  {
    source: Type.Union([Type.Literal('trade'), Type.Literal('price_list')]),
    tradePriceId: Nullable(Id),
    priceListId: Nullable({ ...Id, description: 'The list (null for a trade price)' }),
    priceListPriceId: Nullable({ ...Id, description: 'The list entry (null for a trade price or a percentage list)' }),
    customerGroupId: Type.Optional(
      Annotated(Id, {
        description:
          "Only on a list's candidate when the customer has the list through its group: that group (the group's lists come after the customer's own)",
      }),
    ),
    price: Type.Number({ description: 'What it would charge for one unit' }),
    unroundedPrice: Type.Optional(
      Type.Number({
        description:
          "A percentage list's only: its price before rounding to the store's currency or the list's own increment (to 4 decimals); `price` is what it charges",
      }),
    ),
    ...PriceRuleFields,
    applies: Type.Boolean(),
    reason: Nullable(Type.String({ description: 'Why it does not apply; null for the one that does' })),
  },
  { title: 'PriceCandidate', additionalProperties: false },
);
export type PriceCandidate = Static<typeof PriceCandidate>;

export const EffectivePrice = Type.Object(
  {
    customerId: Id,
    sku: Type.String(),
    productId: Id,
    variationId: Type.Union([Id, Type.Null()]),
    quantity: Type.Integer({ minimum: 1 }),
    at: Annotated(Timestamp, { description: 'The moment priced' }),
    price: Type.Number(),
    source: PriceSourceSchema,
    tradePriceId: Type.Union([Id, Type.Null()], { description: 'The trade price applied, if any' }),
    priceListId: Nullable({ ...Id, description: 'The price list applied, if any' }),
    priceListPriceId: Nullable({ ...Id, description: 'The entry of a fixed price list applied, if any' }),
    validUntil: Nullable({
      ...Timestamp,
      description: 'When the applied trade price or list entry stops applying; null: it does not end, or the price is not one',
    }),
    nextChangeAt: Nullable({
      ...Timestamp,
      description: 'The earliest moment after `at` when this answer changes at this quantity; null: never, as things stand',
    }),
    quantityRule: Nullable({
      ...QuantityRule,
      description:
        "How many units a line of this SKU may order in a quote or an order (the variation's own rule, else the product's); null: any. This answer prices any quantity",
    }),
    shadowedTradePriceIds: Type.Array(Id, {
      description: 'Other trade prices of this customer for this SKU, newest first; they do not apply. All of them, never paged',
    }),
    candidateCount: Type.Integer({ minimum: 0, description: 'How many candidates there are in all: `candidates` is the page of them from `candidatesOffset`' }),
    candidates: Type.Array(PriceCandidate, {
      maxItems: MAX_CANDIDATES,
      description: `The trade prices, list entries and percentage lists considered, in the order the rule looks at them: \`candidatesCount\` (default and at most ${MAX_CANDIDATES}) of them from \`candidatesOffset\``,
    }),
  },
  { title: 'EffectivePrice', $id: 'EffectivePrice', additionalProperties: false },
);
export type EffectivePrice = Static<typeof EffectivePrice>;

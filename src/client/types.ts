import type { Static, TObject } from '@sinclair/typebox';
import type { CategoryGetQuery as CategoryGetQuerySchema, CategoryListQuery as CategoryListQuerySchema } from '../contract/categories.js';
import type { CountResponse, FieldsQuery, PageQuery } from '../contract/common.js';
import type { CustomerCountQuery as CustomerCountQuerySchema } from '../contract/customers.js';
import type { FieldProblemSchema } from '../contract/errors.js';
import type { OrderCountQuery as OrderCountQuerySchema, OrderGetQuery as OrderGetQuerySchema, OrderListQuery as OrderListQuerySchema } from '../contract/orders.js';
import type { PriceListCountQuery as PriceListCountQuerySchema, PriceListGetQuery as PriceListGetQuerySchema, PriceListPriceCountQuery as PriceListPriceCountQuerySchema } from '../contract/price-lists.js';
import type { ProductCountQuery as ProductCountQuerySchema } from '../contract/products.js';
import type { EffectivePriceQuery as EffectivePriceQuerySchema, TradePriceCountQuery as TradePriceCountQuerySchema, TradePriceGetQuery as TradePriceGetQuerySchema, TradePriceWithEmbeds as TradePriceWithEmbedsSchema } from '../contract/trade-prices.js';
import type { VariationListQuery as VariationListQuerySchema } from '../contract/variations.js';

/**
 * Every request and response type of the client, from the API's own TypeBox schemas (the
 * source of its OpenAPI document). Type-only: nothing of the server loads at run time.
 */
export type { Category, CategoryInput, CategoryUpdate } from '../contract/categories.js';
export type { Customer, CustomerInput, CustomerListQuery, CustomerUpdate } from '../contract/customers.js';
export type { ErrorBody } from '../contract/errors.js';
export type { Event, EventFeedQuery, EventTopic } from '../contract/events.js';
export type { Import, ImportError, ImportMode, ImportQuery, ImportResult, ImportStatus } from '../contract/imports.js';
export type { Order, OrderInput, OrderLine } from '../contract/orders.js';
export type { PriceList, PriceListInput, PriceListListQuery, PriceListPrice, PriceListPriceInput, PriceListPriceListQuery, PriceListUpdate } from '../contract/price-lists.js';
export type { PricedSkuInput } from '../contract/priced-sku.js';
export type { Product, ProductInput, ProductListQuery, ProductUpdate } from '../contract/products.js';
export type { Quote, QuoteInput } from '../contract/quotes.js';
export type { SkuLookupItem, SkuLookupRequest, SkuLookupResult } from '../contract/skus.js';
export type { EffectivePrice, PriceCandidate, ReplaceTradePricesRequest, ReplaceTradePricesResult, TradePrice, TradePriceInput, TradePriceListQuery } from '../contract/trade-prices.js';
export type { Variation, VariationInput, VariationUpdate } from '../contract/variations.js';
export type { CreatedWebhook, Webhook, WebhookInput, WebhookListQuery, WebhookUpdate } from '../contract/webhooks.js';

/** `count`, `offset` and `fields` of every list. */
export type PageOptions = Static<TObject<typeof PageQuery>>;
/** `fields` of single-object GETs. */
export type FieldsOptions = Static<TObject<typeof FieldsQuery>>;
export type CountResult = Static<typeof CountResponse>;
/** One problem of a 422: `index` in a bulk array, the `field`, the `message`. */
export type FieldProblem = Static<typeof FieldProblemSchema>;

export type CategoryListQuery = Static<typeof CategoryListQuerySchema>;
export type CategoryGetQuery = Static<typeof CategoryGetQuerySchema>;
export type CustomerCountQuery = Static<typeof CustomerCountQuerySchema>;
export type ProductCountQuery = Static<typeof ProductCountQuerySchema>;
export type VariationListQuery = Static<typeof VariationListQuerySchema>;
export type TradePriceWithEmbeds = Static<typeof TradePriceWithEmbedsSchema>;
export type TradePriceCountQuery = Static<typeof TradePriceCountQuerySchema>;
export type TradePriceGetQuery = Static<typeof TradePriceGetQuerySchema>;
export type EffectivePriceQuery = Static<typeof EffectivePriceQuerySchema>;
export type PriceListCountQuery = Static<typeof PriceListCountQuerySchema>;
export type PriceListGetQuery = Static<typeof PriceListGetQuerySchema>;
export type PriceListPriceCountQuery = Static<typeof PriceListPriceCountQuerySchema>;
export type OrderListQuery = Static<typeof OrderListQuerySchema>;
export type OrderCountQuery = Static<typeof OrderCountQuerySchema>;
export type OrderGetQuery = Static<typeof OrderGetQuerySchema>;

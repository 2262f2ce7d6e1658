import { Type, type Static } from '@sinclair/typebox';
import { Id, NoControlCharacters, Nullable, PageQuery, PartialStrictObject, StrictObject, Timestamp } from './common.js';
import { MAX_PRICE_LISTS_PER_CUSTOMER } from './price-lists.js';

const Name = NoControlCharacters(Type.String({ minLength: 1, maxLength: 255 }));

export const CustomerInput = StrictObject(
  {
    email: NoControlCharacters(Type.String({ format: 'email', maxLength: 254 })),
    firstName: Type.Optional(Nullable(Name)),
    lastName: Type.Optional(Nullable(Name)),
    companyName: Type.Optional(Nullable(Name)),
    trade: Type.Optional(Type.Boolean({ default: false, description: 'Trade customers get their trade prices' })),
    active: Type.Optional(Type.Boolean({ default: true })),
    priceListIds: Type.Optional(
      Type.Array(Id, {
        maxItems: MAX_PRICE_LISTS_PER_CUSTOMER,
        uniqueItems: true,
        description: `The customer's price lists, first first: the first that prices a SKU wins (a \`lowest\` list instead is paid where it is lower). At most ${MAX_PRICE_LISTS_PER_CUSTOMER}, each once; setting them also needs the scope trade_prices:write`,
      }),
    ),
    customerGroupId: Type.Optional(
      Nullable({
        ...Id,
        description:
          "The customer's group (at most one): its price lists apply after the customer's own. Null: none. Setting it also needs the scope trade_prices:write",
      }),
    ),
  },
  { title: 'CustomerInput' },
);
export type CustomerInput = Static<typeof CustomerInput>;

/** A customer's fields that decide what it pays: setting one needs `trade_prices:write` besides the customer's own scope. */
export const PRICING_FIELDS = ['priceListIds', 'customerGroupId'] as const;

/** Customers in one bulk create. */
export const MAX_BULK_CUSTOMERS = 1000;

export const BulkCustomerRequest = Type.Array(CustomerInput, {
  minItems: 1,
  maxItems: MAX_BULK_CUSTOMERS,
  description: `1–${MAX_BULK_CUSTOMERS} customers, each as \`POST /v1/customers\` takes it; all are created or none`,
});

export const CustomerUpdate = PartialStrictObject(CustomerInput, { title: 'CustomerUpdate' });
export type CustomerUpdate = Static<typeof CustomerUpdate>;

export const Customer = Type.Object(
  {
    id: Id,
    email: Type.String(),
    firstName: Nullable(Type.String()),
    lastName: Nullable(Type.String()),
    companyName: Nullable(Type.String()),
    trade: Type.Boolean(),
    active: Type.Boolean(),
    priceListIds: Type.Array(Id, { description: 'The customer’s price lists, in the order they apply' }),
    customerGroupId: Nullable({ ...Id, description: "The customer's group, whose price lists apply after the customer's own; null: none" }),
    createdAt: Timestamp,
  },
  { title: 'Customer', $id: 'Customer', additionalProperties: false },
);
export type Customer = Static<typeof Customer>;

export const CustomerListQuery = Type.Object(
  {
    ...PageQuery,
    email: Type.Optional(Type.String({ description: 'Exact email (case-insensitive)' })),
    trade: Type.Optional(Type.Boolean({ description: 'Only trade (true) or regular (false) customers' })),
    priceListId: Type.Optional(Type.Integer({ minimum: 1, description: 'Only customers that have this price list (their own, not through a group)' })),
    customerGroupId: Type.Optional(Type.Integer({ minimum: 1, description: 'Only customers of this group' })),
  },
  { title: 'CustomerListQuery', additionalProperties: false },
);
export type CustomerListQuery = Static<typeof CustomerListQuery>;

export const CustomerCountQuery = Type.Object(
  {
    email: CustomerListQuery.properties.email,
    trade: CustomerListQuery.properties.trade,
    priceListId: CustomerListQuery.properties.priceListId,
    customerGroupId: CustomerListQuery.properties.customerGroupId,
  },
  { title: 'CustomerCountQuery', additionalProperties: false },
);

import { Type, type Static } from '@sinclair/typebox';
import { FieldsQuery, Id, NoControlCharacters, PageQuery, PartialStrictObject, StrictObject, Timestamp } from './common.js';
import { MAX_PRICE_LISTS_PER_CUSTOMER, PRICE_LIST_POLICIES, type PriceListPolicy } from './price-lists.js';

/** Groups one store can have: a price list's removal visits every group that has it. */
export const MAX_CUSTOMER_GROUPS = 500;

const PriceListIds = Type.Array(Id, {
  maxItems: MAX_PRICE_LISTS_PER_CUSTOMER,
  uniqueItems: true,
  description: `The group's price lists, first first. Its customers' own lists come before them (docs/pricing.md, "Customer groups"). At most ${MAX_PRICE_LISTS_PER_CUSTOMER}, each once`,
});

const GROUP_POLICY_RULE =
  "`first` (the default): the group's lists take their turns after the customer's own, each by its own policy. `lowest`: every list of the group is a lowest-price list for its customers (it stands aside from the walk and is paid where it is lower), whatever its own policy, as Shopify's lowest price across a company's catalogs. See docs/pricing.md, \"Customer groups\"";

export const CustomerGroupInput = StrictObject(
  {
    name: NoControlCharacters(Type.String({ minLength: 1, maxLength: 255 })),
    priceListIds: Type.Optional(PriceListIds),
    policy: Type.Optional(Type.Unsafe<PriceListPolicy>({ type: 'string', enum: [...PRICE_LIST_POLICIES], default: 'first', description: GROUP_POLICY_RULE })),
  },
  { title: 'CustomerGroupInput' },
);
export type CustomerGroupInput = Static<typeof CustomerGroupInput>;

export const CustomerGroupUpdate = PartialStrictObject(CustomerGroupInput, { title: 'CustomerGroupUpdate' });
export type CustomerGroupUpdate = Static<typeof CustomerGroupUpdate>;

export const CustomerGroup = Type.Object(
  {
    id: Id,
    name: Type.String(),
    priceListIds: Type.Array(Id, { description: "The group's price lists, in the order they apply after each customer's own" }),
    policy: Type.Unsafe<PriceListPolicy>({ type: 'string', enum: [...PRICE_LIST_POLICIES], description: GROUP_POLICY_RULE }),
    createdAt: Timestamp,
  },
  { title: 'CustomerGroup', $id: 'CustomerGroup', additionalProperties: false },
);
export type CustomerGroup = Static<typeof CustomerGroup>;

export const CustomerGroupListQuery = Type.Object(
  {
    ...PageQuery,
    priceListId: Type.Optional(Type.Integer({ minimum: 1, description: 'Only groups that have this price list' })),
  },
  { title: 'CustomerGroupListQuery', additionalProperties: false },
);
export type CustomerGroupListQuery = Static<typeof CustomerGroupListQuery>;

export const CustomerGroupCountQuery = Type.Object(
  { priceListId: CustomerGroupListQuery.properties.priceListId },
  { title: 'CustomerGroupCountQuery', additionalProperties: false },
);

export const CustomerGroupGetQuery = Type.Object({ ...FieldsQuery }, { title: 'CustomerGroupGetQuery', additionalProperties: false });

import { Type, type Static } from '@sinclair/typebox';
import { FieldsQuery, Id, MomentQuery, Nullable, PageQuery, Timestamp } from './common.js';

/** What an entry is about (docs/history.md, "What is recorded"). */
export const HISTORY_RESOURCES = ['trade_price', 'price_list_entry', 'price_list', 'customer', 'customer_group', 'product', 'variation', 'change_set'] as const;
export const HISTORY_CHANGES = ['created', 'updated', 'deleted'] as const;
export const HISTORY_SOURCES = ['api', 'admin', 'import', 'changeset'] as const;
export const ACTOR_TYPES = ['key', 'staff'] as const;

const Enum = <T extends string>(values: readonly T[], description: string) => Type.Unsafe<T>({ type: 'string', enum: [...values], description });

/** The record as the API showed it before or after the change; null when there was none. */
const RecordShown = Nullable(
  Type.Object(
    {},
    {
      additionalProperties: true,
      description:
        'The record as the API showed it; null when there was none. A customer’s email, firstName, lastName and companyName are left out unless the credential also has catalog:read',
    },
  ),
);

export const PriceHistoryEntry = Type.Object(
  {
    id: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'The entry’s place in its store’s chain: 1, 2, 3… without gaps' }),
    at: Timestamp,
    resource: Enum(HISTORY_RESOURCES, 'What changed'),
    resourceId: Id,
    change: Enum(HISTORY_CHANGES, 'created, updated or deleted'),
    before: RecordShown,
    after: RecordShown,
    actor: Type.Object(
      {
        type: Enum(ACTOR_TYPES, 'An API key or a staff member'),
        id: Type.Integer({ minimum: 0, description: 'The key’s or staff member’s id; 0 for the command line' }),
        name: Type.String({ description: 'The key’s name (or its public pk_… key), the staff member’s name' }),
      },
      { additionalProperties: false },
    ),
    source: Enum(HISTORY_SOURCES, 'How the change came: a request with a key, the admin page, an import or a change set'),
    sourceId: Nullable({ ...Id, description: 'The import’s or change set’s id; null for api and admin' }),
    requestId: Nullable(Type.String({ description: 'The id of the request that made the change; null when none did' })),
    hash: Type.String({ pattern: '^[0-9a-f]{64}$', description: 'SHA-256 of prevHash and the canonical entry, hex (docs/history.md)' }),
    prevHash: Type.String({ pattern: '^[0-9a-f]{64}$', description: 'The hash of the entry before (64 zeros for the first)' }),
  },
  { title: 'PriceHistoryEntry', $id: 'PriceHistoryEntry', additionalProperties: false },
);
export type PriceHistoryEntry = Static<typeof PriceHistoryEntry>;

export const PriceHistoryHead = Type.Object(
  {
    seq: Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description: 'The id of the store’s last entry; 0 when it has none' }),
    hash: Type.String({
      pattern: '^[0-9a-f]{64}$',
      description:
        'That entry’s hash (64 zeros when there is none): keep it off the host, then `pricebook history verify --expect-head SEQ:HASH` checks that the chain still passes through it',
    }),
    at: Nullable({ ...Timestamp, description: 'When that entry was made; null when there is none' }),
  },
  { title: 'PriceHistoryHead', $id: 'PriceHistoryHead', additionalProperties: false },
);
export type PriceHistoryHead = Static<typeof PriceHistoryHead>;
export const PriceHistoryHeadQuery = Type.Object({ ...FieldsQuery }, { additionalProperties: false });
export type PriceHistoryHeadQuery = Static<typeof PriceHistoryHeadQuery>;

const Filters = {
  customerId: Type.Optional(
    Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'Only entries about this customer (the customer, and its trade prices)' }),
  ),
  sku: Type.Optional(Type.String({ minLength: 1, maxLength: 255, description: 'Only entries about this SKU' })),
  productId: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: Number.MAX_SAFE_INTEGER,
      description: 'Only entries about this product (the product, its variations, and prices of its SKUs)',
    }),
  ),
  priceListId: Type.Optional(
    Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'Only entries about this price list (the list and its entries)' }),
  ),
  actorType: Type.Optional(Enum(ACTOR_TYPES, 'Only changes made with a key, or by staff')),
  actorId: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: Number.MAX_SAFE_INTEGER,
      description: 'Only changes made by this key or staff member (with actorType, exactly that one)',
    }),
  ),
  resource: Type.Optional(Enum(HISTORY_RESOURCES, 'Only entries about this kind of record')),
  from: MomentQuery('Only changes at or after this moment'),
  until: MomentQuery('Only changes before this moment'),
};

export const PriceHistoryListQuery = Type.Object({ ...PageQuery, ...Filters }, { title: 'PriceHistoryListQuery', additionalProperties: false });
export type PriceHistoryListQuery = Static<typeof PriceHistoryListQuery>;

export const PriceHistoryCountQuery = Type.Object(Filters, { title: 'PriceHistoryCountQuery', additionalProperties: false });
export type PriceHistoryCountQuery = Static<typeof PriceHistoryCountQuery>;

import { Type, type Static } from '@sinclair/typebox';
import { Id, MomentQuery, NoControlCharacters, Nullable, PageQuery, PartialStrictObject, PriceRuleFields, StrictObject, Timestamp } from './common.js';
import { PlannedPricedRecord, PricedSkuInput } from './priced-sku.js';
import { QuantityRule, QuantityRuleInput } from './quantity-rules.js';

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

export const PRICE_LIST_POLICIES = ['first', 'lowest'] as const;
export type PriceListPolicy = (typeof PRICE_LIST_POLICIES)[number];

const POLICY_RULE =
  '`first` (the default): the customer\'s lists take turns in their order, and the first that prices a SKU wins. `lowest`: the list stands aside from that walk; when it prices a SKU, the customer pays it if it is lower than what the rule picks otherwise (their own trade price included). See docs/pricing.md, "Lowest-price lists"';
const Policy = Type.Unsafe<PriceListPolicy>({ type: 'string', enum: [...PRICE_LIST_POLICIES], description: POLICY_RULE });
const PolicyInput = Type.Unsafe<PriceListPolicy>({ type: 'string', enum: [...PRICE_LIST_POLICIES], default: 'first', description: POLICY_RULE });

export const ROUNDING_MODES = ['half-up', 'up', 'down'] as const;
/** Largest rounding increment a list may set: 10 000 (to the nearest ten thousand). */
export const MAX_ROUNDING_INCREMENT = 10_000;

export const Rounding = Type.Object(
  {
    increment: Type.Number({
      exclusiveMinimum: 0,
      maximum: MAX_ROUNDING_INCREMENT,
      'x-decimal-places': 4,
      description:
        'The price becomes a multiple of this: 0.01 to the cent, 0.05 to five cents, 1 to whole units, 0.99 never (a multiple of 0.99 is not a price ending)',
      examples: [0.05],
    }),
    mode: Type.Unsafe<(typeof ROUNDING_MODES)[number]>({
      type: 'string',
      enum: [...ROUNDING_MODES],
      description: '`half-up`: to the nearest, a half up; `up`; `down`',
    }),
  },
  { additionalProperties: false },
);
export type Rounding = Static<typeof Rounding>;

/** Percent off the catalog price: 0–100 with at most 4 decimals (12.5 is 12.5 % off). */
export const Percentage = Type.Number({ minimum: 0, maximum: 100, 'x-decimal-places': 4, examples: [12.5] });

export const PriceListInput = StrictObject(
  {
    name: NoControlCharacters(Type.String({ minLength: 1, maxLength: 255 })),
    kind: Kind,
    percentage: Type.Optional(Nullable({ ...Percentage, description: 'Required for a percentage list; absent or null for a fixed one' })),
    policy: Type.Optional(PolicyInput),
    rounding: Type.Optional(
      Nullable({
        ...Rounding,
        description:
          "A percentage list's own rounding of its prices; null or absent: the store's (its currency's minor unit, half-up unless the store says otherwise). Not for a fixed list: its entries are charged as stored",
      }),
    ),
  },
  { title: 'PriceListInput' },
);
export type PriceListInput = Static<typeof PriceListInput>;

/** `kind` may be sent, but only as it is. */
export const PriceListUpdate = PartialStrictObject(PriceListInput, { title: 'PriceListUpdate' });
export type PriceListUpdate = Static<typeof PriceListUpdate>;

export const PriceList = Type.Object(
  {
    id: Id,
    name: Type.String(),
    kind: Kind,
    percentage: Nullable({
      ...Percentage,
      description: "Percent off the catalog price (the price rounded to the store's currency, or by `rounding`); null for a fixed list",
    }),
    policy: Policy,
    rounding: Nullable({ ...Rounding, description: "The list's own rounding; null: the store's" }),
    createdAt: Timestamp,
  },
  { title: 'PriceList', $id: 'PriceList', additionalProperties: false },
);
export type PriceList = Static<typeof PriceList>;

const ListFilters = {
  kind: Type.Optional(Type.Union([Type.Literal('fixed'), Type.Literal('percentage')], { description: 'Only lists of this kind' })),
};
export const PriceListListQuery = Type.Object({ ...PageQuery, ...ListFilters }, { title: 'PriceListListQuery', additionalProperties: false });
export type PriceListListQuery = Static<typeof PriceListListQuery>;
export const PriceListCountQuery = Type.Object(ListFilters, { title: 'PriceListCountQuery', additionalProperties: false });
export const PriceListGetQuery = Type.Object({ fields: PageQuery.fields }, { title: 'PriceListGetQuery', additionalProperties: false });

/** An entry's own quantity rule, over the SKU's (docs/pricing.md, "Quantity rules"). */
const EntryQuantityRuleInput = Type.Optional(
  Nullable({
    ...QuantityRuleInput,
    description: "The entry's own quantity rule: it applies, instead of the SKU's, to a line this entry prices. Null or left out: the SKU's",
  }),
);
const EntryQuantityRule = Nullable({
  ...QuantityRule,
  description: "The entry's own quantity rule, applied to a line it prices instead of the SKU's; null: the SKU's",
});

/** One entry of a fixed list's bulk create or replace. */
export const PriceListPriceInput = Type.Object(
  { ...PricedSkuInput.properties, quantityRule: EntryQuantityRuleInput },
  { title: 'PriceListPriceInput', additionalProperties: false },
);
export type PriceListPriceInput = Static<typeof PriceListPriceInput>;

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
    quantityRule: EntryQuantityRule,
    createdAt: Timestamp,
  },
  { title: 'PriceListPrice', $id: 'PriceListPrice', additionalProperties: false },
);
export type PriceListPrice = Static<typeof PriceListPrice>;

const EntryFilters = {
  productId: Type.Optional(Type.Integer({ minimum: 1 })),
  sku: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
  validAt: MomentQuery('Only entries valid at this moment: validFrom ≤ validAt < validUntil'),
};
export const PriceListPriceListQuery = Type.Object({ ...PageQuery, ...EntryFilters }, { title: 'PriceListPriceListQuery', additionalProperties: false });
export type PriceListPriceListQuery = Static<typeof PriceListPriceListQuery>;
export const PriceListPriceCountQuery = Type.Object(EntryFilters, { title: 'PriceListPriceCountQuery', additionalProperties: false });

export const PriceListPriceParams = Type.Object({ id: Id, priceId: Id }, { additionalProperties: false });

export const ENTRY_OVERLAP_KINDS = ['duplicate', 'overlap'] as const;
/** Entries of one SKU, product and break the overlaps weigh at most (they are held and sorted at once). */
export const MAX_OVERLAP_KEY_ENTRIES = 20_000;
/** Entries an overlap lists, newest first; `entryCount` says how many it has. */
export const MAX_OVERLAP_ENTRIES_SHOWN = 100;
export type EntryOverlapKind = (typeof ENTRY_OVERLAP_KINDS)[number];
const OverlapKind = Type.Unsafe<EntryOverlapKind>({
  type: 'string',
  enum: [...ENTRY_OVERLAP_KINDS],
  description:
    '`duplicate`: every entry has the same window, so only the newest ever applies. `overlap`: the windows differ; at each moment the newest entry valid then applies',
});

/** An entry as an overlap shows it: what the tie rule weighs. */
export const OverlappingEntry = Type.Object(
  {
    id: Id,
    price: Type.Number({ description: 'Exactly as sent' }),
    validFrom: Nullable({ ...Timestamp, description: 'Applies from this moment on (inclusive); null: always has' }),
    validUntil: Nullable({ ...Timestamp, description: 'Applies until this moment (exclusive); null: never ends' }),
  },
  { title: 'OverlappingEntry', additionalProperties: false },
);
export type OverlappingEntry = Static<typeof OverlappingEntry>;

/**
 * Entries of one list for the same SKU, product and quantity break whose windows meet: the tie
 * rule decides between them (the newest valid one applies). Allowed; shown so a merchant sees
 * what is decided.
 */
export const PriceListEntryOverlap = Type.Object(
  {
    sku: Type.String(),
    productId: Id,
    minQuantity: Type.Integer({ minimum: 1 }),
    kind: OverlapKind,
    from: Nullable({ ...Timestamp, description: 'When the earliest of the entries starts; null: always has' }),
    until: Nullable({ ...Timestamp, description: 'When the last of them ends; null: never' }),
    entryCount: Type.Integer({ minimum: 2, description: 'The entries of the overlap' }),
    entries: Type.Array(OverlappingEntry, {
      minItems: 2,
      maxItems: MAX_OVERLAP_ENTRIES_SHOWN,
      description: `Newest first, the order in which the tie rule prefers them: the first ${MAX_OVERLAP_ENTRIES_SHOWN}`,
    }),
  },
  { title: 'PriceListEntryOverlap', $id: 'PriceListEntryOverlap', additionalProperties: false },
);
export type PriceListEntryOverlap = Static<typeof PriceListEntryOverlap>;

export const PriceListOverlapQuery = Type.Object(
  {
    ...PageQuery,
    productId: EntryFilters.productId,
    sku: EntryFilters.sku,
  },
  { title: 'PriceListOverlapQuery', additionalProperties: false },
);
export type PriceListOverlapQuery = Static<typeof PriceListOverlapQuery>;

/**
 * Prices in one replace of a list's entries. Half a trade price replace's: at 10 000 over 10 000,
 * a replace's garbage made collections that held the event loop 90–110 ms on a slower machine.
 */
export const MAX_LIST_REPLACE_ITEMS = 5000;
/** Stored entries one replace may replace: the list's (scope `list`) or those of the SKUs named (`skus`). */
export const MAX_LIST_REPLACE_STORED = 5000;

export const ReplacePriceListPricesRequest = StrictObject(
  {
    prices: Type.Array(PriceListPriceInput, { maxItems: MAX_LIST_REPLACE_ITEMS, description: `0–${MAX_LIST_REPLACE_ITEMS} entries, as a bulk create's items` }),
    scope: Type.Unsafe<'list' | 'skus'>({
      type: 'string',
      enum: ['list', 'skus'],
      description: '`list`: the list’s entries become exactly `prices`. `skus`: only the entries of the SKUs named in `prices` are replaced; others stay',
    }),
    dryRun: Type.Optional(Type.Boolean({ default: false, description: 'Answer what would change, and change nothing' })),
  },
  { title: 'ReplacePriceListPricesRequest' },
);
export type ReplacePriceListPricesRequest = Static<typeof ReplacePriceListPricesRequest>;

/** The largest CSV file an import into a list takes: 5000 rows of entries fit in well under it. */
export const MAX_LIST_IMPORT_BYTES = 2 * 2 ** 20;

export const ImportPriceListPricesQuery = Type.Object(
  {
    scope: Type.Optional(
      Type.Unsafe<'list' | 'skus'>({
        type: 'string',
        enum: ['list', 'skus'],
        default: 'skus',
        description:
          '`skus` (the default): the entries of the SKUs in the file are replaced, others stay, and sending the file again changes nothing more. `list`: the list’s entries become exactly the file',
      }),
    ),
    dryRun: Type.Optional(Type.Boolean({ default: false, description: 'Answer what would change, and change nothing' })),
  },
  { additionalProperties: false },
);
export type ImportPriceListPricesQuery = Static<typeof ImportPriceListPricesQuery>;

/** A created record; in a dry run, one that would be: no id and no createdAt yet. */
export const PlannedPriceListPrice = PlannedPricedRecord({ priceListId: Id }, { quantityRule: EntryQuantityRule });

/** An entry of an overlap the replace leaves: which of `prices` it is, and its id (null: created in a dry run). */
export const PlannedOverlappingEntry = Type.Object(
  {
    index: Type.Integer({ minimum: 0, description: 'Its position in `prices`' }),
    id: Nullable({ ...Id, description: 'The entry kept, or the one created; null for one a dry run would create' }),
    price: Type.Number(),
    validFrom: Nullable(Timestamp),
    validUntil: Nullable(Timestamp),
  },
  { additionalProperties: false },
);

export const PlannedEntryOverlap = Type.Object(
  {
    sku: Type.String(),
    productId: Id,
    minQuantity: Type.Integer({ minimum: 1 }),
    kind: OverlapKind,
    from: Nullable(Timestamp),
    until: Nullable(Timestamp),
    entryCount: Type.Integer({ minimum: 2, description: 'The entries of the overlap' }),
    entries: Type.Array(PlannedOverlappingEntry, {
      minItems: 2,
      maxItems: MAX_OVERLAP_ENTRIES_SHOWN,
      description: `Newest first (those created after those kept, in the order of \`prices\`), the order in which the tie rule prefers them: the first ${MAX_OVERLAP_ENTRIES_SHOWN}`,
    }),
  },
  { additionalProperties: false },
);

export const ReplacePriceListPricesResult = Type.Object(
  {
    created: Type.Array(PlannedPriceListPrice, { description: 'In the order of `prices`' }),
    deleted: Type.Array(PriceListPrice, { description: 'By id' }),
    unchanged: Type.Integer({ minimum: 0, description: 'Prices equal in every field to an entry already there: it stays, with its id, and no event' }),
    overlaps: Type.Array(PlannedEntryOverlap, {
      description:
        'Where the replaced entries (all of `prices`) overlap: same SKU, product and break, windows that meet (docs/pricing.md, "Overlaps"). Allowed; the tie rule decides',
    }),
  },
  { title: 'ReplacePriceListPricesResult', $id: 'ReplacePriceListPricesResult', additionalProperties: false },
);
export type ReplacePriceListPricesResult = Static<typeof ReplacePriceListPricesResult>;

import { Type, type Static } from '@sinclair/typebox';
import {
  Annotated,
  Id,
  MomentQuery,
  NoControlCharacters,
  Nullable,
  PageOnlyQuery,
  PageQuery,
  Price,
  PriceRuleInput,
  StrictObject,
  Timestamp,
} from './common.js';
import { FieldProblemSchema } from './errors.js';
import { MAX_PRICE_LISTS_PER_CUSTOMER, Percentage, PriceListPriceInput } from './price-lists.js';
import { ReplaceTradePricesRequest, Sku } from './trade-prices.js';

/** Operations one `POST /v1/change-sets/{id}/operations` adds. */
export const MAX_OPERATIONS_PER_REQUEST = 1000;
/** Operations one change set holds. */
export const MAX_OPERATIONS_PER_SET = 10_000;
/**
 * Prices one change set holds, counted by `operationPrices` (docs/change-sets.md, "Limits"):
 * its apply, its preview and an add's check are bounded by it, and on SQLite so is how long
 * other stores' writes wait for one of them.
 */
export const MAX_PRICES_PER_SET = 10_000;
/** Pairs of a customer and a SKU whose prices one preview works out (docs/change-sets.md, "Limits"). */
export const MAX_PREVIEW_PAIRS = 10_000;

/** draft → submitted → approved → scheduled → applied, or failed; applied → rolled_back; any open one → discarded. */
export const CHANGE_SET_STATES = ['draft', 'submitted', 'approved', 'scheduled', 'applied', 'failed', 'rolled_back', 'discarded'] as const;
export type ChangeSetState = (typeof CHANGE_SET_STATES)[number];

const customerId = Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'A customer of this store' });
const priceListId = Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'A price list of this store' });
const recordId = Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER });
const priceListIds = (description: string) => Type.Array(Id, { maxItems: MAX_PRICE_LISTS_PER_CUSTOMER, uniqueItems: true, description });

/** Each operation as a change set holds it: an object with its `type` (docs/change-sets.md, "Operations"). */
export const OPERATION_SCHEMAS = {
  'trade_price.create': StrictObject({ type: Type.Literal('trade_price.create'), customerId, productId: recordId, sku: Sku, price: Price, ...PriceRuleInput }),
  'trade_price.delete': StrictObject({ type: Type.Literal('trade_price.delete'), id: Annotated(recordId, { description: 'A trade price of this store' }) }),
  'trade_price.restore': StrictObject({
    type: Type.Literal('trade_price.restore'),
    id: Annotated(recordId, { description: 'A deleted trade price: it comes back as it was, with its id (a revert makes these)' }),
  }),
  'trade_prices.replace': StrictObject({
    type: Type.Literal('trade_prices.replace'),
    customerId: ReplaceTradePricesRequest.properties.customerId,
    prices: ReplaceTradePricesRequest.properties.prices,
    scope: ReplaceTradePricesRequest.properties.scope,
  }),
  'price_list_entry.create': StrictObject({ type: Type.Literal('price_list_entry.create'), priceListId, ...PriceListPriceInput.properties }),
  'price_list_entry.delete': StrictObject({
    type: Type.Literal('price_list_entry.delete'),
    priceListId,
    id: Annotated(recordId, { description: 'An entry of that list' }),
  }),
  'price_list_entry.restore': StrictObject({
    type: Type.Literal('price_list_entry.restore'),
    priceListId,
    id: Annotated(recordId, { description: 'A deleted entry of that list: it comes back as it was, with its id' }),
  }),
  'customer.set_price_lists': StrictObject({
    type: Type.Literal('customer.set_price_lists'),
    customerId,
    priceListIds: priceListIds('The customer’s lists, in the order they apply'),
    expectedPriceListIds: Type.Optional(
      priceListIds(
        'Only if the customer’s lists are these when the operation runs (else a problem, nothing changed): a revert sets what its set left, so a later change is not overwritten',
      ),
    ),
  }),
  'price_list.set_percentage': StrictObject({
    type: Type.Literal('price_list.set_percentage'),
    priceListId,
    percentage: Percentage,
    expectedPercentage: Type.Optional(
      Annotated(Percentage, {
        description: 'Only if the list’s percentage is this when the operation runs (else a problem, nothing changed): a revert sets what its set left',
      }),
    ),
  }),
} as const;

export type OperationType = keyof typeof OPERATION_SCHEMAS;
export const OPERATION_TYPES = Object.keys(OPERATION_SCHEMAS) as OperationType[];

export type ChangeSetOperation = { [T in OperationType]: Static<(typeof OPERATION_SCHEMAS)[T]> }[OperationType];
/**
 * Every operation's schema as one, for the OpenAPI document's components: the body of an add
 * is checked item by item against its type's schema instead (with each problem's `index`).
 */
export const ChangeSetOperationSchema = Type.Union(Object.values(OPERATION_SCHEMAS), {
  title: 'ChangeSetOperation',
  description: 'One operation of a change set: its `type` and that type’s fields (docs/change-sets.md).',
});
export type OperationOf<T extends OperationType> = Static<(typeof OPERATION_SCHEMAS)[T]>;

/**
 * How many prices an operation counts towards `MAX_PRICES_PER_SET`: a replace its `prices` (at
 * least 1), every other operation 1 (a creation, deletion or restore names one price; a change of
 * a customer's lists or of a percentage is one change, whatever it reprices).
 */
export function operationPrices(operation: ChangeSetOperation): number {
  return operation.type === 'trade_prices.replace' ? Math.max(1, operation.prices.length) : 1;
}

/** The body of `POST /v1/change-sets/{id}/operations`: each item is checked against its type's schema (with its `index`). */
export const AddOperationsRequest = Type.Array(
  Type.Object(
    { type: Type.String({ description: `One of: ${OPERATION_TYPES.join(', ')}` }) },
    { additionalProperties: true, description: 'An operation: its `type` and that type’s fields (docs/change-sets.md)' },
  ),
  {
    minItems: 1,
    maxItems: MAX_OPERATIONS_PER_REQUEST,
    description: `1–${MAX_OPERATIONS_PER_REQUEST} operations, added after those the set holds; all or none`,
  },
);

export const ChangeSetInput = StrictObject(
  {
    name: NoControlCharacters(Type.String({ minLength: 1, maxLength: 255 })),
    note: Type.Optional(Nullable(Type.String({ maxLength: 4000, description: 'Why: free text' }))),
  },
  { title: 'ChangeSetInput' },
);
export type ChangeSetInput = Static<typeof ChangeSetInput>;

const ActorSchema = Type.Object(
  {
    type: Type.Unsafe<'key' | 'staff'>({ type: 'string', enum: ['key', 'staff'] }),
    id: Type.Integer({ minimum: 0 }),
    name: Type.String(),
  },
  { additionalProperties: false, description: 'An API key or a staff member' },
);

/** A problem of an operation against the live book, by its `index` in the set. */
export const ChangeSetProblem = FieldProblemSchema;

export const ChangeSetCounts = Type.Object(
  {
    operations: Type.Integer({ minimum: 0 }),
    created: Type.Integer({ minimum: 0, description: 'Trade prices and list entries created (restored ones too), once applied' }),
    deleted: Type.Integer({ minimum: 0, description: 'Trade prices and list entries deleted, once applied' }),
    updated: Type.Integer({ minimum: 0, description: 'Customers’ lists and lists’ percentages changed, once applied' }),
  },
  { additionalProperties: false },
);
export type ChangeSetCounts = Static<typeof ChangeSetCounts>;

export const ChangeSet = Type.Object(
  {
    id: Id,
    name: Type.String(),
    note: Nullable(Type.String()),
    state: Type.Unsafe<ChangeSetState>({ type: 'string', enum: [...CHANGE_SET_STATES], title: 'ChangeSetState', description: 'docs/change-sets.md, "States"' }),
    revision: Type.Integer({ minimum: 1, description: 'Goes up with every change of the operations: an approval holds for one revision' }),
    counts: ChangeSetCounts,
    createdBy: ActorSchema,
    submittedBy: Nullable(ActorSchema),
    approvedBy: Nullable(ActorSchema),
    appliedBy: Nullable(ActorSchema),
    applyAt: Nullable({ ...Timestamp, description: 'When a scheduled set is applied' }),
    appliedAt: Nullable(Timestamp),
    revertOf: Nullable({ ...Id, description: 'The applied set this one takes back' }),
    revertedBy: Nullable({ ...Id, description: 'The set made to take this one back' }),
    problems: Type.Array(ChangeSetProblem, { description: 'Why the last apply failed: each operation’s problem with the live book, by `index`' }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { title: 'ChangeSet', $id: 'ChangeSet', additionalProperties: false },
);
export type ChangeSet = Static<typeof ChangeSet>;

export const ChangeSetListQuery = Type.Object(
  {
    ...PageQuery,
    state: Type.Optional(
      Type.Unsafe<ChangeSetState>({ type: 'string', enum: [...CHANGE_SET_STATES], title: 'ChangeSetState', description: 'Only sets in this state' }),
    ),
  },
  { title: 'ChangeSetListQuery', additionalProperties: false },
);
export type ChangeSetListQuery = Static<typeof ChangeSetListQuery>;

export const OperationListQuery = PageOnlyQuery;

/** An operation as listed: its place in the set and the operation as added. */
export const ListedOperation = Type.Object(
  { index: Type.Integer({ minimum: 0 }), operation: Type.Object({}, { additionalProperties: true }) },
  { title: 'ListedOperation', additionalProperties: false },
);
export type ListedOperation = Static<typeof ListedOperation>;

export const ApplyRequest = StrictObject(
  { at: Type.Optional(Annotated(Timestamp, { description: 'Schedule the set for this moment (in the future); left out: apply now' })) },
  { title: 'ChangeSetApply' },
);
export type ApplyRequest = Static<typeof ApplyRequest>;

export const PreviewQuery = Type.Object(
  {
    ...PageQuery,
    at: MomentQuery('Price the book at this moment; default the scheduled moment, or now'),
    format: Type.Optional(
      Type.Unsafe<'json' | 'csv'>({ type: 'string', enum: ['json', 'csv'], default: 'json', description: '`csv`: every row as a CSV file (no paging)' }),
    ),
  },
  { title: 'ChangeSetPreviewQuery', additionalProperties: false },
);
export type PreviewQuery = Static<typeof PreviewQuery>;

export const PREVIEW_ROW_KINDS = ['created', 'deleted', 'updated', 'price'] as const;
export type PreviewRowKind = (typeof PREVIEW_ROW_KINDS)[number];

/**
 * One row of a preview: a record the set creates, deletes or updates (`record`: the record, or
 * for an update what changes), or (`price`) what one customer pays for one SKU from one
 * quantity break, before and after.
 */
export const PreviewRow = Type.Object(
  {
    kind: Type.Unsafe<PreviewRowKind>({ type: 'string', enum: [...PREVIEW_ROW_KINDS] }),
    resource: Nullable(Type.String({ description: 'trade_price, price_list_entry, customer or price_list; null for a price row' })),
    record: Nullable(Type.Object({}, { additionalProperties: true })),
    customerId: Nullable(Id),
    sku: Nullable(Type.String()),
    minQuantity: Nullable(Type.Integer({ minimum: 1, description: 'The quantity break: from this many units' })),
    before: Nullable(Type.Number({ description: 'The effective price before the set (null: the SKU or customer had none)' })),
    after: Nullable(Type.Number({ description: 'The effective price after it' })),
  },
  { title: 'ChangeSetPreviewRow', additionalProperties: false },
);
export type PreviewRow = Static<typeof PreviewRow>;

export const ChangeSetPreview = Type.Object(
  {
    changeSetId: Id,
    at: Timestamp,
    counts: Type.Object(
      {
        created: Type.Integer({ minimum: 0 }),
        deleted: Type.Integer({ minimum: 0 }),
        updated: Type.Integer({ minimum: 0 }),
        prices: Type.Integer({ minimum: 0, description: 'Price rows: one per customer, SKU and quantity break affected' }),
        changedPrices: Type.Integer({ minimum: 0, description: 'Price rows whose price changes' }),
      },
      { additionalProperties: false },
    ),
    pricesComplete: Type.Boolean({
      description: `false when the set touches more than ${MAX_PREVIEW_PAIRS} customer and SKU pairs: only the first are priced`,
    }),
    problems: Type.Array(ChangeSetProblem, { description: 'What would make the apply fail now; empty when it would succeed' }),
    total: Type.Integer({ minimum: 0, description: 'Rows in all; `rows` is the page asked for' }),
    rows: Type.Array(PreviewRow),
  },
  { title: 'ChangeSetPreview', additionalProperties: false },
);
export type ChangeSetPreview = Static<typeof ChangeSetPreview>;

/** What the `change_set.*` events carry: the set as it is then (its problems, too, on `failed`). */
export type ChangeSetEventData = ChangeSet;

import { Type, type Static } from '@sinclair/typebox';
import { Id, Nullable, Timestamp } from './common.js';

/** Largest CSV body `POST /v1/imports` takes. */
export const MAX_IMPORT_BYTES = 50 * 2 ** 20;
/** Problems an import keeps (it counts them all). */
export const MAX_IMPORT_ERRORS = 1000;
/** Characters of a kept problem's `field` (a column as the header names it: an e-mail has at most 254). */
export const MAX_IMPORT_ERROR_FIELD = 255;
/** Characters of a kept problem's `message` (a value it quotes is cut to a short prefix). */
export const MAX_IMPORT_ERROR_MESSAGE = 300;
/**
 * Columns a row may have: `sku` and at most 16 383 customers in a matrix. 16 384 is the column
 * limit of the common spreadsheets, so a file one of them wrote never exceeds it.
 */
export const MAX_IMPORT_COLUMNS = 16_384;
/** Bytes of one row: the widest legal header (16 384 quoted e-mail addresses) fits. */
export const MAX_IMPORT_ROW_BYTES = 5 * 2 ** 20;

export const IMPORT_MODES = ['add', 'replace'] as const;
export type ImportMode = (typeof IMPORT_MODES)[number];

export const IMPORT_STATUSES = ['queued', 'running', 'succeeded', 'failed'] as const;
export type ImportStatus = (typeof IMPORT_STATUSES)[number];

export const ImportQuery = Type.Object(
  {
    mode: Type.Optional(
      Type.Union([Type.Literal('add'), Type.Literal('replace')], {
        default: 'add',
        description:
          '`add`: create every row as a trade price. `replace`: every customer in the file gets exactly its rows (unchanged ones keep their records)',
      }),
    ),
    dryRun: Type.Optional(Type.Boolean({ default: false, description: 'Check the file and count what would change; change nothing' })),
    fileName: Type.Optional(
      // A query is not the body: no control characters by pattern (the body's own keyword is its validator's).
      Type.String({
        minLength: 1,
        maxLength: 255,
        pattern: '^[^\\x00-\\x1F\\x7F-\\x9F]+$',
        description: 'The file’s name, kept with the import to tell it apart (`prices-2027.csv`): 1–255 characters, no control characters',
      }),
    ),
    changeSet: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: Number.MAX_SAFE_INTEGER,
        description:
          'An open change set of the store: the rows become its operations (`add`: a `trade_price.create` a row; `replace`: a `trade_prices.replace` a customer) instead of changing the book (docs/change-sets.md)',
      }),
    ),
  },
  { title: 'ImportQuery', additionalProperties: false },
);
export type ImportQuery = Static<typeof ImportQuery>;

/** A problem of one row (the header is row 1) and column of the file. */
export const ImportError = Type.Object(
  {
    row: Type.Integer({ minimum: 1, description: 'Line of the file, the header being 1' }),
    field: Nullable(
      Type.String({
        maxLength: MAX_IMPORT_ERROR_FIELD,
        description: 'The column, as the header names it (a name too long for any column is cut short); null for the row as a whole',
      }),
    ),
    message: Type.String({ maxLength: MAX_IMPORT_ERROR_MESSAGE, description: 'What is wrong; a value it quotes is cut to a short prefix' }),
  },
  { title: 'ImportError', additionalProperties: false },
);
export type ImportError = Static<typeof ImportError>;

export const ImportResult = Type.Object(
  {
    created: Type.Integer({ minimum: 0, description: 'Trade prices created (or that would be, in a dry run)' }),
    deleted: Type.Integer({ minimum: 0, description: 'Trade prices deleted (replace mode)' }),
    unchanged: Type.Integer({ minimum: 0, description: 'Rows that matched a record already there (replace mode): it keeps its id' }),
  },
  { title: 'ImportResult', additionalProperties: false },
);
export type ImportResult = Static<typeof ImportResult>;

export const Import = Type.Object(
  {
    id: Id,
    status: Type.Unsafe<ImportStatus>({
      type: 'string',
      enum: [...IMPORT_STATUSES],
      title: 'ImportStatus',
      description: 'queued → running → succeeded or failed',
    }),
    mode: Type.Unsafe<ImportMode>({ type: 'string', enum: [...IMPORT_MODES], title: 'ImportMode' }),
    dryRun: Type.Boolean(),
    changeSetId: Nullable({ ...Id, description: 'The change set the rows went into as operations; null when they change the book' }),
    fileName: Nullable(Type.String({ description: 'The file’s name as the uploader gave it (`fileName=`); null when none was' })),
    createdBy: Nullable(
      Type.Object(
        {
          type: Type.Union([Type.Literal('key'), Type.Literal('staff')], { description: 'An API key or a staff member (the admin page)' }),
          id: Type.Integer({ minimum: 0, description: 'The key’s or staff member’s id; 0 for the command line' }),
          name: Type.String({ description: 'The key’s name (or its public pk_… key), the staff member’s name' }),
        },
        { additionalProperties: false, description: 'Who uploaded the file; null for imports uploaded before this was kept' },
      ),
    ),
    format: Nullable(Type.Union([Type.Literal('long'), Type.Literal('matrix')], { description: 'Read from the header; null until it is' })),
    rows: Nullable(
      Type.Integer({ minimum: 0, description: 'Data rows in the file (one per price in the long format, one per SKU in the matrix); null until counted' }),
    ),
    processed: Type.Integer({ minimum: 0, description: 'Rows checked so far' }),
    errors: Type.Array(ImportError, {
      maxItems: MAX_IMPORT_ERRORS,
      description: `The first ${MAX_IMPORT_ERRORS} problems found, in the order of the file; a file with any changes nothing`,
    }),
    errorCount: Type.Integer({ minimum: 0, description: 'All problems found, also those beyond the list' }),
    result: Nullable({ ...ImportResult, description: 'What changed (or would, in a dry run), once succeeded' }),
    createdAt: Timestamp,
    finishedAt: Nullable(Timestamp),
  },
  { title: 'Import', $id: 'Import', additionalProperties: false },
);
export type Import = Static<typeof Import>;

/**
 * What the `import.succeeded` and `import.failed` events carry: the import as it ended, without
 * its `errors` (read them with `GET /v1/imports/{id}`); `errorCount` says how many there were.
 */
export type ImportEventData = Omit<Import, 'errors'>;

/** Changes a dry run keeps, to be listed with `GET /v1/imports/{id}/changes`; `result` counts them all. */
export const MAX_IMPORT_CHANGES = 10_000;
/** A store's newest dry runs that keep their changes: a dry run's start drops those of older ones. */
export const MAX_KEPT_DRY_RUNS = 20;

export const IMPORT_CHANGE_KINDS = ['created', 'deleted', 'changed'] as const;
export type ImportChangeKind = (typeof IMPORT_CHANGE_KINDS)[number];

export const ImportChangesQuery = Type.Object(
  {
    count: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50, description: 'Changes to return, 1–100' })),
    offset: Type.Optional(Type.Integer({ minimum: 0, default: 0, description: 'Changes to skip' })),
  },
  { title: 'ImportChangesQuery', additionalProperties: false },
);
export type ImportChangesQuery = Static<typeof ImportChangesQuery>;

/**
 * One trade price a dry run would change: `created` (add mode: every row; replace mode: a row
 * no record is like), `deleted` (replace mode: a record of a customer in the file that the file
 * does not keep) or `changed` (replace mode: a record whose product, SKU, break and window the
 * file keeps at another price; it would be deleted and the new price created).
 */
export const ImportChange = Type.Object(
  {
    kind: Type.Unsafe<ImportChangeKind>({ type: 'string', enum: [...IMPORT_CHANGE_KINDS], title: 'ImportChangeKind' }),
    customerId: Id,
    sku: Type.String(),
    minQuantity: Type.Integer({ minimum: 1, description: 'The quantity break: from this many units' }),
    validFrom: Nullable(Timestamp),
    validUntil: Nullable(Timestamp),
    before: Nullable(Type.Number({ description: 'The price now; null for a price created' })),
    after: Nullable(Type.Number({ description: 'The price the file sets; null for a price deleted' })),
    tradePriceId: Nullable({ ...Id, description: 'The record deleted or changed; null for a price created' }),
  },
  { title: 'ImportChange', $id: 'ImportChange', additionalProperties: false },
);
export type ImportChange = Static<typeof ImportChange>;

export const ImportChanges = Type.Object(
  {
    importId: Id,
    counts: Type.Object(
      {
        created: Type.Integer({ minimum: 0 }),
        changed: Type.Integer({ minimum: 0 }),
        deleted: Type.Integer({ minimum: 0 }),
      },
      { additionalProperties: false, description: 'The changes kept, by kind' },
    ),
    complete: Type.Boolean({
      description: `false when the dry run would change more than ${MAX_IMPORT_CHANGES} prices: only the first are kept (\`result\` counts them all)`,
    }),
    total: Type.Integer({ minimum: 0, description: 'Changes kept in all; `rows` is the page asked for' }),
    rows: Type.Array(ImportChange),
  },
  { title: 'ImportChanges', $id: 'ImportChanges', additionalProperties: false },
);
export type ImportChanges = Static<typeof ImportChanges>;

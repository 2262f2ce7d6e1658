import type { ImportError } from '../../contract/imports.js';
import { MAX_LINE_QUANTITY, PRICE_TEXT } from '../../contract/common.js';
import type { PricedSku } from '../../contract/trade-prices.js';
import { findColumns, type HeaderProblem, NUL_MESSAGE, readHeaderNames } from '../../csv/csv-header.js';
import { LONG_COLUMNS } from '../../csv/trade-prices-csv.js';
import { canonicalTimestamp, TIMESTAMP_RULE } from '../shared/timestamps.js';
import { controlCharacterProblem } from '../../text/control-characters.js';
import { clip } from '../../text/clip.js';
import { stripNeutralisation } from '../../text/csv-cells.js';

/**
 * The two CSV layouts of trade prices (docs/imports.md), read from records already split into
 * fields (the CSV parser handles quotes, BOM and line ends):
 *
 * - long: `customer_id,sku,price[,min_quantity,valid_from,valid_until]`, one price a row;
 * - matrix: `sku,<customer>,<customer>,…`, one SKU a row, one customer a column (its id or
 *   e-mail address in the header), a price in each cell (empty: no price).
 *
 * The header decides: a first column `sku` is a matrix, else the columns are named. Rows are
 * numbered as records, the header being 1 (a line of the file, unless a quoted field holds a
 * line break). The long format's columns are the ones every file is written with (src/csv).
 */
type LongColumn = (typeof LONG_COLUMNS)[number];
const REQUIRED_LONG_COLUMNS: readonly LongColumn[] = ['customer_id', 'sku', 'price'];

/** How a matrix column names its customer. */
export type CustomerRef = { id: number } | { email: string };

export type CsvLayout =
  | { format: 'long'; width: number; names: readonly string[]; column: Partial<Record<LongColumn, number>> }
  | { format: 'matrix'; width: number; names: readonly string[]; customers: Array<{ index: number; header: string; ref: CustomerRef }> };

/** One price a data row gives (a `PricedSku` but for its product), its customer not yet looked up. */
export type CsvPrice = Omit<PricedSku, 'productId'> & {
  row: number;
  /** The column naming the customer, for messages. */
  customerField: string;
  customer: CustomerRef;
};

/** The longest e-mail address a customer may have, so the longest header naming a customer. */
const MAX_EMAIL_LENGTH = 254;
const MAX_SKU_LENGTH = 255;
/** Longer than any timestamp the API reads (`2026-12-01T00:00:00.000000000+01:00` has 35). */
const MAX_TIMESTAMP_LENGTH = 64;

/** The layout the header announces, or its problems (all on row 1). */
export function readHeader(header: readonly string[]): { layout: CsvLayout } | { errors: ImportError[] } {
  const onRow1 = (problems: HeaderProblem[]): ImportError[] => problems.map(({ field, message }) => ({ row: 1, field, message }));
  // A matrix's header names customers, and the longest name a column can have is an e-mail address.
  const { names, problems, unreadable } = readHeaderNames(header, { length: MAX_EMAIL_LENGTH, what: 'an e-mail address' });
  const errors = onRow1(problems);
  if (unreadable) return { errors };
  if (names[0]?.toLowerCase() === 'sku') {
    const customers = names.slice(1).map((name, offset) => ({ index: offset + 1, header: name, ref: customerRef(name) }));
    for (const customer of customers) {
      if (customer.ref === undefined)
        errors.push({ row: 1, field: customer.header, message: 'must name a customer: its id (a whole number) or its e-mail address' });
    }
    if (customers.length === 0) errors.push({ row: 1, field: null, message: 'a matrix needs a column for at least one customer after sku' });
    if (errors.length > 0) return { errors };
    return {
      layout: {
        format: 'matrix',
        width: names.length,
        names,
        customers: customers.map(({ index, header: name, ref }) => ({ index, header: name, ref: ref! })),
      },
    };
  }
  const { column, problems: columnProblems } = findColumns(names, {
    columns: LONG_COLUMNS,
    required: REQUIRED_LONG_COLUMNS,
    notAColumn: `is not a column of the long format (${LONG_COLUMNS.join(', ')}); a matrix starts with sku`,
  });
  errors.push(...onRow1(columnProblems));
  if (errors.length > 0) return { errors };
  return { layout: { format: 'long', width: names.length, names: names.map((name) => name.toLowerCase()), column } };
}

/** The prices of one data row, or its problems (each naming its column). */
export function readRow(layout: CsvLayout, fields: readonly string[], row: number): { prices: CsvPrice[]; errors: ImportError[] } {
  if (fields.length !== layout.width) {
    return { prices: [], errors: [{ row, field: null, message: `has ${fields.length} fields where the header has ${layout.width}` }] };
  }
  // PostgreSQL text cannot hold U+0000, and no value may have it: the row goes no further.
  const withNul = fields.flatMap((field, index) => (field.includes('\u0000') ? [{ row, field: layout.names[index] ?? null, message: NUL_MESSAGE }] : []));
  if (withNul.length > 0) return { prices: [], errors: withNul };
  const cells = fields.map((cell) => stripNeutralisation(cell.trim()));
  return layout.format === 'long' ? readLongRow(layout, cells, row) : readMatrixRow(layout, cells, row);
}

function readLongRow(layout: Extract<CsvLayout, { format: 'long' }>, fields: readonly string[], row: number): { prices: CsvPrice[]; errors: ImportError[] } {
  const errors: ImportError[] = [];
  const text = (name: LongColumn) => {
    const index = layout.column[name];
    return index === undefined ? '' : fields[index]!.trim();
  };
  const customerText = text('customer_id');
  // Every check below reads a value of bounded length, and a message quotes at most a prefix.
  const customerId = /^[1-9]\d{0,15}$/.test(customerText) && Number.isSafeInteger(Number(customerText)) ? Number(customerText) : undefined;
  if (customerId === undefined) errors.push({ row, field: 'customer_id', message: `must be a customer id (a whole number ≥ 1), got '${clip(customerText)}'` });
  const sku = skuOf(text('sku'), row, 'sku', errors);
  const price = decimalOf(text('price'), row, 'price', errors);
  const minQuantity = minQuantityOf(text('min_quantity'), row, errors);
  const validFrom = momentOf(text('valid_from'), row, 'valid_from', errors);
  const validUntil = momentOf(text('valid_until'), row, 'valid_until', errors);
  if (validFrom !== null && validUntil !== null && validFrom >= validUntil)
    errors.push({ row, field: 'valid_until', message: `must be after valid_from (${validFrom})` });
  if (errors.length > 0 || customerId === undefined || sku === undefined || price === undefined) return { prices: [], errors };
  return { prices: [{ row, customerField: 'customer_id', customer: { id: customerId }, sku, price, minQuantity, validFrom, validUntil }], errors };
}

function readMatrixRow(
  layout: Extract<CsvLayout, { format: 'matrix' }>,
  fields: readonly string[],
  row: number,
): { prices: CsvPrice[]; errors: ImportError[] } {
  const errors: ImportError[] = [];
  const sku = skuOf(fields[0]!.trim(), row, 'sku', errors);
  const prices: CsvPrice[] = [];
  for (const { index, header, ref } of layout.customers) {
    const cell = fields[index]!.trim();
    if (cell === '') continue;
    const price = decimalOf(cell, row, header, errors);
    if (price !== undefined && sku !== undefined)
      prices.push({ row, customerField: header, customer: ref, sku, price, minQuantity: 1, validFrom: null, validUntil: null });
  }
  return errors.length > 0 ? { prices: [], errors } : { prices, errors };
}

function customerRef(header: string): CustomerRef | undefined {
  if (header.length > MAX_EMAIL_LENGTH) return undefined;
  if (/^[1-9]\d{0,15}$/.test(header) && Number.isSafeInteger(Number(header))) return { id: Number(header) };
  if (/^[^\s@]+@[^\s@]+$/.test(header)) return { email: header };
  return undefined;
}

export function skuOf(text: string, row: number, field: string, errors: ImportError[]): string | undefined {
  if (text === '' || text.length > MAX_SKU_LENGTH) {
    errors.push({
      row,
      field,
      message: text === '' ? 'is required' : `must have at most ${MAX_SKU_LENGTH} characters, got '${clip(text)}' (${text.length} characters)`,
    });
    return undefined;
  }
  const control = controlCharacterProblem(text);
  if (control !== undefined) errors.push({ row, field, message: control });
  return control === undefined ? text : undefined;
}

/** A price as the contract's `Price` takes it, written as text. */
export function decimalOf(text: string, row: number, field: string, errors: ImportError[]): number | undefined {
  if (!PRICE_TEXT.pattern.test(text)) {
    // A comma is a decimal comma or a thousands separator: say which way to write it.
    const hint = text.includes(',') ? ' (write the decimals after a point, without thousands separators)' : '';
    errors.push({ row, field, message: `must be a price: ${PRICE_TEXT.rule}, got '${clip(text)}'${hint}` });
    return undefined;
  }
  return Number(text);
}

export function minQuantityOf(text: string, row: number, errors: ImportError[]): number {
  if (text === '') return 1;
  const value = /^[1-9]\d{0,6}$/.test(text) ? Number(text) : NaN;
  if (!(value <= MAX_LINE_QUANTITY)) {
    errors.push({ row, field: 'min_quantity', message: `must be a whole number from 1 to ${MAX_LINE_QUANTITY}, got '${clip(text)}'` });
    return 1;
  }
  return value;
}

/** A date alone (`2027-01-01`): a validity bound at midnight UTC of that day (stores keep no time zone). */
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

export function momentOf(text: string, row: number, field: string, errors: ImportError[]): string | null {
  if (text === '') return null;
  const written = DATE_ONLY.test(text) ? `${text}T00:00:00Z` : text;
  const canonical = written.length > MAX_TIMESTAMP_LENGTH ? undefined : canonicalTimestamp(written);
  if (canonical === undefined)
    errors.push({ row, field, message: `${TIMESTAMP_RULE} (or a date alone, 2026-11-21, read as midnight UTC), got '${clip(text)}'` });
  return canonical ?? null;
}

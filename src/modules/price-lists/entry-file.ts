import { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import type { ImportError } from '../../contract/imports.js';
import type { FieldProblem } from '../../contract/errors.js';
import type { QuantityRuleInput } from '../../contract/quantity-rules.js';
import { MAX_LINE_QUANTITY } from '../../contract/common.js';
import { MAX_LIST_REPLACE_ITEMS } from '../../contract/price-lists.js';
import { CSV_READ_OPTIONS } from '../../csv/csv-read-options.js';
import { findColumns, readHeaderNames } from '../../csv/csv-header.js';
import { PRICE_LIST_COLUMNS } from '../../csv/price-list-csv.js';
import { clip } from '../../text/clip.js';
import { stripNeutralisation } from '../../text/csv-cells.js';
import { decimalOf, minQuantityOf, momentOf, skuOf } from '../imports/csv-format.js';
import { longWork, nextTurn } from '../shared/long-work.js';

/** Bytes parsed between turns of the event loop: a few milliseconds. (Its rows are checked as long work.) */
const PIECE_BYTES = 32 * 1024;

type Column = (typeof PRICE_LIST_COLUMNS)[number];
const REQUIRED: readonly Column[] = ['sku', 'price'];

/** A row of a list's file, as a replace's price but for its product (looked up by SKU). */
export interface EntryRow {
  /** The data row, from 0. */
  index: number;
  sku: string;
  price: number;
  minQuantity: number;
  validFrom: string | null;
  validUntil: string | null;
  quantityRule: QuantityRuleInput | null;
}

/**
 * A price list's entries read from a CSV file (docs/pricing.md, "Importing a list's entries"):
 * the header names the columns (`sku` and `price` required, the others of the list's download
 * optional, in any order), then one entry a row, read by the import's own rules (a price has at
 * most 4 decimals with a point, a moment is ISO 8601 with its offset, a cell's spreadsheet
 * neutralisation is taken off). A problem is reported at `index`, the data row from 0 (row
 * `index + 2` of the file), and `field`, the column; one of the header or of the file as a
 * whole has no index. At most MAX_LIST_REPLACE_ITEMS rows.
 */
export async function readEntryFile(csv: Buffer): Promise<{ rows: EntryRow[]; problems: FieldProblem[] }> {
  let records: string[][];
  let count: number;
  try {
    ({ records, count } = await recordsOf(csv));
  } catch (error) {
    return { rows: [], problems: [{ field: null, message: `is not CSV the import reads: ${(error as Error).message}` }] };
  }
  const [header, ...data] = records;
  if (header === undefined)
    return { rows: [], problems: [{ field: null, message: `is empty: the first row names the columns (${PRICE_LIST_COLUMNS.join(',')})` }] };
  if (count - 1 > MAX_LIST_REPLACE_ITEMS) {
    return {
      rows: [],
      problems: [
        {
          field: null,
          message: `has ${count - 1} rows of entries; an import into a list takes at most ${MAX_LIST_REPLACE_ITEMS}: import fewer SKUs at a time (scope skus)`,
        },
      ],
    };
  }
  const named = readHeaderNames(header);
  if (named.unreadable) return { rows: [], problems: named.problems };
  const { column, problems: columnProblems } = findColumns(named.names, {
    columns: PRICE_LIST_COLUMNS,
    required: REQUIRED,
    notAColumn: `is not a column of a list's file (${PRICE_LIST_COLUMNS.join(', ')})`,
  });
  const problems: FieldProblem[] = [...named.problems, ...columnProblems];
  if (problems.length > 0) return { rows: [], problems };

  const rows: EntryRow[] = [];
  for await (const [position, fields] of longWork().each(data.entries())) {
    const errors: ImportError[] = [];
    const text = (name: Column) => {
      const index = column[name];
      return index === undefined ? '' : stripNeutralisation((fields[index] ?? '').trim());
    };
    if (fields.length !== header.length)
      errors.push({ row: position + 2, field: null, message: `has ${fields.length} fields; the header has ${header.length}` });
    const sku = skuOf(text('sku'), position + 2, 'sku', errors);
    const price = decimalOf(text('price'), position + 2, 'price', errors);
    const minQuantity = minQuantityOf(text('min_quantity'), position + 2, errors);
    const validFrom = momentOf(text('valid_from'), position + 2, 'valid_from', errors);
    const validUntil = momentOf(text('valid_until'), position + 2, 'valid_until', errors);
    if (validFrom !== null && validUntil !== null && validFrom >= validUntil)
      errors.push({ row: position + 2, field: 'valid_until', message: `must be after valid_from (${validFrom})` });
    const quantityRule = ruleOf(text, position + 2, errors);
    problems.push(...errors.map(({ field, message }) => ({ index: position, field, message })));
    if (errors.length === 0 && sku !== undefined && price !== undefined)
      rows.push({ index: position, sku, price, minQuantity, validFrom, validUntil, quantityRule });
  }
  return { rows, problems };
}

/**
 * The file's records, parsed a piece at a time with a turn of the event loop between pieces:
 * 2 MiB parsed at once held the process for 100–200 ms. At most MAX_LIST_REPLACE_ITEMS + 1
 * records are kept (the header and the rows a list takes); the others are only counted.
 */
async function recordsOf(csv: Buffer): Promise<{ records: string[][]; count: number }> {
  async function* pieces() {
    for (let at = 0; at < csv.length; at += PIECE_BYTES) {
      if (at > 0) await nextTurn();
      yield csv.subarray(at, at + PIECE_BYTES);
    }
  }
  const records: string[][] = [];
  let count = 0;
  for await (const record of Readable.from(pieces()).pipe(parse(CSV_READ_OPTIONS))) {
    if (++count <= MAX_LIST_REPLACE_ITEMS + 1) records.push(record as string[]);
  }
  return { records, count };
}

/** The entry's own rule from its three cells: all empty is none; a cell left empty is left out (the rule's defaults). */
function ruleOf(text: (name: Column) => string, row: number, errors: ImportError[]): QuantityRuleInput | null {
  const rule: QuantityRuleInput = {};
  for (const [name, key] of [
    ['quantity_minimum', 'minimum'],
    ['quantity_maximum', 'maximum'],
    ['quantity_increment', 'increment'],
  ] as const) {
    const cell = text(name);
    if (cell === '') continue;
    if (!/^[1-9]\d{0,6}$/.test(cell) || Number(cell) > MAX_LINE_QUANTITY)
      errors.push({ row, field: name, message: `must be a whole number from 1 to ${MAX_LINE_QUANTITY}, got '${clip(cell)}'` });
    else rule[key] = Number(cell);
  }
  return Object.keys(rule).length === 0 ? null : rule;
}

/** A replace's field, as the file's column (`quantityRule.minimum` is `quantity_minimum`). */
export function columnOfField(field: string | null): string | null {
  const columns: Record<string, string> = {
    productId: 'sku',
    minQuantity: 'min_quantity',
    validFrom: 'valid_from',
    validUntil: 'valid_until',
    quantityRule: 'quantity_increment',
    'quantityRule.minimum': 'quantity_minimum',
    'quantityRule.maximum': 'quantity_maximum',
    'quantityRule.increment': 'quantity_increment',
  };
  return field === null ? null : (columns[field] ?? field);
}

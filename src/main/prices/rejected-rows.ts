import type { ImportError } from '@pricebook/client';
import { malformedOf } from '../../csv/csv-record-reader.js';
import { csvRecord } from '../../csv/csv-text.js';
import { stripNeutralisation } from '../../text/csv-cells.js';
import type { FileStyle } from './input-file.js';

/** `prices.csv` → `prices.rejected.csv` (beside it); a name without `.csv` gets `.rejected.csv` added. */
export function rejectedRowsPath(file: string): string {
  return /\.csv$/i.test(file) ? file.replace(/\.csv$/i, '.rejected.csv') : `${file}.rejected.csv`;
}

/** `0` → `A`, `25` → `Z`, `26` → `AA`: a column as a spreadsheet names it. */
export function spreadsheetColumn(index: number): string {
  let name = '';
  for (let rest = index + 1; rest > 0; rest = Math.floor((rest - 1) / 26)) name = String.fromCharCode(65 + ((rest - 1) % 26)) + name;
  return name;
}

/**
 * How messages name a problem's field. A matrix's customer column is named by its header, which
 * reads like a column number ("6"): it becomes `customer 6 (column G)`. Other fields stay as they are.
 */
export class FieldNames {
  private readonly customerColumns = new Map<string, number>();

  /** `header`: the file's first record, as read. */
  constructor(header: readonly string[] | undefined) {
    const names = (header ?? []).map((name) => stripNeutralisation(name.trim()));
    if (names[0]?.toLowerCase() !== 'sku') return;
    names.forEach((name, index) => {
      if (index > 0 && !this.customerColumns.has(name)) this.customerColumns.set(name, index);
    });
  }

  of(field: string | null): string | null {
    if (field === null) return null;
    const index = this.customerColumns.get(field);
    return index === undefined ? field : `customer ${field} (column ${spreadsheetColumn(index)})`;
  }

  /** A problem as one cell: `price: must be a price…`, or the message alone for a row as a whole. */
  problemText(problem: ImportError): string {
    const field = this.of(problem.field);
    return field === null ? problem.message : `${field}: ${problem.message}`;
  }
}

/**
 * The rows of a file that have problems, as CSV: the file's header with an `error` column added,
 * then each problem row (the header too, when it is one) with its fields as read and its
 * problems joined by `; `, in the order of the file. A problem on a row the file does not have
 * as a record (where it stops being CSV) gets a line of its own with empty fields. Cells are
 * neutralised as in every file the CLI writes: re-imported, each reads as it did in the file.
 * Written as the file was: with its byte-order mark if it had one, its line ends (CRLF or LF).
 */
export function rejectedRowsCsv(records: readonly string[][], problems: readonly ImportError[], style: FileStyle = { bom: false, lineEnd: '\n' }): string {
  const headerCut = records[0] !== undefined && malformedOf(records[0]) !== undefined;
  const names = new FieldNames(headerCut ? undefined : records[0]);
  const byRow = new Map<number, string[]>();
  for (const problem of problems) byRow.set(problem.row, [...(byRow.get(problem.row) ?? []), names.problemText(problem)]);
  const header = headerCut ? [] : (records[0] ?? []);
  const lines: string[][] = [[...header, 'error']];
  for (const row of [...byRow.keys()].sort((a, b) => a - b)) {
    const record = records[row - 1];
    const messages = byRow.get(row)!.join('; ');
    if (record === undefined) lines.push([...header.map(() => ''), `row ${row}: ${messages}`]);
    // A record whose quoting is broken: its raw text in the first column, the others empty.
    else if (malformedOf(record) !== undefined) lines.push([...header.map((_, index) => (index === 0 ? record[0]! : '')), messages]);
    else lines.push([...record, messages]);
  }
  return (style.bom ? '\uFEFF' : '') + lines.map((line) => `${csvRecord(line)}${style.lineEnd}`).join('');
}

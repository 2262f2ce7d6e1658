import type { ImportError } from '@pricebook/client';
import { csvText } from '../../csv/csv-text.js';

/** `prices.csv` → `prices.rejected.csv` (beside it); a name without `.csv` gets `.rejected.csv` added. */
export function rejectedRowsPath(file: string): string {
  return /\.csv$/i.test(file) ? file.replace(/\.csv$/i, '.rejected.csv') : `${file}.rejected.csv`;
}

/** A problem as one cell: `price: must be a price…`, or the message alone for a row as a whole. */
export function problemText(problem: ImportError): string {
  return problem.field === null ? problem.message : `${problem.field}: ${problem.message}`;
}

/**
 * The rows of a file that have problems, as CSV: the file's header with an `error` column added,
 * then each problem row (the header too, when it is one) with its fields as read and its
 * problems joined by `; `, in the order of the file. A problem on a row the file does not have
 * as a record (where it stops being CSV) gets a line of its own with empty fields. Cells are
 * neutralised as in every file the CLI writes: re-imported, each reads as it did in the file.
 */
export function rejectedRowsCsv(records: readonly string[][], problems: readonly ImportError[]): string {
  const byRow = new Map<number, string[]>();
  for (const problem of problems) byRow.set(problem.row, [...(byRow.get(problem.row) ?? []), problemText(problem)]);
  const header = records[0] ?? [];
  const lines: string[][] = [[...header, 'error']];
  for (const row of [...byRow.keys()].sort((a, b) => a - b)) {
    const record = records[row - 1];
    const messages = byRow.get(row)!.join('; ');
    lines.push(record === undefined ? [...header.map(() => ''), `row ${row}: ${messages}`] : [...record, messages]);
  }
  return csvText(lines);
}

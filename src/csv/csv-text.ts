import { escapeControlCharacters } from '../text/control-characters.js';
import { neutraliseCell } from '../text/csv-cells.js';

/** A cell to write: text, a number (written as `String(n)`), or null (an empty cell). */
export type CsvCell = string | number | null;

export interface CsvTextOptions {
  /** Output to a terminal: control characters in cells are written out (`\x1b`), never sent raw; the text is then not byte-exact. */
  escapeControls?: boolean;
}

/**
 * One CSV record, without its line end: every cell neutralised for spreadsheets (`=1+1` →
 * `'=1+1`, src/text/csv-cells.ts), which the import takes off again; then a cell with a comma,
 * quote, CR or LF is quoted, its quotes doubled (RFC 4180). Nothing else is quoted.
 *
 * No dependencies and no Node or DOM APIs: the CLI and the admin page write with it.
 */
export function csvRecord(cells: readonly CsvCell[], options: CsvTextOptions = {}): string {
  return cells
    .map((cell) => {
      const neutralised = neutraliseCell(cell === null ? '' : String(cell));
      const text = options.escapeControls === true ? escapeControlCharacters(neutralised) : neutralised;
      return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
    })
    .join(',');
}

/** Records as CSV text, each ended by LF (the last one too): what every file the CLI and the admin page write goes through. */
export function csvText(records: ReadonlyArray<readonly CsvCell[]>, options: CsvTextOptions = {}): string {
  let text = '';
  for (const record of records) text += `${csvRecord(record, options)}\n`;
  return text;
}

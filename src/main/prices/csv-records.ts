import fs from 'node:fs';
import { parse } from 'csv-parse';
import { stringify } from 'csv-stringify/sync';
import { escapeControlCharacters } from '../../text/control-characters.js';
import { neutraliseCell } from '../../text/csv-cells.js';

export interface CsvRecords {
  /** Every record, the header first: record `i` is row `i + 1` of the API's messages. */
  records: string[][];
  /** Where the file stops being CSV (an unclosed quote), as the parser says; the records before it are read. */
  malformed?: { row: number; message: string };
}

/**
 * The records of a CSV file read as the API reads an import (docs/imports.md): a byte-order
 * mark, CRLF line ends and quoted fields are fine, empty lines are skipped, rows may have
 * other field counts than the header (the format reports that).
 */
export async function readCsvRecords(text: string): Promise<CsvRecords> {
  const records: string[][] = [];
  const parser = parse(text, { bom: true, relax_column_count: true, relax_quotes: false, skip_empty_lines: true });
  try {
    for await (const record of parser as AsyncIterable<string[]>) records.push(record);
  } catch (error) {
    if (!(error instanceof Error) || !('code' in error) || !String(error.code).startsWith('CSV_')) throw error;
    const line = (error as { lines?: number }).lines;
    return { records, malformed: { row: typeof line === 'number' && line > 0 ? line : records.length + 1, message: `is not valid CSV: ${error.message}` } };
  }
  return { records };
}

/** The file a command was given, read whole; an unreadable one fails the command with its name. */
export function readInputFile(file: string): Buffer {
  try {
    return fs.readFileSync(file);
  } catch (error) {
    throw new Error(`cannot read ${file}: ${(error as Error).message}`);
  }
}

/**
 * Records as CSV text, every cell neutralised for spreadsheets (`'=1+1`, src/text/csv-cells.ts):
 * what every file the CLI writes goes through. The import (and `prices diff`) take the quote off.
 * `escapeControls` (output to a terminal) also writes control characters out (`\x1b`).
 */
export function csvText(records: ReadonlyArray<readonly string[]>, options: { escapeControls?: boolean } = {}): string {
  const cell = options.escapeControls === true ? (text: string) => escapeControlCharacters(neutraliseCell(text)) : neutraliseCell;
  return stringify(records.map((record) => record.map(cell)));
}

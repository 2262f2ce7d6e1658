import fs from 'node:fs';
import { stringify } from 'csv-stringify/sync';
import { escapeControlCharacters } from '../../text/control-characters.js';
import { neutraliseCell } from '../../text/csv-cells.js';

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

import fs from 'node:fs';
import { parse } from 'csv-parse/sync';
import { CSV_READ_OPTIONS } from '../../csv/csv-read-options.js';
import { encodingProblem } from '../../csv/file-encoding.js';
import { UsageError } from '../usage-error.js';

/** The separators `--delimiter` takes; `tab` names the tab character. */
export const DELIMITERS = [',', ';', 'tab', '|'] as const;
export type DelimiterName = (typeof DELIMITERS)[number];

/** How the file a command was given is written, for a file the command writes back beside it. */
export interface FileStyle {
  /** It starts with a UTF-8 byte-order mark. */
  bom: boolean;
  /** Its first line ends so (LF when it has one line). */
  lineEnd: '\n' | '\r\n';
}

export interface InputFile {
  /** The bytes to upload or read: comma-separated UTF-8 (converted from `--delimiter`). */
  bytes: Buffer;
  style: FileStyle;
}

/** Raised when the file cannot be what the API reads: exit 1, like a failed import. */
export class InputFileProblem extends Error {}

/** Bytes looked at to guess a file's separator: the work is bounded whatever the file's size. */
const SNIFF_BYTES = 64 * 1024;
const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/**
 * The file a command (`prices import`, `prices diff`) was given, read whole and checked before
 * anything is sent: a spreadsheet workbook, UTF-16, or another 8-bit encoding is named with what
 * to do instead; a header separated by `;` or tabs (and no comma) asks for `--delimiter`. With a
 * `--delimiter` other than the comma, the file is read with it and written comma-separated (with
 * `;`, prices with a decimal comma get a decimal point).
 */
export function readInputFile(file: string, delimiter: DelimiterName = ','): InputFile {
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(file);
  } catch (error) {
    throw new Error(`cannot read ${file}: ${(error as Error).message}`);
  }
  const notText = encodingProblem(bytes);
  if (notText !== undefined) throw new InputFileProblem(`${file} ${notText}`);
  const style = styleOf(bytes);
  if (delimiter === ',') {
    const separator = otherSeparator(bytes);
    if (separator !== undefined) {
      throw new InputFileProblem(
        `${file} looks ${separator.name}-separated (its first line has ${separator.shown} and no comma); pass --delimiter ${separator.flag}, or save it comma-separated`,
      );
    }
    return { bytes, style };
  }
  return { bytes: commaSeparated(bytes, delimiter === 'tab' ? '\t' : delimiter, file), style };
}

function styleOf(bytes: Buffer): FileStyle {
  const bom = bytes.subarray(0, 3).equals(UTF8_BOM);
  const newline = bytes.indexOf(0x0a);
  return { bom, lineEnd: newline > 0 && bytes[newline - 1] === 0x0d ? '\r\n' : '\n' };
}

/** The separator of a first line that has `;` or a tab and no comma (outside quotes or not: a header's names have neither). */
function otherSeparator(bytes: Buffer): { name: string; shown: string; flag: string } | undefined {
  const head = bytes
    .subarray(0, SNIFF_BYTES)
    .toString('utf8')
    .replace(/^\uFEFF/, '');
  const firstLine = head.split(/\r?\n/, 1)[0] ?? '';
  if (firstLine.includes(',')) return undefined;
  if (firstLine.includes(';')) return { name: 'semicolon', shown: "';'", flag: "';'" };
  if (firstLine.includes('\t')) return { name: 'tab', shown: 'tabs', flag: 'tab' };
  return undefined;
}

/** The file read with `separator` (as the import reads CSV otherwise), written comma-separated (RFC 4180 quoting, LF). */
function commaSeparated(bytes: Buffer, separator: string, file: string): Buffer {
  let records: string[][];
  try {
    records = parse(bytes, { ...CSV_READ_OPTIONS, delimiter: separator }) as string[][];
  } catch (error) {
    throw new InputFileProblem(`${file} cannot be read as ${separator === '\t' ? 'tab' : `'${separator}'`}-separated: ${(error as Error).message}`);
  }
  if (separator === ';') withDecimalPoints(records);
  const quoted = (cell: string) => (/[",\r\n]/.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell);
  return Buffer.from(records.map((record) => `${record.map(quoted).join(',')}\n`).join(''), 'utf8');
}

/** A price written with a decimal comma (`9,5`, digits either side of one comma). */
const DECIMAL_COMMA = /^(\s*\d+),(\d+\s*)$/;

/**
 * A `;`-separated file's prices written with a decimal comma, as a spreadsheet of a locale that
 * writes them so saves them, turned into decimal points (`9,5` → `9.5`): in the price column of
 * the long format, in every column but `sku` of a matrix. Nothing else changes: a price with a
 * point and a comma, or thousands separators (`1.234,5`, `1,234,5`), is sent as it is and refused
 * by the import like any other price that is not one.
 */
function withDecimalPoints(records: string[][]): void {
  const names = (records[0] ?? []).map((name) => name.trim().toLowerCase());
  const matrix = names[0] === 'sku';
  const price = names.indexOf('price');
  for (const record of records.slice(1)) {
    for (let index = matrix ? 1 : price; index >= 0 && index < record.length; index = matrix ? index + 1 : -1)
      record[index] = record[index]!.replace(DECIMAL_COMMA, '$1.$2');
  }
}

/** `--delimiter`'s value, checked: `,`, `;`, `|` or `tab` (a tab character too). */
export function parseDelimiter(value: string): DelimiterName {
  if (value === '\t') return 'tab';
  const known = DELIMITERS.find((name) => name === value.toLowerCase());
  if (known === undefined) throw new UsageError(`--delimiter must be one of ${DELIMITERS.map((name) => `'${name}'`).join(', ')}, got '${value}'`);
  return known;
}

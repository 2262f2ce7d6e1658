import { isUtf8 } from 'node:buffer';
import fs from 'node:fs';
import { parse } from 'csv-parse/sync';
import { CSV_READ_OPTIONS } from '../../csv/csv-read-options.js';
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

/** Bytes looked at to guess a file's encoding or separator: the work is bounded whatever the file's size. */
const SNIFF_BYTES = 64 * 1024;
const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/**
 * The file a command (`prices import`, `prices diff`) was given, read whole and checked before
 * anything is sent: a spreadsheet workbook, UTF-16, or another 8-bit encoding is named with what
 * to do instead; a header separated by `;` or tabs (and no comma) asks for `--delimiter`. With a
 * `--delimiter` other than the comma, the file is read with it and written comma-separated.
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
      throw new InputFileProblem(`${file} looks ${separator.name}-separated (its first line has ${separator.shown} and no comma); pass --delimiter ${separator.flag}, or save it comma-separated`);
    }
    return { bytes, style };
  }
  return { bytes: commaSeparated(bytes, delimiter === 'tab' ? '\t' : delimiter, file), style };
}

/**
 * Why the bytes are not UTF-8 text, naming what they likely are, or undefined. A small heuristic
 * of our own over the first 64 KiB: ZIP and OLE magic numbers, UTF-16 byte-order marks or NUL
 * bytes every other byte, else stray bytes ≥ 0x80 (Windows-1252 when one falls in 0x80–0x9F,
 * which Latin-1 leaves to control characters).
 */
export function encodingProblem(bytes: Buffer): string | undefined {
  const head = bytes.subarray(0, SNIFF_BYTES);
  if (head.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04]))) {
    return 'is an Excel workbook (.xlsx, a ZIP file), not CSV: save it as "CSV UTF-8 (comma delimited)" and import that';
  }
  if (head.subarray(0, 8).equals(Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]))) {
    return 'is an Excel 97-2003 workbook (.xls), not CSV: save it as "CSV UTF-8 (comma delimited)" and import that';
  }
  const utf16 = utf16Of(head);
  if (utf16 !== undefined) return `is not UTF-8 text: it looks like ${utf16}; save it as "CSV UTF-8", or convert it (iconv -f ${utf16 === 'UTF-16 LE' ? 'UTF-16LE' : 'UTF-16BE'} -t UTF-8)`;
  if (isUtf8(bytes)) return undefined;
  // The head may end inside a sequence the rest of the file completes; the file may not.
  const at = firstInvalidUtf8(head, head.length < bytes.length) ?? firstInvalidUtf8(bytes, false) ?? 0;
  let line = 1;
  for (let newline = bytes.indexOf(0x0a); newline !== -1 && newline < at; newline = bytes.indexOf(0x0a, newline + 1)) line += 1;
  const windows1252 = head.some((byte) => byte >= 0x80 && byte <= 0x9f);
  const guess = windows1252 ? 'Windows-1252' : 'Windows-1252 or Latin-1 (ISO-8859-1)';
  const iconv = windows1252 ? 'WINDOWS-1252' : 'LATIN1';
  return `is not UTF-8 text: byte 0x${bytes[at]!.toString(16).toUpperCase().padStart(2, '0')} on line ${line} is not UTF-8; it looks like ${guess}. Save it as "CSV UTF-8", or convert it (iconv -f ${iconv} -t UTF-8)`;
}

function utf16Of(head: Buffer): 'UTF-16 LE' | 'UTF-16 BE' | undefined {
  if (head[0] === 0xff && head[1] === 0xfe) return 'UTF-16 LE';
  if (head[0] === 0xfe && head[1] === 0xff) return 'UTF-16 BE';
  // Without a mark: ASCII text in UTF-16 has a NUL in every other byte.
  let evenNuls = 0;
  let oddNuls = 0;
  const pairs = Math.floor(Math.min(head.length, 1024) / 2);
  for (let index = 0; index < pairs; index++) {
    if (head[2 * index] === 0) evenNuls += 1;
    if (head[2 * index + 1] === 0) oddNuls += 1;
  }
  if (pairs >= 2 && oddNuls >= pairs * 0.5 && evenNuls === 0) return 'UTF-16 LE';
  if (pairs >= 2 && evenNuls >= pairs * 0.5 && oddNuls === 0) return 'UTF-16 BE';
  return undefined;
}

/** Offset of the first byte that starts no valid UTF-8 sequence, or undefined; a sequence cut off at the end counts as valid when `cutOffIsValid`. */
function firstInvalidUtf8(bytes: Buffer, cutOffIsValid: boolean): number | undefined {
  for (let index = 0; index < bytes.length; ) {
    const byte = bytes[index]!;
    const length = byte < 0x80 ? 1 : byte >= 0xc2 && byte <= 0xdf ? 2 : byte >= 0xe0 && byte <= 0xef ? 3 : byte >= 0xf0 && byte <= 0xf4 ? 4 : 0;
    if (length === 0) return index;
    for (let next = 1; next < length; next++) {
      if (index + next >= bytes.length) return cutOffIsValid ? undefined : index;
      if ((bytes[index + next]! & 0xc0) !== 0x80) return index;
    }
    index += length;
  }
  return undefined;
}

function styleOf(bytes: Buffer): FileStyle {
  const bom = bytes.subarray(0, 3).equals(UTF8_BOM);
  const newline = bytes.indexOf(0x0a);
  return { bom, lineEnd: newline > 0 && bytes[newline - 1] === 0x0d ? '\r\n' : '\n' };
}

/** The separator of a first line that has `;` or a tab and no comma (outside quotes or not: a header's names have neither). */
function otherSeparator(bytes: Buffer): { name: string; shown: string; flag: string } | undefined {
  const head = bytes.subarray(0, SNIFF_BYTES).toString('utf8').replace(/^\uFEFF/, '');
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
  const quoted = (cell: string) => (/[",\r\n]/.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell);
  return Buffer.from(records.map((record) => `${record.map(quoted).join(',')}\n`).join(''), 'utf8');
}

/** `--delimiter`'s value, checked: `,`, `;`, `|` or `tab` (a tab character too). */
export function parseDelimiter(value: string): DelimiterName {
  if (value === '\t') return 'tab';
  const known = DELIMITERS.find((name) => name === value.toLowerCase());
  if (known === undefined) throw new UsageError(`--delimiter must be one of ${DELIMITERS.map((name) => `'${name}'`).join(', ')}, got '${value}'`);
  return known;
}

import { clip } from '../text/clip.js';
import { stripNeutralisation } from '../text/csv-cells.js';

/**
 * The header rules of every CSV file Pricebook reads (a trade-price import, a price list's
 * entries): names trimmed and their spreadsheet neutralisation taken off, matched to columns
 * whatever their case, each named once. A problem names the column as the file writes it.
 */
export interface HeaderProblem {
  /** The name as the file writes it (cut short), a required column's name, or null for the header as a whole. */
  field: string | null;
  message: string;
}

/** PostgreSQL text cannot hold U+0000, and no name or value may have it. */
export const NUL_MESSAGE = 'must not contain the NUL character (\\u0000)';

/**
 * The header's names, and its problems: a name named twice (case aside), and one no column can
 * have (a NUL, or longer than `longest.length`), which makes the header `unreadable`: it goes no
 * further (no lookup, no copy), and is quoted cut short.
 */
export function readHeaderNames(
  header: readonly string[],
  longest?: { length: number; what: string },
): { names: string[]; problems: HeaderProblem[]; unreadable: boolean } {
  const names = header.map((name) => stripNeutralisation(name.trim()));
  const problems: HeaderProblem[] = [];
  const seen = new Set<string>();
  let unreadable = false;
  for (const name of names) {
    const tooLong = longest !== undefined && name.length > longest.length;
    if (name.includes('\u0000') || tooLong) {
      problems.push({
        field: clip(name, 64),
        message: name.includes('\u0000') ? NUL_MESSAGE : `is longer than any column name (at most ${longest!.length} characters, ${longest!.what})`,
      });
      unreadable = true;
      continue;
    }
    if (seen.has(name.toLowerCase())) problems.push({ field: name, message: 'is named twice in the header' });
    seen.add(name.toLowerCase());
  }
  return { names, problems, unreadable };
}

/**
 * Where each of `columns` is among `names` (from `readHeaderNames`), and the problems: a name
 * that is none of them (`notAColumn` says what the columns are), a `required` one missing.
 */
export function findColumns<C extends string>(
  names: readonly string[],
  spec: { columns: readonly C[]; required: readonly C[]; notAColumn: string },
): { column: Partial<Record<C, number>>; problems: HeaderProblem[] } {
  const column: Partial<Record<C, number>> = {};
  const problems: HeaderProblem[] = [];
  names.forEach((name, index) => {
    const known = spec.columns.find((candidate) => candidate === name.toLowerCase());
    if (known === undefined) problems.push({ field: clip(name, 64), message: spec.notAColumn });
    else column[known] = index;
  });
  for (const required of spec.required) {
    if (column[required] === undefined) problems.push({ field: required, message: 'is a required column of the header' });
  }
  return { column, problems };
}

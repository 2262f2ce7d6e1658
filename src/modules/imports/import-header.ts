import { parse } from 'csv-parse/sync';
import { CSV_READ_OPTIONS } from '../../csv/csv-read-options.js';
import { readHeader } from './csv-format.js';

/**
 * How much of a file is read, at most, to find its header (bytes of the upload, characters
 * here); a longer header counts as naming e-mails. The parser needs tens of milliseconds for 64 KiB of one record, and this runs while
 * the request is answered: 32 KiB keeps it short (about 1 400 e-mail columns, 5 000 ids).
 */
export const MAX_HEADER_SCAN_CHARS = 32 * 2 ** 10;
/**
 * Whether the file is a matrix whose header names a customer by e-mail address. Such an import
 * looks customers up by e-mail, and its outcome says whether each address is a customer of the
 * store: a read of customers, so it needs `catalog:read` as well (docs/scopes.md).
 *
 * The header is read as the import reads it, by the same parser with the same options, from
 * the first `MAX_HEADER_SCAN_CHARS` of the file. A header that has not ended there counts as
 * naming e-mails: when in doubt, the scope is asked for. A file whose header does not parse
 * answers false: the import fails on it and looks nobody up. `csv` is the whole file, or with
 * `complete` false only its start (an upload still arriving).
 */
export function namesCustomersByEmail(csv: string, complete = true): boolean {
  const header = firstRecord(csv, complete);
  if (header === 'too long') return true;
  if (header === undefined) return false;
  const read = readHeader(header);
  return 'layout' in read && read.layout.format === 'matrix' && read.layout.customers.some((customer) => 'email' in customer.ref);
}

/**
 * The file's first record as the import's parser reads it. A record is known to be whole once
 * the parser has started the next one (a cut can only change what follows it), or when the
 * prefix read is the whole file.
 */
function firstRecord(csv: string, complete: boolean): string[] | undefined | 'too long' {
  const whole = complete && csv.length <= MAX_HEADER_SCAN_CHARS;
  const records: string[][] = [];
  try {
    parse(whole ? csv : csv.slice(0, MAX_HEADER_SCAN_CHARS), {
      ...CSV_READ_OPTIONS,
      // The parser stops after the second record: the rest of the prefix costs nothing.
      to: 2,
      on_record: (record: string[]) => {
        records.push(record);
        return record;
      },
    });
  } catch {
    // A later record that does not parse, or one the cut ends inside: the records before it stand.
  }
  if (records.length >= 2 || whole) return records[0];
  return 'too long';
}

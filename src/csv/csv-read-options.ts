import type { Options } from 'csv-parse';

/**
 * How Pricebook reads every CSV file (docs/imports.md): a byte-order mark, CRLF line ends and
 * quoted fields are fine, empty lines are skipped, a quote inside an unquoted field is an
 * error, and a row may have another field count than the header (the format reports that).
 */
export const CSV_READ_OPTIONS = { bom: true, relax_column_count: true, relax_quotes: false, skip_empty_lines: true } as const satisfies Options;

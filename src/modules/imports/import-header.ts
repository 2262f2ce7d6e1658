import { parse } from 'csv-parse/sync';
import { readHeader } from './csv-format.js';

/**
 * Whether the file is a matrix whose header names a customer by e-mail address. Such an import
 * looks customers up by e-mail, and its outcome says whether each address is a customer of the
 * store: a read of customers, so it needs `catalog:read` as well (docs/scopes.md).
 *
 * Only the header is read, as the import reads it (BOM, quotes, empty lines skipped). A header
 * that does not parse answers false: the import then fails on its header and looks nobody up.
 */
export function namesCustomersByEmail(csv: string): boolean {
  const text = csv.startsWith('\uFEFF') ? csv.slice(1) : csv;
  let records: string[][];
  try {
    records = parse(text.slice(0, firstRecordEnd(text)), { relax_column_count: true, relax_quotes: false, skip_empty_lines: true }) as string[][];
  } catch {
    return false;
  }
  const header = records[0];
  if (header === undefined) return false;
  const read = readHeader(header);
  return 'layout' in read && read.layout.format === 'matrix' && read.layout.customers.some((customer) => 'email' in customer.ref);
}

/** Where the first non-empty record ends: the first line break outside quotes after some text. */
function firstRecordEnd(text: string): number {
  let quoted = false;
  let content = false;
  for (let index = 0; index < text.length; index++) {
    const char = text[index];
    if (!quoted && (char === '\n' || char === '\r')) {
      if (content) return index;
    } else {
      if (char === '"') quoted = !quoted;
      content = true;
    }
  }
  return text.length;
}

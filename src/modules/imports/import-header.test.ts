import { describe, expect, it } from 'vitest';
import { MAX_HEADER_SCAN_CHARS, namesCustomersByEmail } from './import-header.js';

/** `1,2,…,count`: distinct customer ids, a long header. */
const ids = (count: number) => Array.from({ length: count }, (_item, index) => index + 1).join(',');

describe('namesCustomersByEmail', () => {
  it('is true for a matrix whose header names a customer by e-mail, however the header is written', () => {
    for (const csv of [
      'sku,buyer@example.com\nTEE,1\n',
      'sku,12,buyer@example.com\r\nTEE,1,2\r\n',
      '\uFEFFSKU, buyer@example.com \nTEE,1\n',
      '\n\n"sku","buyer@example.com"\nTEE,1\n',
      'sku,"buyer@example.com"\nTEE,"1\n',
      // Leading CRLF makes CRLF the record separator: a bare LF is then inside the header's cell.
      '\r\nsku,\nbuyer@example.com\r\nTEE,1\r\n',
      // A header near the end of what is read, and one longer than that (counted as naming e-mails).
      `sku,${ids(5_000)},buyer@example.com\nTEE,1\n`,
      `sku,${ids(7_000)}\nTEE,1\n`,
    ]) {
      expect(namesCustomersByEmail(csv), JSON.stringify(csv.slice(0, 60))).toBe(true);
    }
  });

  it('reads headers up to MAX_HEADER_SCAN_CHARS', () => {
    expect(`sku,${ids(5_000)},buyer@example.com\n`.length).toBeLessThan(MAX_HEADER_SCAN_CHARS);
    expect(`sku,${ids(7_000)}\n`.length).toBeGreaterThan(MAX_HEADER_SCAN_CHARS);
    expect(namesCustomersByEmail(`sku,${ids(5_000)}\nTEE,1\n`)).toBe(false);
    // A whole file shorter than the limit, its header unfinished: the import fails on it.
    expect(namesCustomersByEmail('sku,"buyer@example.com')).toBe(false);
  });

  it('reads the start of an upload still arriving as a start: a header not seen to end names e-mails', () => {
    // Cut after the ids: the e-mail column may follow, so the scope is asked for.
    expect(namesCustomersByEmail(`sku,${ids(100)}`, false)).toBe(true);
    expect(
      namesCustomersByEmail(
        `sku,${ids(100)}
TEE`,
        false,
      ),
    ).toBe(false);
    expect(
      namesCustomersByEmail(
        `sku,${ids(100)}
TEE`,
        true,
      ),
    ).toBe(false);
  });

  it('is false for customer ids, the long format, and headers the import refuses anyway', () => {
    for (const csv of [
      'sku,12,13\nTEE,1,2\n',
      'customer_id,sku,price\n12,TEE,1\n',
      // The e-mail is in a data row, not the header.
      'sku,12\nbuyer@example.com,1\n',
      // A header with a line break in a quoted cell is refused by the import before any lookup.
      'sku,"a\nb",buyer@example.com\nTEE,1,2\n',
      'sku,buyer@example.com,buyer@example.com\nTEE,1,2\n',
      'sku,"unclosed\n',
      // LF first makes LF the separator: the CR after it is a record of its own, a bad header.
      '\n\r\n"sku","buyer@example.com"\nTEE,1\n',
      `sku,${ids(5_000)}\nbuyer@example.com,1\n`,
      '',
      '\uFEFF',
    ]) {
      expect(namesCustomersByEmail(csv), JSON.stringify(csv)).toBe(false);
    }
  });
});

import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { neutraliseCell, stripNeutralisation } from '../text/csv-cells.js';
import { CSV_READ_OPTIONS } from './csv-read-options.js';
import { csvRecord, csvText } from './csv-text.js';
import { priceListCsv } from './price-list-csv.js';
import { tradePricesCsv } from './trade-prices-csv.js';

describe('writing CSV', () => {
  it('quotes only a cell with a comma, quote, CR or LF, doubles its quotes, and ends every record with LF', () => {
    expect(csvRecord(['a', 'b c', '', 'x,y', 'say "hi"', 'two\nlines', 'cr\r'])).toBe('a,b c,,"x,y","say ""hi""","two\nlines","cr\r"');
    expect(csvText([['sku', 'price'], ['A', '1.5'], []])).toBe('sku,price\nA,1.5\n\n');
    expect(csvText([])).toBe('');
  });

  it('writes numbers as they print and null as an empty cell', () => {
    expect(csvRecord([7, 12.5, 0.1, null, 'x'])).toBe('7,12.5,0.1,,x');
  });

  it('neutralises cells a spreadsheet would run, quoting after', () => {
    expect(csvRecord(['=1+1', '-1', "'@x", '=HYPERLINK("u","a,b")', '\tTAB'])).toBe(`'=1+1,'-1,''@x,"'=HYPERLINK(""u"",""a,b"")",'\tTAB`);
  });

  it('writes control characters out for a terminal, and only then', () => {
    expect(csvRecord(['A\u001b[31m', 'two\nlines'], { escapeControls: true })).toBe('A\\x1b[31m,two\\x0alines');
    expect(csvRecord(['A\u001b[31m'])).toBe('A\u001b[31m');
  });

  it('reads back, with the import’s parser and neutralisation taken off, as the cells written', () => {
    const cell = fc.string({ unit: fc.constantFrom('a', 'Z', ' ', ',', '"', '\n', '\r', "'", '=', '-', '+', '@', '\t', 'é', '😀') });
    fc.assert(
      fc.property(fc.array(fc.array(cell, { minLength: 1, maxLength: 5 }), { minLength: 1, maxLength: 5 }), (records) => {
        // Only what the import reads as a record: an empty line is skipped, and spaces around a cell are not data.
        const kept = records.filter((record) => record.length > 1 || record[0] !== '');
        const read = parse(csvText(kept), CSV_READ_OPTIONS) as string[][];
        expect(read.map((record) => record.map(stripNeutralisation))).toEqual(kept);
        expect(read).toEqual(kept.map((record) => record.map(neutraliseCell)));
      }),
    );
  });

  it('writes the long format and a price list, header first', () => {
    const price = { customerId: 3, sku: '=X', price: 12.5, minQuantity: 10, validFrom: '2026-01-01T00:00:00.000Z', validUntil: null };
    expect(tradePricesCsv([price])).toBe("customer_id,sku,price,min_quantity,valid_from,valid_until\n3,'=X,12.5,10,2026-01-01T00:00:00.000Z,\n");
    expect(priceListCsv([price])).toBe(
      "sku,price,min_quantity,valid_from,valid_until,quantity_minimum,quantity_maximum,quantity_increment\n'=X,12.5,10,2026-01-01T00:00:00.000Z,,,,\n",
    );
    expect(priceListCsv([{ ...price, quantityRule: { minimum: 24, maximum: null, increment: 12 } }])).toBe(
      "sku,price,min_quantity,valid_from,valid_until,quantity_minimum,quantity_maximum,quantity_increment\n'=X,12.5,10,2026-01-01T00:00:00.000Z,,24,,12\n",
    );
    expect(tradePricesCsv([])).toBe('customer_id,sku,price,min_quantity,valid_from,valid_until\n');
  });
});

import { describe, expect, it } from 'vitest';
import { FieldNames, rejectedRowsCsv, spreadsheetColumn } from '../../src/main/prices/rejected-rows.js';

describe('rejected rows and the names of fields', () => {
  it('names columns as a spreadsheet does', () => {
    expect([0, 1, 6, 25, 26, 27, 51, 52, 701, 702].map(spreadsheetColumn)).toEqual(['A', 'B', 'G', 'Z', 'AA', 'AB', 'AZ', 'BA', 'ZZ', 'AAA']);
  });

  it('names a matrix customer column by customer and spreadsheet column; long-format fields and row problems stay as they are', () => {
    const matrix = new FieldNames(['\uFEFFSKU', ' 6 ', 'b@example.com']);
    expect(matrix.of('6')).toBe('customer 6 (column B)');
    expect(matrix.of('b@example.com')).toBe('customer b@example.com (column C)');
    expect(matrix.of('sku')).toBe('sku');
    expect(matrix.problemText({ row: 3, field: null, message: 'has 2 fields where the header has 3' })).toBe('has 2 fields where the header has 3');
    const long = new FieldNames(['customer_id', 'sku', 'price']);
    expect(long.of('price')).toBe('price');
  });

  it('writes the file as the input was written: byte-order mark and CRLF kept, or LF without a mark', () => {
    const records = [
      ['sku', '6'],
      ['A', 'x'],
    ];
    const problems = [{ row: 2, field: '6', message: 'must be a price' }];
    expect(rejectedRowsCsv(records, problems, { bom: true, lineEnd: '\r\n' })).toBe('\uFEFFsku,6,error\r\nA,x,customer 6 (column B): must be a price\r\n');
    expect(rejectedRowsCsv(records, problems)).toBe('sku,6,error\nA,x,customer 6 (column B): must be a price\n');
  });
});

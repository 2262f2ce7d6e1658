import { describe, expect, it } from 'vitest';
import { longRow } from '../../csv/trade-prices-csv.js';
import { type CsvLayout, readHeader, readRow } from './csv-format.js';

function layoutOf(header: string[]): CsvLayout {
  const read = readHeader(header);
  if ('errors' in read) throw new Error(JSON.stringify(read.errors));
  return read.layout;
}

describe('CSV layouts of trade prices', () => {
  it('reads the long format with its optional columns, in any order', () => {
    const layout = layoutOf(['sku', 'price', 'customer_id'].reverse());
    expect(layout).toMatchObject({ format: 'long', width: 3 });
    expect(readRow(layout, ['12', '9.5', 'TEE'], 2)).toEqual({
      prices: [{ row: 2, customerField: 'customer_id', customer: { id: 12 }, sku: 'TEE', price: 9.5, minQuantity: 1, validFrom: null, validUntil: null }],
      errors: [],
    });
    const full = layoutOf(['customer_id', 'sku', 'price', 'min_quantity', 'valid_from', 'valid_until']);
    expect(readRow(full, ['3', 'MUG', '0.0001', '10', '2026-12-01T00:00:00+01:00', ''], 7).prices).toEqual([
      {
        row: 7,
        customerField: 'customer_id',
        customer: { id: 3 },
        sku: 'MUG',
        price: 0.0001,
        minQuantity: 10,
        validFrom: '2026-11-30T23:00:00.000Z',
        validUntil: null,
      },
    ]);
  });

  it('reads a validity date alone as midnight UTC of that day, and still refuses a date-time without a time zone', () => {
    const full = layoutOf(['customer_id', 'sku', 'price', 'valid_from', 'valid_until']);
    const read = readRow(full, ['3', 'MUG', '2', '2027-01-01', '2027-02-01T12:00:00+01:00'], 2);
    expect(read.errors).toEqual([]);
    expect(read.prices[0]).toMatchObject({ validFrom: '2027-01-01T00:00:00.000Z', validUntil: '2027-02-01T11:00:00.000Z' });
    const refused = readRow(full, ['3', 'MUG', '2', '2027-02-30', '2027-03-01T00:00:00'], 2).errors;
    expect(refused.map((error) => error.field)).toEqual(['valid_from', 'valid_until']);
    expect(refused[0]!.message).toMatch(/or a date alone, 2026-11-21, read as midnight UTC\), got '2027-02-30'$/);
  });

  it('reads a matrix: one SKU a row, a customer (id or e-mail) a column, empty cells priceless', () => {
    const layout = layoutOf(['sku', '12', 'buyer@example.com']);
    expect(layout).toMatchObject({ format: 'matrix', customers: [{ ref: { id: 12 } }, { ref: { email: 'buyer@example.com' } }] });
    expect(readRow(layout, ['TEE', '', '7.25'], 3)).toEqual({
      prices: [
        {
          row: 3,
          customerField: 'buyer@example.com',
          customer: { email: 'buyer@example.com' },
          sku: 'TEE',
          price: 7.25,
          minQuantity: 1,
          validFrom: null,
          validUntil: null,
        },
      ],
      errors: [],
    });
  });

  it.each([
    [['customer_id', 'sku'], [['price', 'is a required column of the header']]],
    [['customer_id', 'sku', 'price', 'colour'], [['colour', 'is not a column']]],
    [['customer_id', 'sku', 'price', 'Price'], [['Price', 'is named twice']]],
    [['sku', 'Acme Ltd'], [['Acme Ltd', 'must name a customer']]],
    [['sku'], [[null, 'at least one customer']]],
  ])('refuses the header %j on row 1, naming the column', (header, expected) => {
    const read = readHeader(header);
    expect('errors' in read && read.errors.map((error) => [error.row, error.field])).toEqual(expected.map(([field]) => [1, field]));
    if ('errors' in read) expected.forEach(([, message], index) => expect(read.errors[index]!.message).toContain(message));
  });

  it.each([
    ['a price with 5 decimals', ['1', 'TEE', '1.23456'], 'price'],
    ['a price with a comma', ['1', 'TEE', '1,5'], 'price'],
    ['a negative price', ['1', 'TEE', '-1'], 'price'],
    ['a price of a billion', ['1', 'TEE', '1000000000'], 'price'],
    ['an exponent', ['1', 'TEE', '1e3'], 'price'],
    ['a customer that is no id', ['abc', 'TEE', '1'], 'customer_id'],
    ['an empty SKU', ['1', '', '1'], 'sku'],
  ])('refuses %s, naming its row and column', (_name, fields, field) => {
    const read = readRow(layoutOf(['customer_id', 'sku', 'price']), fields, 4);
    expect(read.prices).toEqual([]);
    expect(read.errors.map((error) => [error.row, error.field])).toEqual([[4, field]]);
  });

  it('refuses bad breaks and windows, and a row with the wrong number of fields', () => {
    const layout = layoutOf(['customer_id', 'sku', 'price', 'min_quantity', 'valid_from', 'valid_until']);
    const read = readRow(layout, ['1', 'TEE', '1', '0', '2026-02-30T00:00:00Z', 'soon'], 5);
    expect(read.errors.map((error) => error.field)).toEqual(['min_quantity', 'valid_from', 'valid_until']);
    expect(readRow(layout, ['1', 'TEE', '1', '1', '2027-01-01T00:00:00Z', '2026-01-01T00:00:00Z'], 6).errors.map((error) => error.field)).toEqual([
      'valid_until',
    ]);
    expect(readRow(layout, ['1', 'TEE'], 7).errors).toEqual([{ row: 7, field: null, message: 'has 2 fields where the header has 6' }]);
  });

  it('refuses a name longer than any column, or with a NUL, quoting only its start, and looks nothing more up', () => {
    const long = 'x'.repeat(10_000);
    expect(readHeader(['sku', long, '12'])).toEqual({
      errors: [{ row: 1, field: `${'x'.repeat(64)}…`, message: 'is longer than any column name (at most 254 characters, an e-mail address)' }],
    });
    expect(readHeader(['customer_id', 'sku', 'price', 'a\u0000b'])).toEqual({
      errors: [{ row: 1, field: 'a\u0000b', message: 'must not contain the NUL character (\\u0000)' }],
    });
  });

  it('refuses a cell with a NUL in its column, and a cell longer than its longest legal value with a short quote of it', () => {
    const layout = layoutOf(['customer_id', 'sku', 'price', 'valid_from']);
    expect(readRow(layout, ['1', 'TEE\u0000', '1', ''], 2)).toEqual({
      prices: [],
      errors: [{ row: 2, field: 'sku', message: 'must not contain the NUL character (\\u0000)' }],
    });
    const read = readRow(layout, ['1', 'S'.repeat(256), '1', '2026-01-01T00:00:00Z'.padEnd(100_000, '0')], 3);
    expect(read.errors).toEqual([
      { row: 3, field: 'sku', message: `must have at most 255 characters, got '${'S'.repeat(40)}…' (256 characters)` },
      { row: 3, field: 'valid_from', message: expect.stringMatching(/, got '2026-01-01T00:00:00Z0{20}…'$/) },
    ]);
    const matrix = layoutOf(['sku', '12']);
    expect(readRow(matrix, ['TEE', '1\u0000'], 4).errors).toEqual([{ row: 4, field: '12', message: 'must not contain the NUL character (\\u0000)' }]);
  });

  it('writes what it reads: a long row round-trips', () => {
    const price = { customerId: 4, sku: 'A,B "quoted"', price: 12.5, minQuantity: 3, validFrom: '2026-01-01T00:00:00.000Z', validUntil: null };
    const read = readRow(layoutOf(['customer_id', 'sku', 'price', 'min_quantity', 'valid_from', 'valid_until']), longRow(price), 2);
    expect(read.prices[0]).toMatchObject({ customer: { id: 4 }, sku: price.sku, price: 12.5, minQuantity: 3, validFrom: price.validFrom, validUntil: null });
  });
});

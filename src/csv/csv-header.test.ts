import { describe, expect, it } from 'vitest';
import { findColumns, readHeaderNames } from './csv-header.js';

const spec = { columns: ['sku', 'price', 'min_quantity'] as const, required: ['sku', 'price'] as const, notAColumn: 'is not a column' };

describe('the header rules of the CSV files Pricebook reads', () => {
  it('matches names whatever their case, after trimming and taking off a neutralisation', () => {
    const { names, problems, unreadable } = readHeaderNames([' SKU ', 'Price', "'-x"]);
    expect([names, problems, unreadable]).toEqual([['SKU', 'Price', '-x'], [], false]);
    expect(findColumns(names.slice(0, 2), spec)).toEqual({ column: { sku: 0, price: 1 }, problems: [] });
  });

  it('names a column named twice, one that is none, and a required one missing, as the file writes them', () => {
    const { names, problems } = readHeaderNames(['sku', 'Colour', 'SKU']);
    expect(problems).toEqual([{ field: 'SKU', message: 'is named twice in the header' }]);
    expect(findColumns(names, spec).problems).toEqual([
      { field: 'Colour', message: 'is not a column' },
      { field: 'price', message: 'is a required column of the header' },
    ]);
  });

  it('goes no further with a name holding a NUL, or longer than the longest a column can have, quoting only its start', () => {
    expect(readHeaderNames(['sku', 'a\u0000b'])).toMatchObject({
      unreadable: true,
      problems: [{ field: 'a\u0000b', message: 'must not contain the NUL character (\\u0000)' }],
    });
    expect(readHeaderNames(['x'.repeat(100)], { length: 20, what: 'a test' })).toMatchObject({
      unreadable: true,
      problems: [{ field: `${'x'.repeat(64)}…`, message: 'is longer than any column name (at most 20 characters, a test)' }],
    });
  });
});

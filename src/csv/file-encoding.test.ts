import { describe, expect, it } from 'vitest';
import { encodingProblem } from './file-encoding.js';

/** The reason (the CLI's and the admin page's) for a file that is not UTF-8 text names the byte and the line where it stops being so. */
describe('encodingProblem', () => {
  it('takes UTF-8 text, with or without a byte-order mark', () => {
    expect(encodingProblem(Buffer.from('\uFEFFcustomer_id,sku,price\n1,CAFÉ,1\n'))).toBeUndefined();
  });

  it('names a stray byte and its line', () => {
    expect(encodingProblem(Buffer.from('customer_id,sku,price\n1,CAF\u00c9,1\n', 'latin1'))).toMatch(/^is not UTF-8 text: byte 0xC9 on line 2 is not UTF-8/);
  });

  it('names a multi-byte sequence cut off at the end of the file, not the first byte of the file', () => {
    const cut = Buffer.concat([Buffer.from('customer_id,sku,price\n1,CAF'), Buffer.from([0xc3])]);
    expect(encodingProblem(cut)).toMatch(/^is not UTF-8 text: byte 0xC3 on line 2 is not UTF-8/);
  });

  it('names the line of a stray byte past the 64 KiB it looks at first', () => {
    const late = Buffer.concat([Buffer.from(`sku,price\n${'A,1\n'.repeat(20_000)}CAF`), Buffer.from([0xc9]), Buffer.from(',1\n')]);
    expect(encodingProblem(late)).toMatch(/^is not UTF-8 text: byte 0xC9 on line 20002 is not UTF-8/);
  });

  it('names a sequence cut off at the end of a file longer than the 64 KiB it looks at first', () => {
    const cut = Buffer.concat([Buffer.from(`sku,price\n${'A,1\n'.repeat(20_000)}1,CAF`), Buffer.from([0xe2, 0x82])]);
    expect(encodingProblem(cut)).toMatch(/^is not UTF-8 text: byte 0xE2 on line 20002 is not UTF-8/);
  });
});

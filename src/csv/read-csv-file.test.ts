import { describe, expect, it } from 'vitest';
import { CsvProblem } from './csv-problem.js';
import { CsvRecordReader } from './csv-record-reader.js';
import { malformedOf } from './csv-record-reader.js';
import { readCsvFile } from './read-csv-file.js';

/** What the server reads of `bytes` stored in chunks of `size`: the records before the reader stops, and its problem. */
async function asStored(bytes: Buffer, size: number): Promise<{ records: string[][]; problem?: { row: number; message: string } }> {
  const chunks: Buffer[] = [];
  for (let start = 0; start < bytes.length; start += size) chunks.push(bytes.subarray(start, start + size));
  const reader = new CsvRecordReader((seq) => Promise.resolve(chunks[seq]));
  const records: string[][] = [];
  try {
    for (let batch = await reader.next(); batch !== undefined; batch = await reader.next()) records.push(...batch);
  } catch (error) {
    if (!(error instanceof CsvProblem)) throw error;
    return { records, problem: { row: error.line, message: error.message } };
  }
  return { records };
}

describe('reading a file held whole', () => {
  const rows = Array.from({ length: 3000 }, (_, index) => `${index + 1},SKU-${index},${index}.5`);
  const files = {
    'a long file': ['customer_id,sku,price', ...rows, ''].join('\r\n'),
    'a BOM, quoted fields and empty lines': '\uFEFFsku,"a@example.com"\n\n"A,1","1.5"\n"B ""x""",2\n',
    'an unclosed quote at the end': 'a,b\n1,2\n3,"x\n',
    'an invalid closing quote': 'a,b\n1,"2"x\n',
    'an invalid closing quote past the first slices': ['customer_id,sku,price', ...rows, '5,"6"x,1', '7,8,9', ''].join('\n'),
    'a row wider than any file': `sku,1\nA,1\n${'1,'.repeat(20_000)}1\n`,
    'an empty file': '',
  };

  it.each(Object.entries(files))('reads %s as the server reads it stored in 256 KiB chunks: the same records, the same problem', async (_name, text) => {
    const bytes = Buffer.from(text);
    const stored = await asStored(bytes, 256 * 1024);
    const read = await readCsvFile(bytes);
    expect(read.records).toEqual(stored.records);
    expect(read.malformed).toEqual(stored.problem);
  });

  it('cuts out a record with a broken quote and reads on; says where a file stops being CSV with the import’s message, and keeps the records read before it', async () => {
    const read = await readCsvFile(Buffer.from(files['an invalid closing quote past the first slices']));
    // A broken quote stops nothing: the record is cut out, named, and the rows after it read.
    expect(read.malformed).toBeUndefined();
    expect(read.records).toHaveLength(3003);
    expect(read.records[0]).toEqual(['customer_id', 'sku', 'price']);
    expect(read.records[3001]).toEqual(['5,"6"x,1']);
    expect(malformedOf(read.records[3001]!)).toEqual({ raw: '5,"6"x,1', message: 'is not valid CSV: text after a closing quote' });
    expect(read.records[3002]).toEqual(['7', '8', '9']);
    expect(await readCsvFile(Buffer.from(files['a row wider than any file']))).toEqual({
      records: [
        ['sku', '1'],
        ['A', '1'],
      ],
      malformed: { row: 3, message: expect.stringMatching(/^has more than 16384 fields/) },
    });
    expect(await readCsvFile(Buffer.from(files['a BOM, quoted fields and empty lines']))).toEqual({
      records: [
        ['sku', 'a@example.com'],
        ['A,1', '1.5'],
        ['B "x"', '2'],
      ],
    });
  });
});

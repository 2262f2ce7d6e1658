import { describe, expect, it } from 'vitest';
import { MAX_IMPORT_COLUMNS, MAX_IMPORT_ROW_BYTES } from '../contract/imports.js';
import { CsvProblem } from './csv-problem.js';
import { CsvRecordReader, malformedOf, SLICE_BYTES } from './csv-record-reader.js';

/** A stored file cut into slices of `size` bytes, counting which slices were read. */
function storedFile(text: string | Buffer, size = 2 ** 20) {
  const bytes = Buffer.isBuffer(text) ? text : Buffer.from(text);
  const reads: number[] = [];
  const chunks: Buffer[] = [];
  for (let start = 0; start < bytes.length; start += size) chunks.push(bytes.subarray(start, start + size));
  return { reads, chunks, read: (seq: number) => (reads.push(seq), Promise.resolve(chunks[seq])) };
}

async function all(reader: CsvRecordReader): Promise<string[][]> {
  const records: string[][] = [];
  for (let batch = await reader.next(); batch !== undefined; batch = await reader.next()) records.push(...batch);
  return records;
}

describe('reading a stored file slice by slice', () => {
  it('gives the parser a record longer than a slice a slice at a time, in the file and as its last line without an end', async () => {
    const wide = Array.from({ length: 12_000 }, (_, index) => `${index % 100}.25`);
    expect(wide.join(',').length).toBeGreaterThan(3 * SLICE_BYTES);
    for (const ending of ['\n', '']) {
      const file = storedFile(
        `${['sku', ...wide.map((_, index) => `c${index}`)].join(',')}\n${['A', ...wide].join(',')}\n${['B', ...wide].join(',')}${ending}`,
        256 * 1024,
      );
      const reader = new CsvRecordReader(file.read);
      // The parser is the reader's own; its writes are watched (each is parsed at once, on the loop).
      const parser = (reader as unknown as { parser: { write: (bytes: Buffer) => boolean } }).parser;
      const written: number[] = [];
      const write = parser.write.bind(parser);
      parser.write = (bytes: Buffer) => (written.push(bytes.length), write(bytes));
      const records = await all(reader);
      expect(records.map((record) => [record[0], record.length])).toEqual([
        ['sku', 12_001],
        ['A', 12_001],
        ['B', 12_001],
      ]);
      expect(records[2]!.at(-1)).toBe(wide.at(-1));
      expect(Math.max(...written)).toBeLessThanOrEqual(SLICE_BYTES);
    }
  });

  it('reads one stored slice at a time, and hands the records over a parser slice at a time', async () => {
    const rows = Array.from({ length: 200_000 }, (_, index) => `${index},SKU-${index % 997},${index % 100}.5`);
    const file = storedFile(['customer_id,sku,price', ...rows].join('\n'));
    expect(file.chunks.length).toBeGreaterThanOrEqual(4);
    const reader = new CsvRecordReader(file.read);
    const first = await reader.next();
    // One stored slice read, and only the records of the first 16 KiB of it.
    expect(file.reads).toEqual([0]);
    expect(first!.length).toBeGreaterThan(0);
    expect(first!.length).toBeLessThan(SLICE_BYTES / 10);
    let most = first!.length;
    let total = first!.length;
    for (let batch = await reader.next(); batch !== undefined; batch = await reader.next()) {
      most = Math.max(most, batch.length);
      total += batch.length;
    }
    expect(total).toBe(rows.length + 1);
    expect(most).toBeLessThan(SLICE_BYTES / 10);
    expect(file.reads).toEqual([...file.chunks.keys(), file.chunks.length]);
  });

  it('reads quoted fields, CRLF, a BOM and characters cut between two stored slices', async () => {
    const text = '\uFEFFsku,"na,me"\r\n"ÅÄÖ ""x""",1\r\n€€€,2\r\n';
    const records = await all(new CsvRecordReader(storedFile(text, 5).read));
    expect(records).toEqual([
      ['sku', 'na,me'],
      ['ÅÄÖ "x"', '1'],
      ['€€€', '2'],
    ]);
  });

  it('refuses a row wider than the widest legal matrix before it is built, naming its line', async () => {
    const wide = Array.from({ length: MAX_IMPORT_COLUMNS + 1 }, () => '1').join(',');
    const reader = new CsvRecordReader(storedFile(`sku,1\nA,1\n${wide}\n`).read);
    await expect(all(reader)).rejects.toEqual(
      new CsvProblem(
        3,
        `has more than ${MAX_IMPORT_COLUMNS} fields: a file has at most ${MAX_IMPORT_COLUMNS} columns (a matrix at most ${MAX_IMPORT_COLUMNS - 1} customers); split it`,
      ),
    );
    // Commas inside quotes are no fields.
    const quoted = `"${wide}"`;
    expect(await all(new CsvRecordReader(storedFile(`sku\n${quoted}\n`).read))).toEqual([['sku'], [wide]]);
  });

  it('refuses a row longer than any legal one', async () => {
    const long = Buffer.alloc(MAX_IMPORT_ROW_BYTES + 1, 0x61);
    const reader = new CsvRecordReader(storedFile(Buffer.concat([Buffer.from('sku\nA\n'), long])).read);
    await expect(all(reader)).rejects.toMatchObject({ line: 3, message: 'is longer than 5 MiB: no row of a valid file is' });
  });

  it('cuts out a record whose quoting is broken, naming it, and goes on after it', async () => {
    const records = await all(new CsvRecordReader(storedFile('a,b\n1,"2"x\n3,4\n5,"x\n').read));
    expect(records.map((record) => [record, malformedOf(record)?.message])).toEqual([
      [['a', 'b'], undefined],
      [['1,"2"x'], 'is not valid CSV: text after a closing quote'],
      [['3', '4'], undefined],
      [['5,"x'], 'is not valid CSV: a quote opened in it is never closed'],
    ]);
  });
});

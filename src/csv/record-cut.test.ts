import { describe, expect, it } from 'vitest';
import { malformedOf } from './csv-record-reader.js';
import { readCsvFile } from './read-csv-file.js';

async function read(text: string) {
  const file = await readCsvFile(Buffer.from(text));
  return { records: file.records.map((record) => [record, malformedOf(record)?.message ?? null]), malformed: file.malformed };
}

describe('records whose quoting is broken', () => {
  it('are cut out one by one, the reading going on after each', async () => {
    expect(await read('a,b,c\n1,"a"b,1\n2,x,2\n3,TEE"R,3\n4,"ok\nline",4\n5,"x""y",5\n6,"open,6')).toEqual({
      records: [
        [['a', 'b', 'c'], null],
        [['1,"a"b,1'], 'is not valid CSV: text after a closing quote'],
        [['2', 'x', '2'], null],
        [['3,TEE"R,3'], 'is not valid CSV: a quote inside a field that does not start with one'],
        [['4', 'ok\nline', '4'], null],
        [['5', 'x"y', '5'], null],
        [['6,"open,6'], 'is not valid CSV: a quote opened in it is never closed'],
      ],
      malformed: undefined,
    });
  });

  it('cannot be forged: a record that spells out a mark of an earlier version is a record like any other', async () => {
    expect(await read('a\n"\u0000malformed record\u0000"\n1,"a"b\n')).toEqual({
      records: [
        [['a'], null],
        [['\u0000malformed record\u0000'], null],
        [['1,"a"b'], 'is not valid CSV: text after a closing quote'],
      ],
      malformed: undefined,
    });
  });

  it('keep a byte-order mark, CRLF and quoted fields as the parser reads them', async () => {
    expect(await read('\uFEFF"a",b\r\n"x""y",2\r\n1,"bad"x\r\n3,4\r\n')).toEqual({
      records: [
        [['a', 'b'], null],
        [['x"y', '2'], null],
        [['1,"bad"x'], 'is not valid CSV: text after a closing quote'],
        [['3', '4'], null],
      ],
      malformed: undefined,
    });
  });

  it('are found wherever the slices of 16 KiB cut the file', async () => {
    const lines = ['sku,price'];
    for (let index = 0; index < 5000; index++) lines.push(index % 1000 === 7 ? `S${index},"9"9` : `"S${index}",${index}`);
    const { records } = await read(lines.join('\n'));
    expect(records).toHaveLength(5001);
    expect(records.flatMap(([record, message], index) => (message === null ? [] : [[index + 1, record]]))).toEqual(
      [7, 1007, 2007, 3007, 4007].map((at) => [at + 2, [`S${at},"9"9`]]),
    );
    expect(records[5000]).toEqual([['S4999', '4999'], null]);
  });
});

import { CsvProblem } from './csv-problem.js';
import { CsvRecordReader } from './csv-record-reader.js';

export interface CsvFile {
  /** The records read, the header first: record `i` is row `i + 1` of the API's messages. */
  records: string[][];
  /**
   * Where the reader stopped (an unclosed quote, a row too wide or too long), with the
   * import's own message; `records` are those the import reads before it stops.
   */
  malformed?: { row: number; message: string };
}

/**
 * The records of a file held whole, read as the server reads an import's stored file: the same
 * reader (`CsvRecordReader`), fed the bytes as one chunk, so the same records and the same
 * problem for a malformed file.
 */
export async function readCsvFile(bytes: Buffer): Promise<CsvFile> {
  const reader = new CsvRecordReader((seq) => Promise.resolve(seq === 0 ? bytes : undefined));
  const records: string[][] = [];
  try {
    for (let batch = await reader.next(); batch !== undefined; batch = await reader.next()) records.push(...batch);
  } catch (error) {
    if (!(error instanceof CsvProblem)) throw error;
    return { records, malformed: { row: error.line, message: error.message } };
  }
  return { records };
}

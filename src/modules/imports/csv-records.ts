import { parse, type Parser } from 'csv-parse';
import { MAX_IMPORT_COLUMNS, MAX_IMPORT_ROW_BYTES } from '../../contract/imports.js';
import { clip } from '../../text/clip.js';

/** Bytes handed to the CSV parser at a time: a few milliseconds of parsing. */
export const SLICE_BYTES = 16 * 1024;

/** A file the reader cannot go on with: malformed CSV, or a row too wide or too long. */
export class CsvProblem extends Error {
  constructor(
    /** Line of the file where it is (the header being 1). */
    readonly line: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The records of a stored file, read slice by slice: the next slice (`SLICE_BYTES`) is read
 * from storage only when the records of the last one are taken, so at most one stored slice
 * (256 KiB) and the records of one parser slice are held whatever the file's size. Before the
 * parser sees a slice, a guard counts each row's fields and bytes outside quotes, so no row
 * wider than `MAX_IMPORT_COLUMNS` or longer than `MAX_IMPORT_ROW_BYTES` is ever built.
 */
export class CsvRecordReader {
  private readonly parser: Parser = parse({ bom: true, relax_column_count: true, relax_quotes: false, skip_empty_lines: true });
  private readonly guard = new RowGuard();
  private chunk: Buffer | undefined;
  private offset = 0;
  private seq = 0;
  private ended = false;

  constructor(private readonly readChunk: (seq: number) => Promise<Buffer | undefined>) {
    // Its errors are read from `errored` after each slice; the event would go unheard.
    this.parser.on('error', () => undefined);
  }

  /**
   * The records of the next slice (often a few hundred, possibly none: a record may span
   * slices); undefined once the file is read. Throws `CsvProblem`.
   */
  async next(): Promise<string[][] | undefined> {
    if (this.ended) return undefined;
    if (this.chunk === undefined || this.offset >= this.chunk.length) {
      this.chunk = await this.readChunk(this.seq);
      this.seq += 1;
      this.offset = 0;
      if (this.chunk === undefined) return this.finish();
    }
    const slice = this.chunk.subarray(this.offset, this.offset + SLICE_BYTES);
    this.offset += slice.length;
    this.guard.check(slice);
    // Written while the parser's buffer is empty, the slice is parsed at once, its records read here.
    this.parser.write(slice);
    return this.take();
  }

  private async finish(): Promise<string[][] | undefined> {
    this.ended = true;
    this.parser.end();
    // The parser flushes its last record on a later turn of the loop; a few turns at most.
    const records: string[][] = [];
    for (let turn = 0; turn < 100 && !this.parser.readableEnded && this.parser.errored === null; turn++) {
      records.push(...this.take());
      await new Promise((resolve) => setImmediate(resolve));
      this.parser.read(0);
    }
    records.push(...this.take());
    return records;
  }

  private take(): string[][] {
    const records: string[][] = [];
    for (let record = this.parser.read() as string[] | null; record !== null; record = this.parser.read() as string[] | null) records.push(record);
    const failure = this.parser.errored as (Error & { code?: string; lines?: number }) | null;
    if (failure !== null) {
      const line = typeof failure.lines === 'number' && failure.lines > 0 ? failure.lines : this.guard.line;
      throw new CsvProblem(line, `is not valid CSV: ${clip(failure.message, 200)}`);
    }
    return records;
  }
}

/**
 * Counts, ahead of the parser, the fields and bytes of the row being read, outside quotes (a
 * quote toggles; an escaped quote `""` toggles twice). For any file the parser accepts this is
 * its own reading; a file it refuses fails there anyway.
 */
class RowGuard {
  private inQuotes = false;
  private fields = 1;
  private bytes = 0;
  /** Line being read, and the line the current row started on. */
  line = 1;
  private rowLine = 1;

  check(slice: Buffer): void {
    for (let index = 0; index < slice.length; index++) {
      const byte = slice[index]!;
      this.bytes += 1;
      if (byte === 0x22) {
        this.inQuotes = !this.inQuotes;
      } else if (byte === 0x0a || byte === 0x0d) {
        if (byte === 0x0a) this.line += 1;
        if (!this.inQuotes) {
          this.fields = 1;
          this.bytes = 0;
          this.rowLine = this.line;
        }
      } else if (byte === 0x2c && !this.inQuotes && ++this.fields > MAX_IMPORT_COLUMNS) {
        throw new CsvProblem(this.rowLine, `has more than ${MAX_IMPORT_COLUMNS} fields: a file has at most ${MAX_IMPORT_COLUMNS} columns (a matrix at most ${MAX_IMPORT_COLUMNS - 1} customers); split it`);
      }
      if (this.bytes > MAX_IMPORT_ROW_BYTES) throw new CsvProblem(this.rowLine, `is longer than ${MAX_IMPORT_ROW_BYTES / 2 ** 20} MiB: no row of a valid file is`);
    }
  }
}

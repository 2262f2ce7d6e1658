import { parse, type Parser } from 'csv-parse';
import { clip } from '../text/clip.js';
import { CSV_READ_OPTIONS } from './csv-read-options.js';
import { CsvProblem } from './csv-problem.js';
import { type MalformedRecord, RecordCutter } from './record-cut.js';
import { RowGuard } from './row-guard.js';

const malformedRecords = new WeakMap<readonly string[], MalformedRecord>();

/** What is wrong with a record the reader gave, when its quoting is broken (its one field is then its raw text). */
export function malformedOf(record: readonly string[]): MalformedRecord | undefined {
  return malformedRecords.get(record);
}

/** Bytes handed to the CSV parser at a time: a few milliseconds of parsing. */
export const SLICE_BYTES = 16 * 1024;

/**
 * The records of a file, read slice by slice: the next slice (`SLICE_BYTES`) is read only when
 * the records of the last one are taken, so at most one chunk (a stored slice of an import,
 * 256 KiB) and the records of one parser slice are held whatever the file's size. Before the
 * parser sees a slice, a guard counts each row's fields and bytes outside quotes, so no row
 * wider than `MAX_IMPORT_COLUMNS` or longer than `MAX_IMPORT_ROW_BYTES` is ever built, and a
 * cutter takes out each record whose quoting is broken (`RecordCutter`): it comes as a record
 * of one field, its raw text, that `malformedOf` names, and the reading goes on after it.
 *
 * The server feeds it an import's stored chunks; the CLI a file read whole (`readCsvFile`):
 * both get the same records and the same problems for the same bytes.
 */
export class CsvRecordReader {
  private readonly parser: Parser = parse(CSV_READ_OPTIONS);
  private readonly guard = new RowGuard();
  private readonly cutter = new RecordCutter();
  private chunk: Buffer | undefined;
  private offset = 0;
  /** The cutter's records not yet given to the parser: a long record comes whole, and goes on a slice at a time. */
  private pending: Buffer = Buffer.alloc(0);
  private seq = 0;
  private ended = false;
  /** A row too wide or too long: thrown once the records before it are taken. */
  private stopped: CsvProblem | undefined;

  constructor(private readonly readChunk: (seq: number) => Promise<Buffer | undefined>) {
    // Its errors are read from `errored` after each slice; the event would go unheard.
    this.parser.on('error', () => undefined);
  }

  /**
   * The records of the next slice (often a few hundred, possibly none: a record may span
   * slices); undefined once the file is read. Throws `CsvProblem`.
   */
  async next(): Promise<string[][] | undefined> {
    if (this.stopped !== undefined) throw this.stopped;
    if (this.ended) return undefined;
    if (this.pending.length > 0) return this.parseSlice();
    if (this.chunk === undefined || this.offset >= this.chunk.length) {
      this.chunk = await this.readChunk(this.seq);
      this.seq += 1;
      this.offset = 0;
      if (this.chunk === undefined) return this.finish();
    }
    const slice = this.chunk.subarray(this.offset, this.offset + SLICE_BYTES);
    this.offset += slice.length;
    try {
      this.guard.check(slice);
    } catch (error) {
      // The parser holds a slice's last record until it sees more: the records before the row are taken first.
      if (!(error instanceof CsvProblem)) throw error;
      this.stopped = error;
      return this.finish(false);
    }
    this.pending = this.cutter.feed(slice);
    return this.parseSlice();
  }

  /**
   * The parser is given at most a slice of the cutter's records at a time: the cutter holds a
   * record until its end (a matrix's row of 16 383 prices is some 150 KiB), and parsed at once
   * it held the loop for 100 ms. Written while the parser's buffer is empty, the bytes are
   * parsed at once, their records read here.
   */
  private parseSlice(): string[][] {
    const piece = this.pending.subarray(0, SLICE_BYTES);
    this.pending = this.pending.subarray(piece.length);
    if (piece.length > 0) this.parser.write(piece);
    return this.take();
  }

  private async finish(whole = true): Promise<string[][] | undefined> {
    this.ended = true;
    const rest = whole ? this.cutter.end() : Buffer.alloc(0);
    const records: string[][] = [];
    // The last record, held whole by the cutter when the file does not end its line, goes a slice at a time too.
    for (let at = 0; at < rest.length; at += SLICE_BYTES) {
      if (at > 0) await new Promise((resolve) => setImmediate(resolve));
      this.parser.write(rest.subarray(at, at + SLICE_BYTES));
      records.push(...this.take());
    }
    this.parser.end();
    // The parser flushes its last record on a later turn of the loop; a few turns at most.
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
    for (let record = this.parser.read() as string[] | null; record !== null; record = this.parser.read() as string[] | null) {
      const cut = record.length === 1 && record[0] === this.cutter.mark ? this.cutter.taken() : undefined;
      if (cut === undefined) {
        records.push(record);
      } else {
        const raw = [cut.raw];
        malformedRecords.set(raw, cut);
        records.push(raw);
      }
    }
    const failure = this.parser.errored as (Error & { code?: string; lines?: number }) | null;
    if (failure !== null) {
      const line = typeof failure.lines === 'number' && failure.lines > 0 ? failure.lines : this.guard.line;
      throw new CsvProblem(line, `is not valid CSV: ${clip(failure.message, 200)}`);
    }
    return records;
  }
}

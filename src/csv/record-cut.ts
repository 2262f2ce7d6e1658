import { randomUUID } from 'node:crypto';
import { clip } from '../text/clip.js';

/** A record the CSV parser would refuse, cut out of the file: its text and what is wrong with it. */
export interface MalformedRecord {
  /** The record's bytes as the file has them (its line, or lines when a quoted field ran on), as UTF-8 text. */
  raw: string;
  message: string;
}

const FIELD_START = 0;
const UNQUOTED = 1;
const QUOTED = 2;
/** A quote inside a quoted field: an escaped quote (`""`) or its end. */
const QUOTE_IN_QUOTED = 3;
/** Past the broken spot, up to the line's end. */
const BROKEN = 4;

/**
 * Reads the file's quoting ahead of the parser, record by record, as the parser reads it (a
 * field that starts with a quote is quoted; a quote doubles inside one; a quote elsewhere in a
 * field, or text after a closing quote, breaks the record). A broken record, up to the end of
 * its line, is cut out and a one-field record (`mark`) put in its place, so the parser
 * goes on with the next line and every such record is a problem of its own (`taken` in order).
 * A record still open at the end of the file (a quote never closed) is cut out too.
 *
 * Only complete records are handed on: the bytes of the record being read are held until it
 * ends (a record is at most `MAX_IMPORT_ROW_BYTES`, which `RowGuard` checks first).
 */
export class RecordCutter {
  /**
   * What the parser is given in place of a malformed record: one field, random for each file,
   * so that no record a file really holds can pass for one (a file's own NUL is its problem).
   */
  readonly mark = `\u0000malformed record ${randomUUID()}\u0000`;
  private readonly markLine = Buffer.from(`"${this.mark}"`);
  private held: Buffer = Buffer.alloc(0);
  private scanned = 0;
  private state = FIELD_START;
  private problem = '';
  private atStart = true;
  private readonly found: MalformedRecord[] = [];

  /** The next slice's complete records, malformed ones replaced by the mark. */
  feed(slice: Buffer): Buffer {
    const data = this.held.length === 0 ? slice : Buffer.concat([this.held, slice]);
    if (this.atStart && data.length >= 3) {
      // A byte-order mark is the parser's to drop; it starts no field.
      this.atStart = false;
      if (data[0] === 0xef && data[1] === 0xbb && data[2] === 0xbf) this.scanned = 3;
    } else if (this.atStart) {
      this.held = Buffer.from(data);
      return Buffer.alloc(0);
    }
    const out: Buffer[] = [];
    let recordStart = 0;
    let emitted = 0;
    for (let index = this.scanned; index < data.length; index++) {
      const byte = data[index]!;
      const lineEnd = byte === 0x0a || byte === 0x0d;
      switch (this.state) {
        case FIELD_START:
          this.state = byte === 0x22 ? QUOTED : byte === 0x2c || lineEnd ? FIELD_START : UNQUOTED;
          break;
        case UNQUOTED:
          if (byte === 0x22) this.breakAt('a quote inside a field that does not start with one');
          else if (byte === 0x2c || lineEnd) this.state = FIELD_START;
          break;
        case QUOTED:
          if (byte === 0x22) this.state = QUOTE_IN_QUOTED;
          break;
        case QUOTE_IN_QUOTED:
          if (byte === 0x22) this.state = QUOTED;
          else if (byte === 0x2c || lineEnd) this.state = FIELD_START;
          else this.breakAt('text after a closing quote');
          break;
        default:
          if (lineEnd) {
            out.push(data.subarray(emitted, recordStart), this.markLine);
            this.found.push({ raw: data.subarray(recordStart, index).toString('utf8'), message: this.problem });
            emitted = index;
            this.state = FIELD_START;
          }
      }
      if (lineEnd && this.state === FIELD_START) recordStart = index + 1;
    }
    out.push(data.subarray(emitted, recordStart));
    this.held = Buffer.from(data.subarray(recordStart));
    this.scanned = this.held.length;
    return Buffer.concat(out);
  }

  /** The file ended: the record held, whole (or cut out, when a quote was never closed or it is broken). */
  end(): Buffer {
    const rest = this.held;
    this.held = Buffer.alloc(0);
    if (this.state === QUOTED || this.state === BROKEN) {
      const message = this.state === QUOTED ? 'is not valid CSV: a quote opened in it is never closed' : this.problem;
      this.found.push({ raw: rest.toString('utf8').replace(/\r?\n$/, ''), message });
      return this.markLine;
    }
    return rest;
  }

  /** The next malformed record cut out, in the order of the file. */
  taken(): MalformedRecord | undefined {
    return this.found.shift();
  }

  private breakAt(what: string): void {
    this.state = BROKEN;
    this.problem = `is not valid CSV: ${clip(what, 200)}`;
  }
}

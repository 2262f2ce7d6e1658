import { isUtf8 } from 'node:buffer';
import { type Import, MAX_IMPORT_BYTES } from '../../contract/imports.js';
import { type AppError, invalidField, validationFailed } from '../shared/errors.js';
import type { UnitOfWork } from '../shared/unit-of-work.js';
import { bodyTooLarge, type ImportQueueCaps, queueFull } from './import-limits.js';
import type { ImportTurns } from './import-pacing.js';

/** Bytes of one stored slice of a file: written in a few milliseconds, even on SQLite (where the write holds the process). */
export const CHUNK_BYTES = 256 * 1024;

/** Slices stored between two looks at the store's queued bytes (a MiB). */
const CAP_CHECK_EVERY = 4;

/**
 * One file arriving as an import: written to storage slice by slice as its bytes come (the
 * caller awaits each `append`, so a fast client waits for the database, never fills memory),
 * checked on the way (UTF-8, size, the store's queue caps), then queued whole, or discarded.
 * At most one slice (256 KiB) is held at a time.
 */
export class ImportUpload {
  private seq = 0;
  private received = 0;
  private readonly pending: Buffer = Buffer.allocUnsafe(CHUNK_BYTES);
  private filled = 0;
  private readonly tally = new FileTally();
  private state: 'receiving' | 'complete' | 'queued' | 'discarded' = 'receiving';

  constructor(
    private readonly uow: UnitOfWork,
    private readonly caps: ImportQueueCaps,
    readonly importId: number,
    readonly storeId: number,
    /** Uploads begun since this moment (ISO 8601) count against the caps; older ones died. */
    private readonly uploadsSince: string,
    private readonly onQueued: () => void,
    /** The process's turns of import work: each piece is handled in one. */
    private readonly turns: ImportTurns,
  ) {}

  /** Bytes received so far. */
  get bytes(): number {
    return this.received;
  }

  /**
   * The next bytes of the file: checked and gathered in a turn of the process's import work,
   * each full slice then written (outside the turn: the database may take its time, other
   * uploads and imports go on meanwhile).
   */
  async append(piece: Buffer): Promise<void> {
    if (this.state !== 'receiving') throw new Error(`upload ${this.importId} is ${this.state}`);
    this.received += piece.length;
    if (this.received > MAX_IMPORT_BYTES) throw bodyTooLarge();
    for (let offset = 0; offset < piece.length;) {
      const from = offset;
      offset = await this.turns.turn(() => {
        if (from === 0) this.tally.feed(piece);
        const taken = piece.copy(this.pending, this.filled, from);
        this.filled += taken;
        return Promise.resolve(from + taken);
      });
      if (this.filled === CHUNK_BYTES) await this.store();
    }
  }

  /** The file arrived whole: the last slice stored, the file judged (empty, a header alone, cut-off UTF-8). */
  async complete(): Promise<void> {
    this.tally.end();
    if (!this.tally.hasContent) throw invalidField(null, 'The file is empty: it needs a header and at least one row');
    if (this.tally.rows === 0) throw invalidField(null, 'The file has a header and no rows: it needs at least one row');
    if (this.filled > 0) await this.store();
    this.state = 'complete';
  }

  /**
   * Queues the import, if the store's caps allow, checked again under the queue's lock (two
   * uploads finishing together cannot both take the last place). Joins the caller's
   * transaction (the idempotency key's).
   */
  async enqueue(): Promise<Import> {
    if (this.state !== 'complete') throw new Error(`upload ${this.importId} is ${this.state}`);
    const queued = await this.uow.transaction(async (repos) => {
      await repos.imports.lockQueue(this.storeId);
      // Queued and running imports only: uploads under way (this one too) are not in the queue yet.
      const queue = await repos.imports.queueOf(this.storeId, '9999');
      if (queue.imports >= this.caps.maxImports) throw queueFull(this.caps, 'imports');
      if (queue.bytes + this.received > this.caps.maxBytes) throw queueFull(this.caps, 'bytes');
      return repos.imports.enqueue(this.importId, this.tally.rows);
    });
    this.state = 'queued';
    this.onQueued();
    return queued;
  }

  /**
   * Gives the upload up (refused, replayed, or its client went away): hidden at once, its
   * slices deleted in batches. Does nothing once queued (the import is the queue's then).
   */
  async discard(at: string, cleanup: (importId: number) => Promise<void>): Promise<void> {
    if (this.state === 'queued' || this.state === 'discarded') return;
    this.state = 'discarded';
    await this.uow.repos.imports.discard(this.importId, at);
    await cleanup(this.importId);
  }

  /** Writes the slice held, if the store's bytes cap allows it (looked at every MiB). */
  private async store(): Promise<void> {
    const data = this.pending.subarray(0, this.filled);
    if (this.seq % CAP_CHECK_EVERY === 0) {
      const queue = await this.uow.repos.imports.queueOf(this.storeId, this.uploadsSince);
      // `queue.bytes` holds this upload's slices stored so far.
      if (queue.bytes + CAP_CHECK_EVERY * CHUNK_BYTES > this.caps.maxBytes) throw queueFull(this.caps, 'bytes');
    }
    const seq = this.seq++;
    // Not waiting for the disk: the import is queued, and answered, by a commit that does, which
    // makes every slice before it durable too. A slice's commit waiting for the disk held the
    // event loop (SQLite) while other uploads' slices filled it.
    await this.uow.transaction((repos) => repos.importContents.appendChunk(this.importId, this.storeId, seq, data), { unsynced: true });
    // The driver is done with the slice once the insert returns: the buffer is filled again.
    this.filled = 0;
  }
}

/**
 * What the upload learns of the file while it passes: whether it is UTF-8 (a character cut
 * between two pieces is carried over), whether it has anything but white space and a BOM,
 * and its data rows (lines with something on them, less the header: exact unless a quoted
 * field spans lines). A line ends at LF, CRLF or a lone CR, as the CSV parser reads it.
 */
export class FileTally {
  private carry: Buffer | undefined;
  private atStart = true;
  private lineHasContent = false;
  private contentLines = 0;
  /** The last byte fed was a CR: an LF right after it ends no other line. */
  private afterCr = false;
  hasContent = false;

  get rows(): number {
    return Math.max(0, this.contentLines + (this.lineHasContent ? 1 : 0) - 1);
  }

  feed(piece: Buffer): void {
    const data = this.carry === undefined ? piece : Buffer.concat([this.carry, piece]);
    const whole = completeLength(data);
    this.carry = whole < data.length ? Buffer.from(data.subarray(whole)) : undefined;
    let text = data.subarray(0, whole);
    if (!isUtf8(text)) throw notUtf8();
    if (this.atStart && text.length > 0) {
      if (text.length >= 3 && text[0] === 0xef && text[1] === 0xbb && text[2] === 0xbf) text = text.subarray(3);
      this.atStart = false;
    }
    for (let index = 0; index < text.length; index++) {
      const byte = text[index]!;
      const afterCr = this.afterCr;
      this.afterCr = byte === 0x0d;
      if (byte === 0x0d || (byte === 0x0a && !afterCr)) {
        if (this.lineHasContent) this.contentLines += 1;
        this.lineHasContent = false;
      } else if (!this.lineHasContent && byte !== 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0b && byte !== 0x0c) {
        this.lineHasContent = true;
        this.hasContent = true;
      }
    }
  }

  /** The file ended: a multi-byte character left unfinished is not UTF-8. */
  end(): void {
    if (this.carry !== undefined) throw notUtf8();
  }
}

function notUtf8(): AppError {
  return validationFailed([{ field: null, message: 'The file is not valid UTF-8 text' }]);
}

/** `data`'s length less an unfinished multi-byte character at its end (UTF-8 lead byte, missing continuation bytes). */
function completeLength(data: Buffer): number {
  for (let back = 1; back <= Math.min(4, data.length); back++) {
    const byte = data[data.length - back]!;
    if ((byte & 0xc0) === 0x80) continue;
    const needed = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return needed > back ? data.length - back : data.length;
  }
  return data.length;
}

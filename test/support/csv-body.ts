/** Bytes of one piece a generated CSV body yields. */
const PIECE_BYTES = 64 * 1024;

/**
 * A CSV file generated as it is sent, never held whole: the header, then `row(0)`, `row(1)`, …
 * (each a line without its line end), in pieces of about 64 KiB, up to `bytes` bytes or
 * `rows` rows, whichever comes first. With `repeatAfter`, the pieces of the first that many
 * bytes of rows are kept and sent again and again instead of generating more (cheap enough
 * to send hundreds of MiB from the process under test without loading it). `beforePiece`, if
 * given, is awaited before each piece after the first (a test pauses an upload with it).
 */
export async function* csvBody(
  header: string,
  row: (index: number) => string,
  limits: { bytes: number; rows?: number; repeatAfter?: number },
  beforePiece?: (sent: number) => Promise<void>,
): AsyncGenerator<Buffer> {
  const first = `${header}\n`;
  let sent = Buffer.byteLength(first);
  yield Buffer.from(first);
  const rows = limits.rows ?? Number.POSITIVE_INFINITY;
  const kept: Buffer[] = [];
  let keptBytes = 0;
  for (let index = 0; index < rows;) {
    if (limits.repeatAfter !== undefined && keptBytes >= limits.repeatAfter) {
      for (let turn = 0; ; turn++) {
        const piece = kept[turn % kept.length]!;
        if (sent + piece.length > limits.bytes) return;
        await beforePiece?.(sent);
        sent += piece.length;
        yield piece;
      }
    }
    const lines: string[] = [];
    let size = 0;
    while (size < PIECE_BYTES && index < rows) {
      const line = `${row(index)}\n`;
      const length = Buffer.byteLength(line);
      if (sent + size + length > limits.bytes) break;
      lines.push(line);
      size += length;
      index += 1;
    }
    if (lines.length === 0) return;
    await beforePiece?.(sent);
    sent += size;
    const piece = Buffer.from(lines.join(''));
    if (limits.repeatAfter !== undefined) {
      kept.push(piece);
      keptBytes += piece.length;
    }
    yield piece;
  }
}

/** How many bytes `csvBody` yields for these arguments (it generates them, holding none). */
export async function csvBodyBytes(header: string, row: (index: number) => string, limits: { bytes: number; rows?: number }): Promise<number> {
  let total = 0;
  for await (const piece of csvBody(header, row, limits)) total += piece.length;
  return total;
}

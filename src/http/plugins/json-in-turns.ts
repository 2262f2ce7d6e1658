import { Readable } from 'node:stream';
import { nextTurn } from '../../modules/shared/long-work.js';

/**
 * Array items written per step: 250 price records take a millisecond or two. A bulk create's
 * 1000 products with their 10 000 variations (1.2 MB) in one step held the loop for 63 ms on a
 * slower 2-core machine: 250 of them make a quarter of it.
 */
const ITEMS_PER_TURN = 250;
/** Characters of an answer handed to the socket per turn: a TLS write encrypts what it is given in one call. */
const CHARACTERS_PER_WRITE = 256 * 1024;

/**
 * `JSON.stringify(value)` for plain data (what a service answers), written in steps of
 * ITEMS_PER_TURN array items with a turn of the event loop between them: a replace answers up to
 * 20 000 records (3 MiB), which Fastify's serializer wrote in one piece of 50 to 70 ms on a
 * 2-core machine. Objects and arrays are walked only for the arrays inside them; everything else
 * is `JSON.stringify`'s own text, so the pieces joined are byte for byte the same.
 */
export async function jsonPartsInTurns(value: unknown, parts: string[] = []): Promise<string[]> {
  if (Array.isArray(value)) {
    if (value.length <= ITEMS_PER_TURN) {
      parts.push(JSON.stringify(value));
      return parts;
    }
    parts.push('[');
    for (let start = 0; start < value.length; start += ITEMS_PER_TURN) {
      if (start > 0) parts.push(',');
      parts.push(JSON.stringify(value.slice(start, start + ITEMS_PER_TURN)).slice(1, -1));
      await nextTurn();
    }
    parts.push(']');
    return parts;
  }
  if (value === null || typeof value !== 'object' || typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    parts.push(JSON.stringify(value));
    return parts;
  }
  parts.push('{');
  let first = true;
  for (const [key, member] of Object.entries(value)) {
    if (member === undefined || typeof member === 'function' || typeof member === 'symbol') continue;
    parts.push(`${first ? '' : ','}${JSON.stringify(key)}:`);
    first = false;
    await jsonPartsInTurns(member, parts);
  }
  parts.push('}');
  return parts;
}

/** The same, as one text (an idempotency record keeps the answer whole). */
export async function jsonInTurns(value: unknown): Promise<string> {
  return (await jsonPartsInTurns(value)).join('');
}

/**
 * An answer's text as a stream handed to the socket CHARACTERS_PER_WRITE at a time, a turn of
 * the event loop between writes, with its `Content-Length`: one write of a 3 MiB answer (with
 * its TLS encryption, and the join that made it one text) held the loop 45 to 70 ms. The answer
 * is sent exactly as one write would send it, with the same headers.
 */
export function answerInTurns(parts: readonly string[]): { body: Readable; contentLength: number } {
  const contentLength = parts.reduce((sum, part) => sum + Buffer.byteLength(part, 'utf8'), 0);
  return { body: Readable.from(writesInTurns(parts), { objectMode: false }), contentLength };
}

async function* writesInTurns(parts: readonly string[]): AsyncGenerator<Buffer> {
  let pending: string[] = [];
  let size = 0;
  for (const part of parts) {
    for (const piece of slices(part)) {
      pending.push(piece);
      size += piece.length;
      if (size < CHARACTERS_PER_WRITE) continue;
      yield Buffer.from(pending.join(''), 'utf8');
      pending = [];
      size = 0;
      await nextTurn();
    }
  }
  if (pending.length > 0) yield Buffer.from(pending.join(''), 'utf8');
}

/** A text in pieces of at most CHARACTERS_PER_WRITE, never splitting a surrogate pair. */
function* slices(text: string): Generator<string> {
  for (let start = 0; start < text.length;) {
    let end = Math.min(start + CHARACTERS_PER_WRITE, text.length);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end -= 1;
    yield text.slice(start, end);
    start = end;
  }
}

import { describe, expect, it } from 'vitest';
import { answerInTurns, jsonInTurns, jsonPartsInTurns } from './json-in-turns.js';

const record = (id: number) => ({ id, customerId: 3, sku: `SKU-${id}`, price: 12.5, validFrom: null, note: undefined, createdAt: '2026-11-21T10:00:00.000Z' });

describe('jsonInTurns', () => {
  it.each([
    [
      'a replace answer of 2 × 2 500 records',
      {
        created: Array.from({ length: 2500 }, (_, index) => record(index)),
        deleted: Array.from({ length: 2500 }, (_, index) => record(index + 5000)),
        unchanged: 7,
      },
    ],
    ['an array of exactly 1000 and of 1001 items', [Array.from({ length: 1000 }, (_, index) => index), Array.from({ length: 1001 }, (_, index) => index)]],
    ['an array of exactly 250 and of 251 items', [Array.from({ length: 250 }, (_, index) => index), Array.from({ length: 251 }, (_, index) => index)]],
    [
      'a long array with holes, undefined and functions in it',
      Array.from({ length: 2001 }, (_, index) => (index % 3 === 0 ? undefined : index % 3 === 1 ? () => index : 'x')),
    ],
    ['empty containers, nulls, strings that need escapes', { a: [], b: {}, c: null, d: 'quote " and \\ and \u2028', e: [[], [{}]], f: undefined }],
    ['a plain number, string and null', 5],
    ['an object with toJSON', { when: new Date(0), list: Array.from({ length: 1500 }, () => new Date(0)) }],
  ])('writes %s exactly as JSON.stringify does', async (_name, value) => {
    expect(await jsonInTurns(value)).toBe(JSON.stringify(value));
  });

  it('lets a due timer run between the steps of a long array', async () => {
    let ticks = 0;
    const timer = setInterval(() => (ticks += 1), 0);
    try {
      const answer = await jsonInTurns(Array.from({ length: 50_000 }, (_, index) => record(index)));
      expect(answer.length).toBeGreaterThan(1_000_000);
    } finally {
      clearInterval(timer);
    }
    // Written in one piece, the answer would come before any tick (the interval is 1 ms): the
    // 200 steps take 10 to 40 ms, by the machine, and the timer runs between them.
    expect(ticks).toBeGreaterThan(2);
  });

  it('hands an answer to the socket in pieces that make the same bytes, with their length, never splitting a character', async () => {
    // Emoji (two UTF-16 units each) and multi-byte letters land across the 256 Ki-character pieces.
    const value = { created: Array.from({ length: 3000 }, (_, index) => ({ ...record(index), sku: `😀é-${index}-${'x'.repeat(index % 97)}` })), unchanged: 0 };
    const whole = JSON.stringify(value);
    const { body, contentLength } = answerInTurns(await jsonPartsInTurns(value));
    const chunks: Buffer[] = [];
    for await (const chunk of body) chunks.push(chunk as Buffer);
    expect(chunks.length).toBeGreaterThan(1);
    expect(Buffer.concat(chunks).equals(Buffer.from(whole, 'utf8'))).toBe(true);
    expect(contentLength).toBe(Buffer.byteLength(whole, 'utf8'));
    // One text given whole (an idempotent replay) is cut the same way.
    const replayed: Buffer[] = [];
    for await (const chunk of answerInTurns([whole]).body) replayed.push(chunk as Buffer);
    expect(Buffer.concat(replayed).toString('utf8')).toBe(whole);
  });
});

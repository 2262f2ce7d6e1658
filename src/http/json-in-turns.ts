import { nextTurn } from '../modules/yield-to-other-work.js';

/** Array items written per step: 1000 records take a few milliseconds. */
const ITEMS_PER_TURN = 1000;

/**
 * `JSON.stringify(value)` for plain data (what a service answers), written in steps of
 * ITEMS_PER_TURN array items with a turn of the event loop between them: a replace answers up to
 * 20 000 records (3 MiB), which Fastify's serializer wrote in one piece of 50 to 70 ms on a
 * 2-core machine. Objects and arrays are walked only for the arrays inside them; everything else
 * is `JSON.stringify`'s own text, so the result is byte for byte the same.
 */
export async function jsonInTurns(value: unknown): Promise<string> {
  if (Array.isArray(value)) {
    if (value.length <= ITEMS_PER_TURN) return JSON.stringify(value);
    const parts: string[] = [];
    for (let start = 0; start < value.length; start += ITEMS_PER_TURN) {
      parts.push(JSON.stringify(value.slice(start, start + ITEMS_PER_TURN)).slice(1, -1));
      await nextTurn();
    }
    return `[${parts.join(',')}]`;
  }
  if (value === null || typeof value !== 'object' || typeof (value as { toJSON?: unknown }).toJSON === 'function') return JSON.stringify(value);
  const members: string[] = [];
  for (const [key, member] of Object.entries(value)) {
    if (member === undefined || typeof member === 'function' || typeof member === 'symbol') continue;
    members.push(`${JSON.stringify(key)}:${await jsonInTurns(member)}`);
  }
  return `{${members.join(',')}}`;
}

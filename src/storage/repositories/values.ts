import { type RawBuilder, sql } from 'kysely';
import type { Engine } from '../engine.js';

/**
 * `column` contains `text`, the letters A–Z in either case and every other character exactly,
 * alike on both engines (`Engine.textIsCodePoints`).
 */
export function containsIgnoringAsciiCase(engine: Engine, column: string, text: string): RawBuilder<boolean> {
  const needle = text.replace(/[A-Z]/g, (letter) => letter.toLowerCase());
  return engine.textIsCodePoints
    ? sql<boolean>`instr(lower(${sql.ref(column)}), ${needle}) > 0`
    : sql<boolean>`strpos(translate(${sql.ref(column)}, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz'), ${needle}) > 0`;
}

/** `column` compared by code point on either engine (`Engine.textIsCodePoints`). */
export function byCodePoint(engine: Engine, column: string): RawBuilder<string> {
  return engine.textIsCodePoints ? sql<string>`${sql.ref(column)}` : sql<string>`${sql.ref(column)} collate "C"`;
}

/** Booleans are 0/1 on both engines. */
export function toFlag(value: boolean): number {
  return value ? 1 : 0;
}

export function fromFlag(value: number): boolean {
  return Number(value) === 1;
}

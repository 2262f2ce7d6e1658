import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { controlCharacterProblem, escapeControlCharacters, findControlCharacter } from './control-characters.js';

const isControl = (code: number) => code <= 0x1f || (code >= 0x7f && code <= 0x9f);

describe('control characters', () => {
  it('finds C0, DEL and C1, counting characters (not UTF-16 units) from 1, and nothing else', () => {
    expect(findControlCharacter('ab\u001bc')).toEqual({ codePoint: 0x1b, position: 3 });
    expect(findControlCharacter('😀\u009b')).toEqual({ codePoint: 0x9b, position: 2 });
    expect(findControlCharacter('\u0000')).toEqual({ codePoint: 0, position: 1 });
    for (let code = 0; code <= 0xff; code++) {
      expect(findControlCharacter(`x${String.fromCharCode(code)}`) !== undefined, `U+${code.toString(16)}`).toBe(isControl(code));
    }
    for (const text of ['', 'TEE-RED-M', 'A\u00a0B', 'A\u2028B', 'Crème', '\u202eevil', '𝕏']) expect(findControlCharacter(text)).toBeUndefined();
  });

  it('says the first one as a 422 message does', () => {
    expect(controlCharacterProblem('ab\u001b]0;x\u0007')).toBe('must not contain control characters (U+001B at position 3)');
    expect(controlCharacterProblem('\u009f')).toBe('must not contain control characters (U+009F at position 1)');
    expect(controlCharacterProblem('fine')).toBeUndefined();
  });

  it('writes them out for a terminal: \\xHH for C0 and DEL, \\u00HH for C1, everything else as it is', () => {
    expect(escapeControlCharacters('\u001b[31mRED\u001b[0m')).toBe('\\x1b[31mRED\\x1b[0m');
    expect(escapeControlCharacters('\u001b]0;owned\u0007')).toBe('\\x1b]0;owned\\x07');
    expect(escapeControlCharacters('a\tb\nc\rd\u007f\u0080\u009b')).toBe('a\\x09b\\x0ac\\x0dd\\x7f\\u0080\\u009b');
    expect(escapeControlCharacters('C:\\path é 😀 \u00a0')).toBe('C:\\path é 😀 \u00a0');
  });

  it('leaves no control character in what it writes, and nothing is lost: without backslashes in the text, the escapes read back to it', () => {
    const unescape = (text: string) =>
      text.replace(/\\x([0-9a-f]{2})|\\u([0-9a-f]{4})/g, (_escape, byte?: string, unit?: string) => String.fromCharCode(parseInt(byte ?? unit!, 16)));
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary', maxLength: 40 }).filter((text) => !text.includes('\\')),
        (text) => {
          const escaped = escapeControlCharacters(text);
          expect(findControlCharacter(escaped)).toBeUndefined();
          expect(unescape(escaped)).toBe(text);
        },
      ),
      { numRuns: 500 },
    );
  });
});

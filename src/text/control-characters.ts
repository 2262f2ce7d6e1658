/**
 * C0 (U+0000–U+001F, U+007F) and C1 (U+0080–U+009F) control characters: refused in what names
 * things (SKUs, names, titles, e-mail addresses) and escaped wherever the CLI prints stored
 * text, so no ESC colour code, OSC title change or BEL reaches a terminal.
 *
 * No imports, no Node or DOM APIs: the server, the CLI and the admin page can all load it.
 */

// eslint-disable-next-line no-control-regex -- control characters are what these look for
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
// eslint-disable-next-line no-control-regex -- as above
const CONTROLS = /[\u0000-\u001f\u007f-\u009f]/g;

export interface ControlCharacter {
  /** The character's code point, 0x00–0x1F or 0x7F–0x9F. */
  codePoint: number;
  /** Where it is, counting characters (code points) from 1. */
  position: number;
}

/** The first control character of `text`, if any. */
export function findControlCharacter(text: string): ControlCharacter | undefined {
  if (!CONTROL.test(text)) return undefined;
  let position = 0;
  for (const character of text) {
    position += 1;
    const codePoint = character.codePointAt(0)!;
    if (codePoint <= 0x1f || (codePoint >= 0x7f && codePoint <= 0x9f)) return { codePoint, position };
  }
  return undefined;
}

/** `U+001B`: a code point as Unicode writes it. */
export function codePointName(codePoint: number): string {
  return `U+${codePoint.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** The problem with `text`, as a field's 422 message says it: `must not contain control characters (U+001B at position 3)`. */
export function controlCharacterProblem(text: string): string | undefined {
  const found = findControlCharacter(text);
  return found === undefined ? undefined : `must not contain control characters (${codePointName(found.codePoint)} at position ${found.position})`;
}

/**
 * `text` with every control character written out visibly, for a terminal: C0 and DEL as
 * `\x1b`, `\x07`, `\x7f`, C1 as `\u009b`. Everything else, backslashes included, is left as it is.
 */
export function escapeControlCharacters(text: string): string {
  return text.replace(CONTROLS, (character) => {
    const code = character.charCodeAt(0);
    return code < 0x80 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}

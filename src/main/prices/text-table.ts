import { escapeControlCharacters } from '../../text/control-characters.js';

/**
 * Rows as a fixed-width table: each column as wide as its widest cell, two spaces between
 * columns, every line indented by `indent` and without trailing spaces. Cells hold stored text
 * (SKUs, e-mail addresses, the API's messages quoting them): their control characters are
 * written out (`\x1b`), so none reaches the terminal, and a tab or line break cannot bend the table.
 */
export function textTable(header: readonly string[], rows: ReadonlyArray<readonly string[]>, indent = ''): string {
  const visible = (cells: readonly string[]) => cells.map(escapeControlCharacters);
  const [titles, ...lines] = [visible(header), ...rows.map(visible)];
  const widths = titles!.map((title, column) => Math.max(title.length, ...lines.map((row) => (row[column] ?? '').length)));
  const line = (cells: readonly string[]) => `${indent}${cells.map((cell, column) => cell.padEnd(widths[column]!)).join('  ')}`.trimEnd();
  return [line(titles!), ...lines.map(line)].map((text) => `${text}\n`).join('');
}

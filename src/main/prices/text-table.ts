/**
 * Rows as a fixed-width table: each column as wide as its widest cell, two spaces between
 * columns, every line indented by `indent` and without trailing spaces.
 */
export function textTable(header: readonly string[], rows: ReadonlyArray<readonly string[]>, indent = ''): string {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)));
  const line = (cells: readonly string[]) => `${indent}${cells.map((cell, column) => cell.padEnd(widths[column]!)).join('  ')}`.trimEnd();
  return [line(header), ...rows.map(line)].map((text) => `${text}\n`).join('');
}

import { MAX_IMPORT_COLUMNS, MAX_IMPORT_ROW_BYTES } from '../contract/imports.js';
import { CsvProblem } from './csv-problem.js';

/**
 * Counts, ahead of the parser, the fields and bytes of the row being read, outside quotes (a
 * quote toggles; an escaped quote `""` toggles twice). For any file the parser accepts this is
 * its own reading; a file it refuses fails there anyway. Throws `CsvProblem` for a row wider
 * than `MAX_IMPORT_COLUMNS` fields or longer than `MAX_IMPORT_ROW_BYTES`.
 */
export class RowGuard {
  private inQuotes = false;
  private fields = 1;
  private bytes = 0;
  /** Line being read, and the line the current row started on. */
  line = 1;
  private rowLine = 1;

  check(slice: Buffer): void {
    for (let index = 0; index < slice.length; index++) {
      const byte = slice[index]!;
      this.bytes += 1;
      if (byte === 0x22) {
        this.inQuotes = !this.inQuotes;
      } else if (byte === 0x0a || byte === 0x0d) {
        if (byte === 0x0a) this.line += 1;
        if (!this.inQuotes) {
          this.fields = 1;
          this.bytes = 0;
          this.rowLine = this.line;
        }
      } else if (byte === 0x2c && !this.inQuotes && ++this.fields > MAX_IMPORT_COLUMNS) {
        throw new CsvProblem(
          this.rowLine,
          `has more than ${MAX_IMPORT_COLUMNS} fields: a file has at most ${MAX_IMPORT_COLUMNS} columns (a matrix at most ${MAX_IMPORT_COLUMNS - 1} customers); split it`,
        );
      }
      if (this.bytes > MAX_IMPORT_ROW_BYTES)
        throw new CsvProblem(this.rowLine, `is longer than ${MAX_IMPORT_ROW_BYTES / 2 ** 20} MiB: no row of a valid file is`);
    }
  }
}

import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Import, Pricebook } from '@pricebook/client';
import { MAX_IMPORT_BYTES } from '../../contract/imports.js';
import { readCsvFile } from '../../csv/read-csv-file.js';
import { findControlCharacter } from '../../text/control-characters.js';
import { escapeControlCharacters } from '../../text/control-characters.js';
import { type DelimiterName, readInputFile } from './input-file.js';
import { counted } from './plural.js';
import { ProgressReporter, type ProgressStream } from './progress-reporter.js';
import { FieldNames, rejectedRowsCsv, rejectedRowsPath } from './rejected-rows.js';

/** Problems printed on stderr; the rejected-rows file has them all (up to the API's 1000). */
export const PRINTED_PROBLEMS = 20;

export interface ImportCommandOptions {
  replace?: boolean;
  dryRun?: boolean;
  delimiter?: DelimiterName;
}

export interface CommandOutput {
  stdout: ProgressStream;
  stderr: ProgressStream;
}

/** Raised when the command ran and its outcome is a failure (exit 1); its message is the last line printed. */
export class CommandFailed extends Error {}

/**
 * `pricebook prices import FILE.csv [--replace] [--dry-run] [--delimiter D]`: checks the file
 * (src/main/prices/input-file.ts), uploads it as an import under an `Idempotency-Key` of its own
 * (a retried upload replays, never imports twice), follows it to its end on stderr, prints a
 * summary on stdout. A failed import prints its problems on stderr, writes the rows with
 * problems to `FILE.rejected.csv` and fails the command.
 */
export async function importPrices(client: Pricebook, file: string, options: ImportCommandOptions, output: CommandOutput): Promise<void> {
  const { bytes: csv, style } = readInputFile(file, options.delimiter);
  if (csv.length > MAX_IMPORT_BYTES) throw new CommandFailed(`${file} has ${csv.length} bytes; an import takes at most ${MAX_IMPORT_BYTES} (50 MiB): split it`);
  const mode = options.replace === true ? 'replace' : 'add';
  const dryRun = options.dryRun === true;
  // The file's own name goes with it (`fileName`), so the admin page's recent imports tell runs
  // apart; a name the API would refuse (a control character in it, or too long) is left out.
  const fileName = path.basename(file);
  const named = fileName !== '' && fileName.length <= 255 && findControlCharacter(fileName) === undefined;
  const queued = await client.imports.create(csv, { mode, dryRun, ...(named && { fileName }), idempotencyKey: `pricebook-cli-${randomUUID()}` });
  const progress = new ProgressReporter(output.stderr, `import ${queued.id}`);
  let ended: Import;
  try {
    ended = await client.imports.wait(queued.id, { onProgress: (current) => progress.update(phaseOf(current), current.processed, current.rows) });
    progress.finish();
  } finally {
    progress.stop();
  }
  const what = `import ${ended.id} (${mode}${dryRun ? ', dry run' : ''})`;
  if (ended.status === 'succeeded') {
    const { created, deleted, unchanged } = ended.result ?? { created: 0, deleted: 0, unchanged: 0 };
    const would = dryRun ? 'would be ' : '';
    output.stdout.write(
      `${what} succeeded: ${counted(ended.rows ?? 0, 'row')}; ${created} ${would}created, ${deleted} ${would}deleted, ${unchanged} unchanged${dryRun ? '; nothing changed' : ''}\n`,
    );
    return;
  }

  const rejectedFile = rejectedRowsPath(file);
  const { records } = await readCsvFile(csv);
  fs.writeFileSync(rejectedFile, rejectedRowsCsv(records, ended.errors, style));
  const names = new FieldNames(records[0]);
  const rows = new Set(ended.errors.map((problem) => problem.row)).size;
  // The problems quote the file's cells: their control characters are written out, never sent to the terminal.
  for (const problem of ended.errors.slice(0, PRINTED_PROBLEMS))
    output.stderr.write(`row ${problem.row}, ${escapeControlCharacters(names.problemText(problem))}\n`);
  if (ended.errorCount > PRINTED_PROBLEMS) output.stderr.write(`… and ${counted(ended.errorCount - PRINTED_PROBLEMS, 'more problem')}\n`);
  const some = ended.errorCount > ended.errors.length;
  const kept = some ? ` (the first ${ended.errors.length} of ${ended.errorCount} problems)` : '';
  output.stdout.write(
    `${what} failed: ${counted(ended.errorCount, 'problem')} in ${rows}${some ? '+' : ''} ${some || rows !== 1 ? 'rows' : 'row'}; nothing changed\n`,
  );
  throw new CommandFailed(`rejected rows written to ${rejectedFile}${kept}`);
}

function phaseOf(current: Import): string {
  if (current.status === 'running') return current.rows !== null && current.processed >= current.rows ? 'applying' : 'checking rows';
  return current.status;
}

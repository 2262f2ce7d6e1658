import fs from 'node:fs';

/** The file a command was given, read whole; an unreadable one fails the command with its name. */
export function readInputFile(file: string): Buffer {
  try {
    return fs.readFileSync(file);
  } catch (error) {
    throw new Error(`cannot read ${file}: ${(error as Error).message}`);
  }
}

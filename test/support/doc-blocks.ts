import fs from 'node:fs';
import path from 'node:path';

/** The repository's root, where README.md and docs/ are. */
export const REPOSITORY = path.resolve(import.meta.dirname, '../..');

export interface MarkedBlock {
  /** The marker's words after its name: `<!-- name words… -->`. */
  words: string[];
  /** The fenced block's text, without its fences. */
  text: string;
  /** The line of the opening fence, counted from 1 (for messages). */
  line: number;
}

/**
 * Every fenced block right after an HTML comment `<!-- name … -->` (invisible on a rendered page)
 * in the Markdown file `file` (relative to the repository), in the order of the file. A marker
 * not followed by a fenced block on the next line is an error, so a marker cannot silently
 * stop covering its block.
 */
export function markedBlocks(file: string, name: string): MarkedBlock[] {
  const lines = fs.readFileSync(path.join(REPOSITORY, file), 'utf8').split('\n');
  const blocks: MarkedBlock[] = [];
  const marker = new RegExp(`^<!-- ${name}((?: [^ ]+)*) -->$`);
  for (let index = 0; index < lines.length; index++) {
    const found = marker.exec(lines[index]!);
    if (found === null) continue;
    const fence = /^(```+)/.exec(lines[index + 1] ?? '');
    if (fence === null) throw new Error(`${file}:${index + 1}: the marker '${lines[index]!}' is not followed by a fenced block`);
    const end = lines.findIndex((candidate, at) => at > index + 1 && candidate === fence[1]);
    if (end === -1) throw new Error(`${file}:${index + 2}: the fenced block is not closed`);
    blocks.push({ words: found[1]!.trim() === '' ? [] : found[1]!.trim().split(' '), text: lines.slice(index + 2, end).join('\n'), line: index + 2 });
    index = end;
  }
  return blocks;
}

import fs from 'node:fs';
import path from 'node:path';
import { REPOSITORY, type MarkedBlock } from './doc-blocks.js';

/**
 * How the docs' walkthroughs are read (docs/ARCHITECTURE.md, "Docs that run"): the commands of
 * the blocks marked `<!-- walkthrough … -->`, their documented outputs, the runs they make (a
 * block marked `fresh` starts one of its own on a fresh demo store), and how an output is
 * written back from what a run printed (`PRICEBOOK_WRITE_DOCS=1`).
 */

/** Where a documented output is in its file: lines `start` to `end` (0-based, end excluded), as `# ` lines or as a block of its own. */
export interface OutputPlace {
  file: string;
  start: number;
  end: number;
  style: 'comment' | 'block';
}

export interface WalkthroughStep {
  /** The shell text of one command (continued lines and multi-line quotes included). */
  command: string;
  /** Its documented stdout, or undefined when the doc shows none (then only success counts). */
  output: string | undefined;
  shortened: boolean;
  /** The output's lines are the stdout's lines as they are: none continues the one before. */
  verbatim: boolean;
  /** Where the output is written (or, without one, where it would go: nowhere to write). */
  place: OutputPlace | undefined;
  /** Where it is, for messages: `README.md:123`. */
  where: string;
}

export interface WalkthroughRun {
  /** `README.md`, or `README.md from line 404` for a run a `fresh` block starts. */
  name: string;
  file: string;
  steps: WalkthroughStep[];
}

/** A longer output line is wrapped when written back, at the page width the docs keep. */
const PAGE_WIDTH = 100;

/** A command goes on while a line ends with `\` or a single quote is open. */
function isOpen(text: string): boolean {
  return text.endsWith('\\') || (text.match(/'/g) ?? []).length % 2 === 1;
}

/** An output line under a command: `# text`, or a bare `#` for an empty line. */
function isOutputLine(line: string | undefined): line is string {
  return line !== undefined && (line.startsWith('# ') || line === '#');
}

/**
 * The documented output's lines: `# ` taken off; a line that then starts with a space continues
 * the one before (a JSON answer wrapped to fit the page), so it is joined to it without its indent.
 */
export function joinOutput(lines: readonly string[]): string {
  const joined: string[] = [];
  for (const line of lines) {
    if (/^\s/.test(line) && joined.length > 0) joined[joined.length - 1] += line.trimStart();
    else joined.push(line);
  }
  return joined.join('\n');
}

function documentedOutput(lines: readonly string[], verbatim: boolean): string {
  return verbatim ? lines.join('\n') : joinOutput(lines);
}

/** The marked blocks' commands and their documented outputs, in the file's order. */
export function walkthroughSteps(file: string, blocks: readonly MarkedBlock[]): WalkthroughStep[] {
  const steps: WalkthroughStep[] = [];
  for (const block of blocks) {
    const shortened = block.words.includes('shortened');
    const verbatim = block.words.includes('verbatim');
    const lines = block.text.split('\n');
    if (block.words[0] === 'output') {
      const last = steps.at(-1);
      if (last === undefined || last.output !== undefined) throw new Error(`${file}:${block.line}: an output block follows no command without an output`);
      last.output = documentedOutput(lines, verbatim);
      last.shortened = shortened;
      last.verbatim = verbatim;
      last.place = { file, start: block.line, end: block.line + lines.length, style: 'block' };
      continue;
    }
    for (let index = 0; index < lines.length; index++) {
      const line = lines[index]!;
      if (line.trim() === '' || line.startsWith('#')) continue;
      let command = line;
      const start = index;
      while (isOpen(command) && index + 1 < lines.length) command += `\n${lines[++index]!}`;
      const output: string[] = [];
      const first = index + 1;
      while (isOutputLine(lines[index + 1])) output.push(lines[++index]!.slice(2));
      steps.push({
        command,
        output: output.length === 0 ? undefined : documentedOutput(output, verbatim),
        shortened,
        verbatim,
        place: output.length === 0 ? undefined : { file, start: block.line + first, end: block.line + index + 1, style: 'comment' },
        where: `${file}:${block.line + start + 1}`,
      });
    }
  }
  return steps;
}

/**
 * A file's walkthrough as runs: its marked blocks in order, on one store, but for each block
 * marked `fresh` (`<!-- walkthrough fresh -->`, with the output block after it), which runs on
 * a fresh demo store of its own; the blocks after it go on with the first run.
 */
export function walkthroughRuns(file: string, blocks: readonly MarkedBlock[]): WalkthroughRun[] {
  const main: MarkedBlock[] = [];
  const fresh: MarkedBlock[][] = [];
  let current = main;
  for (const block of blocks) {
    if (block.words[0] !== 'output') {
      current = block.words.includes('fresh') ? [] : main;
      if (current !== main) fresh.push(current);
    }
    current.push(block);
  }
  const runs = fresh.map((group) => ({ name: `${file} from line ${group[0]!.line}`, file, steps: walkthroughSteps(file, group) }));
  return main.length === 0 ? runs : [{ name: file, file, steps: walkthroughSteps(file, main) }, ...runs];
}

/** A documented output as a pattern: `"…"` any JSON string, a bare `…` anything (when the block says it shortens). */
export function outputPattern(documented: string, shortened: boolean): RegExp {
  const parts = documented.split(/("…"|…)/);
  const source = parts
    .map((part) => {
      if (part === '"…"') return '"(?:[^"\\\\]|\\\\.)*"';
      if (part === '…') {
        if (!shortened) throw new Error(`the output ${JSON.stringify(documented)} is shortened with … but its block is not marked shortened`);
        return '[\\s\\S]*?';
      }
      return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('');
  return new RegExp(`^${source}$`);
}

/** Places where a JSON line may break: after a `,` outside strings, before `"`, `{` or `[`. */
function breakPoints(line: string): number[] {
  const points: number[] = [];
  let inString = false;
  for (let at = 0; at < line.length; at++) {
    const character = line[at]!;
    if (inString) {
      if (character === '\\') at++;
      else if (character === '"') inString = false;
    } else if (character === '"') inString = true;
    else if (character === ',' && /["{[]/.test(line[at + 1] ?? '')) points.push(at + 1);
  }
  return points;
}

/** A line wrapped to `width`: the continuations start with a space, which `joinOutput` takes off again. */
export function wrapLine(line: string, width: number): string[] {
  const pieces: string[] = [];
  let start = 0;
  const points = breakPoints(line);
  while (line.length - start + (pieces.length > 0 ? 1 : 0) > width) {
    const room = width - (pieces.length > 0 ? 1 : 0);
    const fitting = points.filter((point) => point > start && point - start <= room);
    // Between two objects of an array reads best, unless that leaves the line short.
    const between = fitting.filter((point) => line[point] === '{' && point - start > room / 2);
    const cut = between.at(-1) ?? fitting.at(-1) ?? points.find((point) => point > start);
    if (cut === undefined) break;
    pieces.push((pieces.length > 0 ? ' ' : '') + line.slice(start, cut));
    start = cut;
  }
  pieces.push((pieces.length > 0 ? ' ' : '') + line.slice(start));
  return pieces;
}

/**
 * What a run printed, as the doc's lines for it: the values of the JSON keys the doc showed as
 * `"…"` (timestamps, tokens) shown so again, long lines wrapped (unless the output is verbatim),
 * and `# ` in front for an output under its command.
 */
export function writtenOutput(step: WalkthroughStep, printed: string): string[] {
  const hidden = new Set([...(step.output ?? '').matchAll(/"([^"]+)":"…"/g)].map((found) => found[1]!));
  const shown = printed.replace(/"([^"]+)":"(?:[^"\\]|\\.)*"/g, (whole, key: string) => (hidden.has(key) ? `"${key}":"…"` : whole));
  const prefix = step.place?.style === 'comment' ? '# ' : '';
  const width = PAGE_WIDTH - prefix.length;
  return shown
    .split('\n')
    .flatMap((line) => (step.verbatim ? [line] : wrapLine(line, width)))
    .map((line) => (prefix === '' ? line : line === '' ? '#' : `${prefix}${line}`));
}

export interface Rewrite {
  place: OutputPlace;
  lines: string[];
}

/** Writes outputs back into their files, last place first so the earlier places stay where they are. */
export function applyRewrites(rewrites: readonly Rewrite[]): void {
  const byFile = Map.groupBy(rewrites, (rewrite) => rewrite.place.file);
  for (const [file, own] of byFile) {
    const full = path.join(REPOSITORY, file);
    const lines = fs.readFileSync(full, 'utf8').split('\n');
    for (const { place, lines: written } of [...own].sort((a, b) => b.place.start - a.place.start))
      lines.splice(place.start, place.end - place.start, ...written);
    fs.writeFileSync(full, lines.join('\n'));
  }
}

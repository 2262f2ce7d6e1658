import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI } from '../support/cli-process.js';
import { CURL, toolAvailable } from '../support/external-tool.js';
import { markedBlocks, type MarkedBlock } from '../support/doc-blocks.js';
import { freePort } from '../support/free-port.js';

/**
 * The README's walkthrough, run as a reader runs it (docs/ARCHITECTURE.md, "Docs that run"):
 * `pricebook serve` on a fresh data directory with `PRICEBOOK_DEMO=1`, then every block marked
 * `<!-- walkthrough -->`, top to bottom, command by command, in one bash with the README's `API`,
 * `TOKEN` and `pb` alias; each command's stdout must be the output written under it (`# …`
 * lines, or the block marked `<!-- walkthrough output -->` that follows). In the README,
 * `https://localhost:8443` stands for the server's address and `pk_….sk_…` for the demo token;
 * in an output, `"…"` stands for any JSON string (a timestamp, a token) and a bare `…`, only in
 * a block marked `shortened` (`<!-- walkthrough shortened -->`), for any text left out.
 */
const README = 'README.md';
/** The files whose marked blocks run, each against a fresh demo store; the others start with the README's first block (`API`, `TOKEN`, `pb`). */
const DOCUMENTS = [README, 'docs/imports.md', 'docs/change-sets.md'];
const COMMAND_TIMEOUT_MS = 30_000;
const DOCUMENTED_ORIGIN = 'https://localhost:8443';
const DOCUMENTED_TOKEN = 'pk_….sk_…';

export interface WalkthroughStep {
  /** The shell text of one command (continued lines and multi-line quotes included). */
  command: string;
  /** Its documented stdout, or undefined when the README shows none (then only success counts). */
  output: string | undefined;
  shortened: boolean;
  /** Where it is, for messages: `README.md:123`. */
  where: string;
}

/** A command goes on while a line ends with `\` or a single quote is open. */
function isOpen(text: string): boolean {
  return text.endsWith('\\') || (text.match(/'/g) ?? []).length % 2 === 1;
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

/** The marked blocks' commands and their documented outputs, in the README's order. */
export function walkthroughSteps(file: string, blocks: readonly MarkedBlock[]): WalkthroughStep[] {
  const steps: WalkthroughStep[] = [];
  for (const block of blocks) {
    if (block.words[0] === 'output') {
      const last = steps.at(-1);
      if (last === undefined || last.output !== undefined) throw new Error(`${file}:${block.line}: an output block follows no command without an output`);
      last.output = joinOutput(block.text.split('\n'));
      last.shortened = block.words.includes('shortened');
      continue;
    }
    const shortened = block.words.includes('shortened');
    const lines = block.text.split('\n');
    for (let index = 0; index < lines.length; index++) {
      const line = lines[index]!;
      if (line.trim() === '' || line.startsWith('#')) continue;
      let command = line;
      const start = index;
      while (isOpen(command) && index + 1 < lines.length) command += `\n${lines[++index]!}`;
      const output: string[] = [];
      while (index + 1 < lines.length && lines[index + 1]!.startsWith('# ')) output.push(lines[++index]!.slice(2));
      steps.push({ command, output: output.length === 0 ? undefined : joinOutput(output), shortened, where: `${file}:${block.line + start + 1}` });
    }
  }
  return steps;
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

/** One bash, fed one command at a time (so an alias defined by one works in the next), its stdout read up to a marker. */
class Shell {
  private stdout = '';
  private stderr = '';
  private readonly child: ChildProcessWithoutNullStreams;

  constructor(cwd: string, env: NodeJS.ProcessEnv) {
    this.child = spawn('bash', ['--norc', '--noprofile'], { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stdout.on('data', (chunk: Buffer) => (this.stdout += chunk.toString('utf8')));
    this.child.stderr.on('data', (chunk: Buffer) => (this.stderr += chunk.toString('utf8')));
    this.child.stdin.write('shopt -s expand_aliases\n');
  }

  async run(command: string): Promise<{ stdout: string; stderr: string; status: number }> {
    this.stdout = '';
    this.stderr = '';
    this.child.stdin.write(`${command}\nprintf '\\n__walkthrough_done__ %d\\n' "$?"\n`);
    const deadline = Date.now() + COMMAND_TIMEOUT_MS;
    let done: RegExpExecArray | null = null;
    while ((done = /\n__walkthrough_done__ (\d+)\n$/.exec(this.stdout)) === null) {
      if (Date.now() > deadline || this.child.exitCode !== null) throw new Error(`no answer within ${COMMAND_TIMEOUT_MS} ms: ${this.stdout}${this.stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return { stdout: this.stdout.slice(0, done.index).replace(/\n$/, ''), stderr: this.stderr, status: Number(done[1]) };
  }

  close(): void {
    this.child.kill('SIGKILL');
  }
}

const curlAvailable = toolAvailable(CURL, 'the README walkthrough');

describe.skipIf(!curlAvailable).each(DOCUMENTS)('the walkthrough of %s, run against a fresh demo store', (file) => {
  const setup = file === README ? [] : walkthroughSteps(README, markedBlocks(README, 'walkthrough').slice(0, 1));
  const steps = [...setup, ...walkthroughSteps(file, markedBlocks(file, 'walkthrough'))];
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'pricebook-readme-'));
  let server: ChildProcessWithoutNullStreams | undefined;
  let shell: Shell | undefined;
  let origin = '';
  let token = '';

  beforeAll(async () => {
    const port = await freePort();
    origin = `https://localhost:${port}`;
    const env = { PATH: process.env.PATH, HOME: process.env.HOME, PRICEBOOK_DATA_DIR: path.join(directory, 'data'), PRICEBOOK_HOST: '127.0.0.1', PRICEBOOK_PORT: String(port), PRICEBOOK_HTTP_PORT: '0', PRICEBOOK_DEMO: '1' };
    server = spawn(process.execPath, [CLI, 'serve'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let output = '';
    server.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    const deadline = Date.now() + COMMAND_TIMEOUT_MS;
    while (!/curl .*Bearer pk_/.test(output) && Date.now() < deadline && server.exitCode === null) await new Promise((resolve) => setTimeout(resolve, 50));
    token = /^\s+(pk_[A-Za-z0-9_-]+\.sk_[A-Za-z0-9_-]+)\s*$/m.exec(output)?.[1] ?? '';
    expect(token, output).not.toBe('');
    // curl pinned to the server's address for localhost (which may also name ::1).
    fs.writeFileSync(path.join(directory, '.curlrc'), `resolve = "localhost:${port}:127.0.0.1"\nmax-time = 20\n`);
    shell = new Shell(directory, { PATH: process.env.PATH, HOME: directory, LC_ALL: 'C.UTF-8' });
  });

  afterAll(async () => {
    shell?.close();
    if (server !== undefined && server.exitCode === null) {
      const exited = new Promise((resolve) => server!.once('exit', resolve));
      server.kill('SIGTERM');
      const killer = setTimeout(() => server!.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(killer);
    }
    fs.rmSync(directory, { recursive: true, force: true });
  });

  it('has marked commands, and outputs that check something', () => {
    expect(steps.filter((step) => step.output !== undefined).length).toBeGreaterThan(file === README ? 10 : 0);
  });

  it('answers every documented command as the README says, in order', async () => {
    for (const step of steps) {
      const command = step.command.replaceAll(DOCUMENTED_ORIGIN, origin).replaceAll(DOCUMENTED_TOKEN, token);
      const result = await shell!.run(command);
      const what = `${step.where}: ${step.command}\nstderr: ${result.stderr}`;
      expect(result.status, what).toBe(0);
      if (step.output === undefined) continue;
      expect(result.stdout, what).toMatch(outputPattern(step.output, step.shortened));
    }
  });
});

describe('the walkthrough’s reading of outputs', () => {
  it('joins a wrapped answer (continuation lines start with a space) and keeps other lines apart', () => {
    expect(joinOutput(['{"a":1,', '  "b":[2,', '   3]}', 'second line'])).toBe('{"a":1,"b":[2,3]}\nsecond line');
  });

  it('reads "…" as any JSON string, and a bare … only where the block says it shortens', () => {
    const pattern = outputPattern('{"id":5,"createdAt":"…"}', false);
    expect('{"id":5,"createdAt":"2026-11-27T07:32:00.859Z"}').toMatch(pattern);
    expect('{"id":5,"createdAt":null}').not.toMatch(pattern);
    expect('{"id":6,"createdAt":"x"}').not.toMatch(pattern);
    expect('{"id":5,"createdAt":"x"} and more').not.toMatch(pattern);
    expect(() => outputPattern('[{"id":5}, …]', false)).toThrow(/not marked shortened/);
    expect('[{"id":5},{"id":6}]').toMatch(outputPattern('[{"id":5},…]', true));
  });

  it('takes a command’s continued lines and open quotes as one command, and the # lines under it as its output', () => {
    const steps = walkthroughSteps('example.md', [
      { words: [], line: 1, text: ["# a comment", "pb -X POST \"$API/x\" \\", "  -d '[1,", "  2]'", '# [1,', '#  2]', '', 'pb "$API/y"'].join('\n') },
      { words: ['output'], line: 10, text: '{"y":true}' },
    ]);
    expect(steps.map(({ command, output }) => ({ command, output }))).toEqual([
      { command: "pb -X POST \"$API/x\" \\\n  -d '[1,\n  2]'", output: '[1,2]' },
      { command: 'pb "$API/y"', output: '{"y":true}' },
    ]);
  });
});

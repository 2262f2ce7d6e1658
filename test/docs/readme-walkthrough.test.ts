import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI } from '../support/cli-process.js';
import { CURL, toolAvailable } from '../support/external-tool.js';
import { markedBlocks } from '../support/doc-blocks.js';
import { freePort } from '../support/free-port.js';
import {
  applyRewrites,
  joinOutput,
  outputPattern,
  type Rewrite,
  walkthroughRuns,
  walkthroughSteps,
  wrapLine,
  writtenOutput,
} from '../support/walkthrough-steps.js';

/**
 * The docs' walkthroughs, run as a reader runs them (docs/ARCHITECTURE.md, "Docs that run"):
 * `pricebook serve` on a fresh data directory with `PRICEBOOK_DEMO=1`, then every block marked
 * `<!-- walkthrough -->`, top to bottom, command by command, in one bash with the README's `API`,
 * `TOKEN` and `pb` alias; each command's stdout must be the output written under it (`# …`
 * lines, or the block marked `<!-- walkthrough output -->` that follows). A block marked
 * `fresh` starts a run of its own, on another fresh demo store. In the docs,
 * `https://localhost:8443` stands for the server's address, `pk_….sk_…` for the demo token and
 * `npx pricebook` for the built CLI; in an output, `"…"` stands for any JSON string (a
 * timestamp, a token) and a bare `…`, only in a block marked `shortened`
 * (`<!-- walkthrough shortened -->`), for any text left out. `PRICEBOOK_WRITE_DOCS=1` writes what
 * the run printed into the docs instead of failing on it (outputs that are not shortened).
 */
const README = 'README.md';
/** The files whose marked blocks run, each from a fresh demo store; the others start with the README's first block (`API`, `TOKEN`, `pb`). */
const DOCUMENTS = [README, 'docs/imports.md', 'docs/change-sets.md', 'docs/history.md'];
const COMMAND_TIMEOUT_MS = 30_000;
const DOCUMENTED_ORIGIN = 'https://localhost:8443';
const DOCUMENTED_TOKEN = 'pk_….sk_…';
const DOCUMENTED_CLI = /(^|[\s;&|(])npx pricebook(?= )/g;
const WRITE_DOCS = process.env.PRICEBOOK_WRITE_DOCS === '1';

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

const RUNS = DOCUMENTS.flatMap((file) => walkthroughRuns(file, markedBlocks(file, 'walkthrough')));

describe.skipIf(!curlAvailable).each(RUNS)('the walkthrough of $name, run against a fresh demo store', ({ name, file, steps: own }) => {
  const setup = name === README ? [] : walkthroughSteps(README, markedBlocks(README, 'walkthrough').slice(0, 1));
  const steps = [...setup, ...own];
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'pricebook-readme-'));
  let server: ChildProcessWithoutNullStreams | undefined;
  let shell: Shell | undefined;
  let origin = '';
  let token = '';

  beforeAll(async () => {
    const port = await freePort();
    origin = `https://localhost:${port}`;
    const env = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      PRICEBOOK_DATA_DIR: path.join(directory, 'data'),
      PRICEBOOK_HOST: '127.0.0.1',
      PRICEBOOK_PORT: String(port),
      PRICEBOOK_HTTP_PORT: '0',
      PRICEBOOK_DEMO: '1',
    };
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
    expect(steps.filter((step) => step.output !== undefined).length).toBeGreaterThan(name === README ? 10 : 0);
  });

  it(`answers every documented command as ${file} says, in order`, async () => {
    const cli = `"${process.execPath}" "${CLI}"`;
    const rewrites: Rewrite[] = [];
    for (const step of steps) {
      const command = step.command.replaceAll(DOCUMENTED_ORIGIN, origin).replaceAll(DOCUMENTED_TOKEN, token).replace(DOCUMENTED_CLI, `$1${cli}`);
      const result = await shell!.run(command);
      const what = `${step.where}: ${step.command}\nstderr: ${result.stderr}`;
      expect(result.status, what).toBe(0);
      if (step.output === undefined) continue;
      const printed = result.stdout.replaceAll(origin, DOCUMENTED_ORIGIN).replaceAll(token, DOCUMENTED_TOKEN);
      if (WRITE_DOCS && !step.shortened && step.place !== undefined && !outputPattern(step.output, false).test(printed)) {
        rewrites.push({ place: step.place, lines: writtenOutput(step, printed) });
        continue;
      }
      expect(printed, `${what}\n(PRICEBOOK_WRITE_DOCS=1 writes what the run printed; a shortened output is edited by hand)`).toMatch(
        outputPattern(step.output, step.shortened),
      );
    }
    applyRewrites(rewrites);
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
      { words: [], line: 1, text: ['# a comment', 'pb -X POST "$API/x" \\', "  -d '[1,", "  2]'", '# [1,', '#  2]', '', 'pb "$API/y"'].join('\n') },
      { words: ['output'], line: 10, text: '{"y":true}' },
    ]);
    expect(steps.map(({ command, output }) => ({ command, output }))).toEqual([
      { command: 'pb -X POST "$API/x" \\\n  -d \'[1,\n  2]\'', output: '[1,2]' },
      { command: 'pb "$API/y"', output: '{"y":true}' },
    ]);
  });

  it('runs a block marked fresh on a store of its own, and keeps a verbatim block’s lines apart', () => {
    const runs = walkthroughRuns('example.md', [
      { words: [], line: 1, text: 'pb "$API/a"\n# {"a":1}' },
      { words: ['fresh', 'verbatim'], line: 10, text: 'npx pricebook prices diff x.csv\n# customer 1:\n#   change\n#\n# 1 customer' },
      { words: [], line: 20, text: 'pb "$API/b"\n# {"b":1}' },
    ]);
    expect(runs.map(({ name, steps }) => ({ name, outputs: steps.map((step) => step.output) }))).toEqual([
      { name: 'example.md', outputs: ['{"a":1}', '{"b":1}'] },
      { name: 'example.md from line 10', outputs: ['customer 1:\n  change\n\n1 customer'] },
    ]);
    expect(runs[1]!.steps[0]!.place).toEqual({ file: 'example.md', start: 11, end: 15, style: 'comment' });
  });

  it('writes a printed output back wrapped to the page, with the values the doc hid hidden again', () => {
    const [step] = walkthroughSteps('example.md', [{ words: [], line: 1, text: 'pb "$API/a"\n# {"id":1,"createdAt":"…"}' }]);
    const printed = `[${Array.from({ length: 4 }, (_, id) => `{"id":${id},"sku":"A,B","createdAt":"2026-11-27T07:32:00.859Z"}`).join(',')}]`;
    const lines = writtenOutput(step!, printed);
    expect(lines.every((line) => line.length <= 100 && line.startsWith('# '))).toBe(true);
    expect(joinOutput(lines.map((line) => line.slice(2)))).toBe(printed.replaceAll('"2026-11-27T07:32:00.859Z"', '"…"'));
    expect(wrapLine('{"a":"x,\\"y","b":2}', 12)).toEqual(['{"a":"x,\\"y",', ' "b":2}']);
  });
});

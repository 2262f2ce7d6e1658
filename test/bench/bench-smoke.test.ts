import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { SCENARIO_LINE } from '../../bench/report.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const RUN = path.join(ROOT, 'dist/bench/bench/run.js');
const SCENARIOS = [
  'bulk create',
  'get one price',
  'list customer prices',
  'quote',
  'as of effective price',
  'replace',
  'import',
  'change set apply',
  'growth',
  'server peak rss',
];

/**
 * `npm run bench -- --smoke`, without the build, on SQLite: the same scenarios as the full run
 * on 4 000 records and one-second slices, about a minute. The figures are not judged here (other work may
 * share the machine); that it starts, runs every scenario and prints its lines is.
 */
function runQuickBench(): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const env = { ...process.env };
  delete env.DATABASE_URL;
  const child = spawn(process.execPath, [RUN, '--smoke'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  // The smoke profile stops itself after 3 minutes; this is the backstop.
  const timer = setTimeout(() => child.kill('SIGKILL'), 200_000);
  return new Promise((resolve) =>
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    }),
  );
}

describe('npm run bench -- --smoke', () => {
  beforeAll(() => {
    if (!fs.existsSync(path.join(ROOT, 'dist/main/cli.js'))) throw new Error('dist/main/cli.js is missing: run `npm run build` first (npm test does)');
    // tsc takes about 20 s alone; beside the fault suite's untimed group (CI runs them side by
    // side) it has taken over a minute.
    const compiled = spawnSync(process.execPath, [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'bench/tsconfig.json'], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 240_000,
    });
    if (compiled.error !== undefined) throw new Error(`compiling bench/ did not end: ${compiled.error.message}`);
    if (compiled.status !== 0) throw new Error(`compiling bench/ failed (exit ${compiled.status ?? compiled.signal}):\n${compiled.stdout}${compiled.stderr}`);
  }, 250_000);

  it('starts the server, loads it and prints one line per scenario in the format', async () => {
    const { code, stdout, stderr } = await runQuickBench();
    expect(code, stderr).toBe(0);
    const lines = stdout.split('\n').filter((line) => line !== '' && !line.startsWith('#'));
    expect(lines.map((line) => SCENARIO_LINE.exec(line)?.[1])).toEqual(SCENARIOS);
    for (const line of lines) {
      const [, , figure, , , ratio] = SCENARIO_LINE.exec(line) ?? [];
      expect(Number(figure), line).toBeGreaterThan(0);
      expect(Number(ratio), line).toBeGreaterThan(0);
    }
    expect(stdout).toMatch(/^# pricebook bench \(smoke\) on sqlite, .*node v\d+.*\d+ cores.*load average/m);
  }, 210_000);
});

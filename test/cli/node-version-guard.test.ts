import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The `pricebook` command's entry (`dist/main/pricebook.js`, package.json's `bin` and
 * `npm start`) on an unsupported Node.js: one line naming the versions, exit 1, and no crash of
 * the native SQLite addon (which on Node 20 ends the process with a bare "Segmentation fault").
 * The old Node is the system one when it is v20 (Debian's /usr/bin/node); without one the test is
 * skipped with a notice, and under CI=true that is a failure.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');
const ENTRY = path.join(ROOT, 'dist/main/pricebook.js');
const TIMEOUT_MS = 30_000;
const ENGINES = (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } }).engines.node;

/** A Node.js 20 binary at one of the usual system places, or undefined. */
function findNode20(): string | undefined {
  for (const candidate of ['/usr/bin/node', '/usr/local/bin/node']) {
    if (!fs.existsSync(candidate)) continue;
    const version = execFileSync(candidate, ['--version'], { encoding: 'utf8', timeout: TIMEOUT_MS }).trim();
    if (version.startsWith('v20.')) return candidate;
  }
  return undefined;
}

const node20 = findNode20();
if (node20 === undefined) {
  if (process.env.CI === 'true') throw new Error('no Node.js 20 binary (/usr/bin/node, /usr/local/bin/node): the version guard cannot be tested under CI');
  console.warn('node-version-guard: no Node.js 20 binary at /usr/bin/node or /usr/local/bin/node; its test is skipped');
}

describe('the pricebook entry checks the Node.js version first', () => {
  it('names the same versions as package.json engines', () => {
    expect(fs.readFileSync(path.join(ROOT, 'src/main/pricebook.ts'), 'utf8')).toContain(`const SUPPORTED_NODE = '${ENGINES}';`);
  });

  it.skipIf(node20 === undefined)('stops on Node.js 20 with one line on stderr and exit code 1', () => {
    for (const args of [['serve'], ['--help'], ['keys', 'list']]) {
      const run = spawnSync(node20!, [ENTRY, ...args], { encoding: 'utf8', timeout: TIMEOUT_MS, env: { PATH: process.env.PATH, HOME: process.env.HOME } });
      const version = execFileSync(node20!, ['--version'], { encoding: 'utf8' }).trim();
      expect(run.signal, 'no crash').toBeNull();
      expect(run.status).toBe(1);
      expect(run.stdout).toBe('');
      expect(run.stderr).toBe(
        `pricebook: Node.js ${version} is not supported: it needs Node.js ${ENGINES} (with nvm: \`nvm install\` in the pricebook folder installs the version in .nvmrc; or see https://nodejs.org/en/download)\n`,
      );
    }
  });

  it('runs the CLI on this Node.js', () => {
    const run = spawnSync(process.execPath, [ENTRY, '--help'], {
      encoding: 'utf8',
      timeout: TIMEOUT_MS,
      env: { PATH: process.env.PATH, HOME: process.env.HOME },
    });
    expect(run.signal).toBeNull();
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(/^Usage: pricebook /);
    expect(run.stdout).toContain('serve');
    expect(run.status).toBe(0);
  });

  it('is the bin and what npm start runs, and .nvmrc and .node-version name a supported line', () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { bin: Record<string, string>; scripts: Record<string, string> };
    expect(manifest.bin).toEqual({ pricebook: 'dist/main/pricebook.js' });
    expect(manifest.scripts.start).toMatch(/^node (--[a-z-]+=\d+ )*dist\/main\/pricebook\.js serve$/);
    for (const file of ['.nvmrc', '.node-version']) expect(fs.readFileSync(path.join(ROOT, file), 'utf8')).toBe('24\n');
  });
});

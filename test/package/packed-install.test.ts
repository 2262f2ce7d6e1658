import { type ChildProcess, execFile, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Agent, request as undiciRequest } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { markedBlocks } from '../support/doc-blocks.js';
import { freePort } from '../support/free-port.js';

/*
 * Both packages as a user gets them: `npm pack` of @pricebook/client and of the server, installed
 * into fresh projects outside the repository, offline (from the npm cache `npm ci` filled), then
 * used: a strict TypeScript example compiled against the installed client, and run against the
 * installed server's `pricebook serve`, and the README's first program, in both its forms, each
 * in a new `npm init -y` project set up as the README says. A vitest file rather than a step of CI's script, so that
 * `npm test` runs it too, with the same bounded child processes and temporary folders as the
 * other process suites.
 *
 * A fresh project has no lockfile, and `npm install --offline` can resolve a version range only
 * from registry metadata in the cache, which `npm ci` never fetches: the server's project gets a
 * package-lock.json that pins its dependencies to the repository's own lockfile (what `npm ci`
 * installed and the tests ran on). The client needs none: it has no dependency.
 *
 * better-sqlite3 ships prebuilt Node-API binaries (it compiles from source only where none fits:
 * then a minute or two on two cores), so installing takes about 10 s and the whole file about
 * 35 s here; every command still has a generous bound.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');
const TSC = path.join(ROOT, 'node_modules/typescript/bin/tsc');
const INSTALL_TIMEOUT_MS = 300_000;
const COMMAND_TIMEOUT_MS = 60_000;
const run = promisify(execFile);

interface PackedFile {
  path: string;
}
interface Packed {
  name: string;
  version: string;
  filename: string;
  files: PackedFile[];
}
interface LockEntry {
  dev?: boolean;
  devOptional?: boolean;
  link?: boolean;
  [key: string]: unknown;
}

let work: string;
let client: Packed;
let server: Packed;

/** `npm pack` of the package at `directory` (built already: `npm test` builds first) into `work/packs`. */
async function pack(directory: string): Promise<Packed> {
  const { stdout } = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', path.join(work, 'packs')], {
    cwd: directory,
    timeout: COMMAND_TIMEOUT_MS,
  });
  const [packed] = JSON.parse(stdout) as Packed[];
  if (packed === undefined) throw new Error(`npm pack printed no package: ${stdout}`);
  return packed;
}

function tarball(packed: Packed): string {
  return path.join(work, 'packs', packed.filename);
}

function sha512(file: string): string {
  return `sha512-${crypto.createHash('sha512').update(fs.readFileSync(file)).digest('base64')}`;
}

function project(name: string, dependencies: Record<string, string>, extra: Record<string, unknown> = {}): string {
  const directory = path.join(work, name);
  fs.mkdirSync(directory, { recursive: true });
  fs.writeFileSync(
    path.join(directory, 'package.json'),
    JSON.stringify({ name, version: '1.0.0', private: true, type: 'module', dependencies, ...extra }, null, 2),
  );
  return directory;
}

async function npmInstall(directory: string): Promise<void> {
  await run('npm', ['install', '--offline', '--no-audit', '--no-fund'], { cwd: directory, timeout: INSTALL_TIMEOUT_MS, maxBuffer: 16 * 1024 * 1024 });
}

/** The folders and files directly in `directory`, without npm's own bookkeeping. */
function listing(directory: string): string[] {
  return fs
    .readdirSync(directory)
    .filter((name) => name !== '.package-lock.json' && name !== '.bin')
    .sort();
}

/** Compiles the committed example with strict settings into `directory`/out. */
async function compileExample(directory: string): Promise<void> {
  fs.copyFileSync(path.join(ROOT, 'packages/client/examples/list-prices.ts'), path.join(directory, 'list-prices.ts'));
  const compilerOptions = {
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    target: 'ES2022',
    strict: true,
    noUncheckedIndexedAccess: true,
    types: ['node'],
    typeRoots: [path.join(ROOT, 'node_modules/@types')],
    outDir: 'out',
  };
  fs.writeFileSync(path.join(directory, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['list-prices.ts'] }));
  await run(process.execPath, [TSC, '-p', directory], { cwd: directory, timeout: COMMAND_TIMEOUT_MS });
}

/** The README's first program in the form `form` (its block's marker word). */
function firstProgram(form: 'module' | 'commonjs'): string {
  const block = markedBlocks('README.md', 'client-first-program').find((candidate) => candidate.words.includes(form));
  if (block === undefined) throw new Error(`README.md has no client-first-program block marked ${form}`);
  return block.text;
}

/**
 * A new project as the README makes one (`npm init -y`, which writes `"type": "commonjs"`; for
 * the ES module form `npm pkg set type=module`), the packed client installed into it, and the
 * README's program saved as `prices.js` there.
 */
async function firstProgramProject(form: 'module' | 'commonjs'): Promise<string> {
  const directory = path.join(work, `first-program-${form}`);
  fs.mkdirSync(directory);
  const npm = (args: string[]) => run('npm', args, { cwd: directory, timeout: INSTALL_TIMEOUT_MS });
  await npm(['init', '-y']);
  expect((JSON.parse(fs.readFileSync(path.join(directory, 'package.json'), 'utf8')) as { type?: string }).type).toBe('commonjs');
  if (form === 'module') await npm(['pkg', 'set', 'type=module']);
  await npm(['install', '--offline', '--no-audit', '--no-fund', tarball(client)]);
  fs.writeFileSync(path.join(directory, 'prices.js'), firstProgram(form));
  return directory;
}

beforeAll(async () => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'pricebook-packed-'));
  fs.mkdirSync(path.join(work, 'packs'));
  client = await pack(path.join(ROOT, 'packages/client'));
  server = await pack(ROOT);
}, COMMAND_TIMEOUT_MS * 2);

afterAll(() => {
  if (work !== undefined) fs.rmSync(work, { recursive: true, force: true });
});

describe('the packed client', () => {
  it('holds its built code, declarations, README, LICENSE and example: no sources, no tests', () => {
    expect(client.name).toBe('@pricebook/client');
    const files = client.files.map((file) => file.path);
    expect(files).toEqual(
      expect.arrayContaining([
        'package.json',
        'README.md',
        'LICENSE',
        'dist/index.js',
        'dist/index.d.ts',
        'dist/browser.js',
        'dist/browser.d.ts',
        'dist/api-types.d.ts',
        'examples/list-prices.ts',
      ]),
    );
    expect(files.filter((file) => !/^(package\.json|README\.md|LICENSE|dist\/[a-z-]+\.(js|d\.ts)|examples\/[a-z-]+\.ts)$/.test(file))).toEqual([]);
  });

  it(
    'installs offline into a fresh project bringing no dependency, and a strict TypeScript example compiles against it',
    async () => {
      const directory = project('client-only', { '@pricebook/client': `file:../packs/${client.filename}` });
      await npmInstall(directory);
      expect(listing(path.join(directory, 'node_modules'))).toEqual(['@pricebook']);
      expect(listing(path.join(directory, 'node_modules/@pricebook'))).toEqual(['client']);
      const lock = JSON.parse(fs.readFileSync(path.join(directory, 'package-lock.json'), 'utf8')) as { packages: Record<string, unknown> };
      expect(Object.keys(lock.packages).sort()).toEqual(['', 'node_modules/@pricebook/client']);
      // Its declarations stand alone: no TypeBox (nor anything else) installed beside them.
      await compileExample(directory);
      expect(fs.existsSync(path.join(directory, 'out/list-prices.js'))).toBe(true);
    },
    INSTALL_TIMEOUT_MS,
  );
});

describe('the packed server', () => {
  let directory: string;
  let child: ChildProcess | undefined;
  let output = '';

  afterAll(async () => {
    if (child === undefined || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child!.once('exit', resolve));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child!.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  });

  it('holds only what runs: the built server and admin page, README, LICENSE and docs', () => {
    expect(server.name).toBe('pricebook');
    const files = server.files.map((file) => file.path);
    expect(files).toEqual(
      expect.arrayContaining([
        'package.json',
        'README.md',
        'LICENSE',
        'dist/main/pricebook.js',
        'dist/main/cli.js',
        'dist/admin/index.html',
        'dist/admin/main.js',
        'dist/admin/client/browser.js',
      ]),
    );
    expect(files.some((file) => file.startsWith('dist/storage/migrations/'))).toBe(true);
    expect(
      files.filter(
        (file) => /^(src|test|bench|scripts|packages|\.ci|node_modules|data)\//.test(file) || (/\.(test\.js|ts|map)$/.test(file) && !file.endsWith('.d.ts')),
      ),
    ).toEqual([]);
    expect(files.filter((file) => file.startsWith('dist/bench/') || file.startsWith('dist/test/'))).toEqual([]);
  });

  it(
    'installs offline with the client beside it, starts, and the compiled example lists the demo store’s trade prices',
    async () => {
      const started = Date.now();
      directory = project(
        'app',
        { pricebook: `file:../packs/${server.filename}`, '@pricebook/client': `file:../packs/${client.filename}` },
        // npm runs no install script unless the project allows it: better-sqlite3 compiles its addon.
        { allowScripts: { 'better-sqlite3': true } },
      );
      const repositoryLock = JSON.parse(fs.readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockEntry> };
      const serverManifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as Record<string, unknown>;
      const packages: Record<string, unknown> = {
        '': {
          name: 'app',
          version: '1.0.0',
          dependencies: { pricebook: `file:../packs/${server.filename}`, '@pricebook/client': `file:../packs/${client.filename}` },
        },
      };
      for (const [key, entry] of Object.entries(repositoryLock.packages)) {
        if (key.startsWith('node_modules/') && entry.dev !== true && entry.devOptional !== true && entry.link !== true) packages[key] = entry;
      }
      packages['node_modules/pricebook'] = {
        version: server.version,
        resolved: `file:../packs/${server.filename}`,
        integrity: sha512(tarball(server)),
        license: 'MIT',
        dependencies: serverManifest.dependencies,
        bin: serverManifest.bin,
        engines: serverManifest.engines,
      };
      packages['node_modules/@pricebook/client'] = {
        version: client.version,
        resolved: `file:../packs/${client.filename}`,
        integrity: sha512(tarball(client)),
        license: 'MIT',
        engines: serverManifest.engines,
      };
      fs.writeFileSync(
        path.join(directory, 'package-lock.json'),
        JSON.stringify({ name: 'app', version: '1.0.0', lockfileVersion: 3, requires: true, packages }, null, 2),
      );
      await npmInstall(directory);
      const installMs = Date.now() - started;
      console.log(`packed-install: the server and the client installed offline in ${(installMs / 1000).toFixed(1)} s`);

      const installed = path.join(directory, 'node_modules/pricebook');
      expect(listing(installed)).toEqual(['LICENSE', 'README.md', 'dist', 'docs', 'package.json']);
      expect(fs.realpathSync(path.join(directory, 'node_modules/@pricebook/client'))).toBe(path.join(directory, 'node_modules/@pricebook/client'));
      await compileExample(directory);

      const port = await freePort();
      const dataDir = path.join(directory, 'data');
      const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', PRICEBOOK_DATA_DIR: dataDir };
      const bin = path.join(directory, 'node_modules/.bin/pricebook');
      child = spawn(bin, ['serve'], {
        cwd: directory,
        env: { ...env, PRICEBOOK_PORT: String(port), PRICEBOOK_HOST: '127.0.0.1', PRICEBOOK_HTTP_PORT: '0', PRICEBOOK_DEMO: '1' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
      child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
      const certFile = path.join(dataDir, 'tls-cert.pem');
      let healthy = false;
      for (let attempt = 0; attempt < 300 && !healthy && child.exitCode === null; attempt++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        if (!fs.existsSync(certFile)) continue;
        const dispatcher = new Agent({ connect: { ca: fs.readFileSync(certFile, 'utf8') } });
        try {
          const response = await undiciRequest(`https://127.0.0.1:${port}/healthz`, { dispatcher });
          await response.body.dump();
          healthy = response.statusCode === 200;
        } catch {
          // Not listening yet.
        } finally {
          await dispatcher.close();
        }
      }
      expect(healthy, `the installed server did not answer /healthz within 30 s:\n${output}`).toBe(true);

      const keys = await run(bin, ['keys', 'create', '--store', '1'], { cwd: directory, env, timeout: COMMAND_TIMEOUT_MS });
      const { token } = JSON.parse(keys.stdout) as { token: string };
      const example = await run(process.execPath, [path.join(directory, 'out/list-prices.js')], {
        cwd: directory,
        env: { ...env, PRICEBOOK_URL: `https://127.0.0.1:${port}`, PRICEBOOK_TOKEN: token, PRICEBOOK_CA: certFile },
        timeout: COMMAND_TIMEOUT_MS,
      });
      expect(example.stderr).toBe('');
      expect(example.stdout).toBe('Acme Trade Ltd: TEE-RED-M 6.50, TEE-BLUE-XL 7.75\nNorthwind Supplies: TEE-RED-M 6.80, GLOVE-NIT-100 5.90\n');

      // The README's first program, run with `node prices.js` as it says, in both forms.
      const programEnv = { ...env, PRICEBOOK_URL: `https://127.0.0.1:${port}`, PRICEBOOK_TOKEN: token, PRICEBOOK_CACERT: certFile };
      const asModule = await run(process.execPath, ['prices.js'], { cwd: await firstProgramProject('module'), env: programEnv, timeout: COMMAND_TIMEOUT_MS });
      expect(asModule.stderr).toBe('');
      // The dry run's diff, then the buyer's prices: TEE-RED-M's replaced, at the price toPrice rounded.
      expect(asModule.stdout).toMatch(/unchanged: 0/);
      expect(asModule.stdout.endsWith('TEE-BLUE-XL 1 7.75\nTEE-RED-M 1 7.645\nTEE-RED-M 50 5.95\n')).toBe(true);
      const asCommonJs = await run(process.execPath, ['prices.js'], {
        cwd: await firstProgramProject('commonjs'),
        env: programEnv,
        timeout: COMMAND_TIMEOUT_MS,
      });
      expect(asCommonJs.stderr).toBe('');
      expect(asCommonJs.stdout).toMatch(/^\d+ 1 6\.8\n\d+ 1 7\.645\n\d+ 50 5\.95\n$/);
      console.log(`packed-install: packed, installed, started and used in ${((Date.now() - started) / 1000).toFixed(1)} s after packing`);
    },
    INSTALL_TIMEOUT_MS + 6 * COMMAND_TIMEOUT_MS,
  );
});

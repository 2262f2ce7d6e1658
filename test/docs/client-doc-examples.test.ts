import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { markedBlocks, REPOSITORY } from '../support/doc-blocks.js';

/*
 * Every TypeScript block of docs/client.md is compiled with strict settings against the built
 * client package (`packages/client/dist`, as an installed package is found: by its name in
 * node_modules), so the page's imports, calls and types cannot drift from the package. Each block
 * follows a marker `<!-- client-example NAME… -->`: the NAMEs are what the block uses without
 * making (`pricebook`, `items`), declared for it from the table below. Each block is a module of
 * its own, of an ESM project (top-level `await`), with Node.js's and the DOM's types (the page
 * shows both entries).
 */
const PAGE = 'docs/client.md';
const TSC = path.join(REPOSITORY, 'node_modules/typescript/bin/tsc');
const run = promisify(execFile);

/** What a block may take as given: a name and its declaration. */
const GIVEN: Record<string, string> = {
  pricebook: "declare const pricebook: import('@pricebook/client').Pricebook;",
  items: "declare const items: import('@pricebook/client').TradePriceInput[];",
  token: 'declare const token: string;',
  controller: 'declare const controller: AbortController;',
  email: 'declare const email: string;',
  password: 'declare const password: string;',
};

const blocks = markedBlocks(PAGE, 'client-example');
let work: string;

beforeAll(() => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'pricebook-client-doc-'));
  fs.mkdirSync(path.join(work, 'node_modules/@pricebook'), { recursive: true });
  fs.symlinkSync(path.join(REPOSITORY, 'packages/client'), path.join(work, 'node_modules/@pricebook/client'), 'dir');
  fs.writeFileSync(path.join(work, 'package.json'), JSON.stringify({ name: 'client-doc-examples', private: true, type: 'module' }));
});

afterAll(() => {
  if (work !== undefined) fs.rmSync(work, { recursive: true, force: true });
});

describe(`the TypeScript blocks of ${PAGE}`, () => {
  it('are every one marked, so none is left out', () => {
    const typescriptFences = fs
      .readFileSync(path.join(REPOSITORY, PAGE), 'utf8')
      .split('\n')
      .filter((line) => line === '```ts').length;
    expect(blocks.length).toBeGreaterThan(5);
    expect(blocks).toHaveLength(typescriptFences);
    for (const block of blocks) expect(block.words.filter((word) => GIVEN[word] === undefined)).toEqual([]);
  });

  it('compile with strict settings against the built package', { timeout: 120_000 }, async () => {
    const files = blocks.map((block) => {
      const file = `line-${block.line}.ts`;
      const given = block.words.map((word) => `${GIVEN[word]!}\n`);
      // The block's own text starts on the same line in the file as in the page, after its fence (for messages).
      const padding = '\n'.repeat(Math.max(0, block.line - given.length));
      fs.writeFileSync(path.join(work, file), `${given.join('')}${padding}${block.text}\nexport {};\n`);
      return file;
    });
    const compilerOptions = {
      module: 'NodeNext',
      moduleResolution: 'NodeNext',
      target: 'ES2022',
      lib: ['ES2022', 'DOM'],
      strict: true,
      noUncheckedIndexedAccess: true,
      noEmit: true,
      types: ['node'],
      typeRoots: [path.join(REPOSITORY, 'node_modules/@types')],
    };
    fs.writeFileSync(path.join(work, 'tsconfig.json'), JSON.stringify({ compilerOptions, files }));
    const compiled = await run(process.execPath, [TSC, '-p', work, '--pretty', 'false'], { cwd: work, timeout: 100_000 }).then(
      () => '',
      (error: { stdout?: string; message: string }) => error.stdout || error.message,
    );
    // A message reads `line-31.ts(33,5): error …`: the page's line 33.
    expect(compiled.replaceAll(/line-\d+\.ts/g, PAGE)).toBe('');
  });
});

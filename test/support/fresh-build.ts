import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../..');
/** What the build reads. */
const INPUTS = [
  'src',
  'packages/client/src',
  'packages/client/package.json',
  'packages/client/tsconfig.json',
  'scripts',
  'package.json',
  'tsconfig.json',
  'tsconfig.build.json',
];
/** What it writes last of each part: the client package's, the server's compiled files, then the admin page's. */
const OUTPUTS = ['packages/client/dist/index.js', 'dist/main/cli.js', 'dist/admin/main.js', 'dist/admin/index.html'];

/** Newest modification time of a file, or of any file under a folder, in milliseconds. */
function newestChange(target: string): number {
  const stat = fs.statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of fs.readdirSync(target)) newest = Math.max(newest, newestChange(path.join(target, entry)));
  return newest;
}

function staleness(): string | undefined {
  const missing = OUTPUTS.find((output) => !fs.existsSync(path.join(ROOT, output)));
  if (missing !== undefined) return `${missing} is missing`;
  const built = Math.min(...OUTPUTS.map((output) => fs.statSync(path.join(ROOT, output)).mtimeMs));
  const changed = INPUTS.find((input) => newestChange(path.join(ROOT, input)) > built);
  return changed === undefined ? undefined : `${changed} changed since the last build`;
}

let checked = false;

/**
 * Global setup of `npm test` (run once however many projects the run has): the suites that run
 * the built CLI as a process (`dist/`) test the sources as they are, so dist/ is built again
 * first when a source is newer than it, or when it is missing. A fresh build is left alone.
 */
export default function setup(): void {
  if (checked) return;
  checked = true;
  const reason = staleness();
  if (reason === undefined) return;
  process.stdout.write(`Building dist/ first (${reason}): npm run build\n`);
  const build = spawnSync('npm', ['run', 'build'], { cwd: ROOT, encoding: 'utf8', timeout: 180_000 });
  // tsc writes the JavaScript even when it reports type errors (`npm run typecheck` judges those).
  if (build.status !== 0 && staleness() !== undefined) throw new Error(`npm run build failed:\n${build.stdout}${build.stderr}`);
}

// The admin page (src/admin) for the browser: its TypeScript compiled into dist/admin, then its
// static files (HTML, CSS) copied beside it. Run by `npm run build` after the server's build.
// The page imports the contract's types (never its code); only the page's own files are written.
import fs from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import ts from 'typescript';

const root = path.resolve(import.meta.dirname, '..');
const source = path.join(root, 'src', 'admin');
const target = path.join(root, 'dist', 'admin');
const STATIC = ['.html', '.css', '.svg', '.png'];

const host = { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (diagnostic) => fail([diagnostic]) };
const config = ts.getParsedCommandLineOfConfigFile(path.join(source, 'tsconfig.json'), { noEmit: false }, host);
if (config === undefined || config.errors.length > 0) fail(config?.errors ?? []);
const program = ts.createProgram(config.fileNames, config.options);
const diagnostics = ts.getPreEmitDiagnostics(program);
if (diagnostics.length > 0) fail(diagnostics);

fs.rmSync(target, { recursive: true, force: true });
const written = [];
const emitted = program.emit(undefined, (fileName, text) => {
  const file = path.resolve(fileName);
  if (!file.startsWith(target + path.sep)) return;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  written.push(file);
});
if (emitted.diagnostics.length > 0) fail(emitted.diagnostics);
for (const name of fs.readdirSync(source)) {
  if (STATIC.includes(path.extname(name))) fs.copyFileSync(path.join(source, name), path.join(target, name));
}
process.stdout.write(`admin page: ${written.length} scripts and its static files in ${path.relative(root, target)}\n`);

function fail(problems) {
  const formatHost = { getCanonicalFileName: (name) => name, getCurrentDirectory: () => root, getNewLine: () => '\n' };
  process.stderr.write(ts.formatDiagnosticsWithColorAndContext(problems, formatHost));
  process.exit(1);
}

// The admin page (src/admin) for the browser: its TypeScript compiled into dist/admin, then its
// static files (HTML, CSS) copied beside it. Run by `npm run build` after the server's build.
// The page imports the contract's types, and of its code only the error codes and the event
// topics (src/contract/error-codes.ts and event-topics.ts, which import nothing). The only code
// it loads from outside src/admin is those files, src/text/, src/csv/ and the client package
// (@pricebook/client/browser, from packages/client/src/: src/admin/tsconfig.json maps the name
// there): modules the server and the CLI use too (the error codes and topics, the CSV cell
// rules, the CSV writer and the files it writes, the typed client), compiled into
// dist/admin/contract/, dist/admin/text/, dist/admin/csv/ and dist/admin/client/, the page's
// imports of them pointed there. Only the files the page imports are compiled, and those must
// use no Node API and no other package (src/csv/'s reader and the client's HTTPS transport do:
// the page never imports them). An import of any other code, or of another package, fails the
// build: the browser could not load it.
import fs from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import ts from 'typescript';

const root = path.resolve(import.meta.dirname, '..');
const source = path.join(root, 'src', 'admin');
const target = path.join(root, 'dist', 'admin');
/** Folders outside src/admin whose modules the page may load, served under dist/admin/<name>. */
const shared = [
  [path.join(root, 'src', 'text'), path.join(target, 'text')],
  [path.join(root, 'src', 'csv'), path.join(target, 'csv')],
  [path.join(root, 'packages', 'client', 'src'), path.join(target, 'client')],
];
/** Single files outside those folders that the page may load (the rest of src/contract/ imports TypeBox). */
const sharedFiles = ['error-codes', 'event-topics'].map((name) => [
  path.join(root, 'src', 'contract', `${name}.ts`),
  path.join(target, 'contract', `${name}.js`),
]);
/** The packages the page may import, by name: the source file each name stands for. */
const PACKAGES = new Map([['@pricebook/client/browser', path.join(root, 'packages', 'client', 'src', 'browser.ts')]]);
const STATIC = ['.html', '.css', '.svg', '.png'];

const host = { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (diagnostic) => fail([diagnostic]) };
const config = ts.getParsedCommandLineOfConfigFile(path.join(source, 'tsconfig.json'), { noEmit: false }, host);
if (config === undefined || config.errors.length > 0) fail(config?.errors ?? []);
const program = ts.createProgram(config.fileNames, config.options);
const diagnostics = ts.getPreEmitDiagnostics(program);
if (diagnostics.length > 0) fail(diagnostics);

const scripts = new Map();
const unloadable = [];
const emitted = program.emit(
  undefined,
  (fileName, text, _bom, _onError, sourceFiles) => {
    const file = sourceFiles?.length === 1 ? servedPath(sourceFiles[0].fileName) : undefined;
    if (file !== undefined && fileName.endsWith('.js')) scripts.set(file, text);
  },
  undefined,
  false,
  { after: [pointImportsAtServedFiles] },
);
if (emitted.diagnostics.length > 0) fail(emitted.diagnostics);
if (unloadable.length > 0) {
  process.stderr.write(
    `admin page: imports code the browser cannot load (only src/admin, src/contract/error-codes.ts and event-topics.ts, src/text, src/csv and @pricebook/client/browser are served, no other package):\n${unloadable.map((line) => `  ${line}\n`).join('')}`,
  );
  process.exit(1);
}

fs.rmSync(target, { recursive: true, force: true });
for (const [file, text] of scripts) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
}
for (const name of fs.readdirSync(source)) {
  if (STATIC.includes(path.extname(name))) fs.copyFileSync(path.join(source, name), path.join(target, name));
}
process.stdout.write(`admin page: ${scripts.size} scripts and its static files in ${path.relative(root, target)}\n`);

/** Where the compiled `file` (a .ts source) is served from, or undefined when it is not. */
function servedPath(file) {
  const resolved = path.resolve(file);
  const single = sharedFiles.find(([source]) => source === resolved);
  if (single !== undefined) return single[1];
  const within = (directory) => resolved.startsWith(directory + path.sep);
  const base = within(source) ? [source, target] : shared.find(([directory]) => within(directory));
  if (base === undefined || !resolved.endsWith('.ts') || resolved.endsWith('.d.ts')) return undefined;
  return path.join(base[1], path.relative(base[0], resolved)).replace(/\.ts$/, '.js');
}

/** Rewrites each relative import of a compiled module to the served path of what it imports (the emitted JS: type imports are gone). */
function pointImportsAtServedFiles(context) {
  const { factory } = context;
  return (sourceFile) => {
    const from = servedPath(sourceFile.fileName);
    if (from === undefined) return sourceFile;
    const pointed = (specifier) => {
      if (!ts.isStringLiteral(specifier)) return specifier;
      const named = PACKAGES.get(specifier.text);
      if (named === undefined && !specifier.text.startsWith('.')) {
        unloadable.push(`${path.relative(root, sourceFile.fileName)} imports the package ${specifier.text}`);
        return specifier;
      }
      const imported = named ?? path.resolve(path.dirname(sourceFile.fileName), specifier.text).replace(/\.js$/, '.ts');
      const to = servedPath(imported);
      if (to === undefined) {
        unloadable.push(`${path.relative(root, sourceFile.fileName)} imports ${specifier.text}`);
        return specifier;
      }
      const relative = path.relative(path.dirname(from), to).split(path.sep).join('/');
      return factory.createStringLiteral(relative.startsWith('.') ? relative : `./${relative}`, true);
    };
    const statements = sourceFile.statements.map((statement) => {
      if (ts.isImportDeclaration(statement)) {
        return factory.updateImportDeclaration(
          statement,
          statement.modifiers,
          statement.importClause,
          pointed(statement.moduleSpecifier),
          statement.attributes,
        );
      }
      if (ts.isExportDeclaration(statement) && statement.moduleSpecifier !== undefined) {
        return factory.updateExportDeclaration(
          statement,
          statement.modifiers,
          statement.isTypeOnly,
          statement.exportClause,
          pointed(statement.moduleSpecifier),
          statement.attributes,
        );
      }
      return statement;
    });
    return factory.updateSourceFile(sourceFile, statements);
  };
}

function fail(problems) {
  const formatHost = { getCanonicalFileName: (name) => name, getCurrentDirectory: () => root, getNewLine: () => '\n' };
  process.stderr.write(ts.formatDiagnosticsWithColorAndContext(problems, formatHost));
  process.exit(1);
}

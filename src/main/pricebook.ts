#!/usr/bin/env node
/*
 * The `pricebook` command (package.json's `bin`, and `npm start`): it checks the running Node.js
 * before anything loads, then loads the real CLI (./cli.js). On an unsupported Node the native
 * SQLite addon would crash the process with nothing but "Segmentation fault"; here it stops with
 * one line saying what is needed instead. So this file imports nothing statically (an ESM import
 * runs before the module's own code) and keeps to syntax old Node versions parse: no `?.`, no
 * `??`, no class fields.
 */

/** package.json's `engines.node` (a test checks the two agree). */
const SUPPORTED_NODE = '^22.12.0 || >=24.0.0';

/** Whether a `process.versions.node` string ("22.12.0") is in SUPPORTED_NODE. */
function isSupportedNode(version: string): boolean {
  const parts = version.split('.').map(function (part) {
    return parseInt(part, 10);
  });
  const major = parts[0] || 0;
  const minor = parts[1] || 0;
  return (major === 22 && minor >= 12) || major >= 24;
}

/** The one line printed on an unsupported Node. */
function unsupportedNodeMessage(version: string): string {
  return (
    'pricebook: Node.js v' +
    version +
    ' is not supported: it needs Node.js ' +
    SUPPORTED_NODE +
    ' (with nvm: `nvm install` in the pricebook folder installs the version in .nvmrc; or see https://nodejs.org/en/download)\n'
  );
}

if (!isSupportedNode(process.versions.node)) {
  process.stderr.write(unsupportedNodeMessage(process.versions.node));
  process.exit(1);
}
// V8's compiled code of the modules kept on disk (the system's temporary directory) for the
// next start: a command starts about a sixth sooner. Where it cannot be written, nothing changes.
const nodeModule = await import('node:module');
if (typeof nodeModule.enableCompileCache === 'function') nodeModule.enableCompileCache();
await import('./cli.js');

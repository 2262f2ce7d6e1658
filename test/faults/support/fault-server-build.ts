import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const TSCONFIG = path.join(import.meta.dirname, 'fault-server.tsconfig.json');
/** Where the compiled entry point and the sources it imports go: never dist/, which is what ships. */
export const FAULT_SERVER_OUT = path.join(ROOT, 'node_modules/.cache/pricebook-fault-server');

let built: Promise<string> | undefined;

/**
 * Compiles the test-only entry point `fault-server.ts` (with the sources it imports) into
 * `FAULT_SERVER_OUT`, once per test process (incrementally: a few seconds when nothing
 * changed), and answers the path of its script for `node`.
 */
export function buildFaultServer(): Promise<string> {
  built ??= (async () => {
    try {
      await promisify(execFile)(process.execPath, [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', TSCONFIG], { cwd: ROOT });
    } catch (error) {
      const { stdout, stderr } = error as { stdout?: string; stderr?: string };
      throw new Error(`compiling ${path.relative(ROOT, TSCONFIG)} failed:\n${stdout ?? ''}${stderr ?? ''}`);
    }
    // Under node_modules/, Node looks no further up for the package's "type": say it here.
    fs.writeFileSync(path.join(FAULT_SERVER_OUT, 'package.json'), '{ "type": "module", "private": true }\n');
    return path.join(FAULT_SERVER_OUT, 'test/faults/support/fault-server.js');
  })();
  return built;
}

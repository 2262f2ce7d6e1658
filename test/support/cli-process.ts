import { spawn } from 'node:child_process';
import path from 'node:path';
import { SCRIPT, toolAvailable } from './external-tool.js';

/**
 * The built `pricebook` command (package.json's `bin`, which `npm run build` makes): the entry a
 * user runs, which checks the Node.js version and keeps V8's compiled code for the next start.
 */
export const CLI = path.resolve(import.meta.dirname, '../../dist/main/pricebook.js');

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/**
 * Runs the built CLI as a user runs it: a process of its own with only PATH, HOME and `env`,
 * stdin closed, its output collected. The child is killed if it overstays `timeoutMs`.
 */
export function runCli(args: string[], env: Record<string, string>, timeoutMs = 60_000): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const child = spawn(process.execPath, [CLI, ...args], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, ms: Date.now() - started });
    });
  });
}

/**
 * Whether util-linux `script` is there to give a command a pseudo-terminal. Under CI=true a
 * missing one is a failure, not a skip (as a missing Chromium is).
 */
export function scriptAvailable(): boolean {
  return toolAvailable(SCRIPT, 'the CLI at a terminal');
}

/**
 * Runs the built CLI with a pseudo-terminal as its stdout (through `script`), as a person's shell
 * runs it; its stderr goes nowhere. What the terminal got comes back with the terminal's CRLF
 * line ends turned back into LF.
 */
export function runCliAtTerminal(args: string[], env: Record<string, string>, timeoutMs = 60_000): Promise<CliRun> {
  const quoted = [process.execPath, CLI, ...args].map((word) => `'${word.replaceAll("'", "'\\''")}'`).join(' ');
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const child = spawn('script', ['-qfec', `${quoted} 2>/dev/null`, '/dev/null'], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout: stdout.replaceAll('\r\n', '\n'), stderr, ms: Date.now() - started });
    });
  });
}

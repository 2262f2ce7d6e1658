import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import net from 'node:net';
import path from 'node:path';
import type { LoadResult, LoadSpec } from './load-spec.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');
/** The built server, as an operator runs it. */
export const CLI = path.join(ROOT, 'dist/main/pricebook.js');
const HERE = import.meta.dirname;

/** A child process that is killed when the bench stops, however it stops. */
const children = new Set<ChildProcess>();
export function killChildren(): void {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}

/** Output kept of each child, for error messages: the server logs a line per request at `info`. */
const KEPT_OUTPUT = 64 * 1024;

function track(child: ChildProcess): { output: () => string; exited: Promise<number | null> } {
  children.add(child);
  let output = '';
  const keep = (chunk: Buffer) => {
    output += chunk.toString('utf8');
    if (output.length > 2 * KEPT_OUTPUT) output = output.slice(-KEPT_OUTPUT);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      children.delete(child);
      resolve(code);
    }),
  );
  return { output: () => output, exited };
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject).listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

export interface TlsFiles {
  certFile: string;
  keyFile: string;
  cert: string;
}

export interface ServerProcess {
  pid: number;
  baseUrl: string;
  get(urlPath: string, token: string): Promise<{ status: number; body: string }>;
  /** A POST with a body, JSON unless told otherwise. */
  post(urlPath: string, token: string, payload: string, contentType?: string): Promise<{ status: number; body: string }>;
  /** Peak resident set size so far, in bytes (VmHWM), or undefined off Linux. */
  peakRss(): number | undefined;
  /** Waits (at most 15 s) until the server is idle: background work of one slice must not weigh on the next. */
  settle(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The node flags of `npm start` (package.json's `start` script: `node FLAGS dist/main/pricebook.js
 * serve`): the bench runs the server with them, as an operator who follows the README does.
 */
export function startScriptNodeFlags(): string[] {
  const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts?: { start?: string } };
  const words = (manifest.scripts?.start ?? '').split(/\s+/).filter((word) => word !== '');
  const cli = words.indexOf('dist/main/pricebook.js');
  if (words[0] !== 'node' || cli < 1 || words[cli + 1] !== 'serve')
    throw new Error(`package.json's start script is not 'node [flags] dist/main/pricebook.js serve': '${words.join(' ')}'`);
  return words.slice(1, cli);
}

/** `node dist/main/cli.js serve` with `npm start`'s node flags, on a free port; waits (at most 60 s) for /healthz. */
export async function startServer(env: Record<string, string>, tls: TlsFiles, extraNodeArgs: readonly string[] = []): Promise<ServerProcess> {
  if (!fs.existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` first`);
  const port = await freePort();
  const child = spawn(process.execPath, [...startScriptNodeFlags(), ...extraNodeArgs, CLI, 'serve'], {
    env: {
      PATH: process.env.PATH ?? '',
      PRICEBOOK_PORT: String(port),
      PRICEBOOK_HOST: '127.0.0.1',
      PRICEBOOK_HTTP_PORT: '0',
      PRICEBOOK_DEMO: '0',
      // The default, as operators run it: one log line per request.
      PRICEBOOK_LOG_LEVEL: 'info',
      // The bench measures the server, not the limiter refusing it.
      PRICEBOOK_RATE_LIMIT_BUCKET: '100000000',
      PRICEBOOK_RATE_LIMIT_LEAK: '100000000',
      PRICEBOOK_TLS_CERT: tls.certFile,
      PRICEBOOK_TLS_KEY: tls.keyFile,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const { output, exited } = track(child);
  const agent = new https.Agent({ ca: tls.cert, servername: 'localhost', keepAlive: true });
  const send = (method: 'GET' | 'POST', urlPath: string, token: string, payload?: string, contentType = 'application/json', retried = false) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const headers: Record<string, string> = { authorization: `Bearer ${token}`, ...(payload !== undefined && { 'content-type': contentType }) };
      const request = https.request({ method, host: '127.0.0.1', port, path: urlPath, agent, headers, timeout: 10_000 }, (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      });
      request.on('timeout', () => request.destroy(new Error('timed out')));
      request.on('error', (error: NodeJS.ErrnoException) => {
        // A kept-alive connection the server closed after its 5 s idle timeout, while this
        // process was too busy (seeding SQLite synchronously) to drop it first: the request
        // never reached the server, so it goes again, once, on a new connection (as Node's
        // documentation advises for `reusedSocket`).
        if (request.reusedSocket && error.code === 'ECONNRESET' && !retried) resolve(send(method, urlPath, token, payload, contentType, true));
        else reject(error);
      });
      request.end(payload);
    });
  const get = (urlPath: string, token: string) => send('GET', urlPath, token);
  const server: ServerProcess = {
    pid: child.pid ?? 0,
    baseUrl: `https://127.0.0.1:${port}`,
    get,
    post: (urlPath, token, payload, contentType) => send('POST', urlPath, token, payload, contentType),
    peakRss: () => readPeakRss(child.pid ?? 0),
    settle: () => settle(child.pid ?? 0),
    stop: async () => {
      agent.destroy();
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}:\n${output()}`);
    if ((await get('/healthz', '').catch(() => ({ status: 0 }))).status === 200) return server;
    if (Date.now() > deadline) {
      await server.stop();
      throw new Error(`the server did not answer /healthz within 60 s:\n${output()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** CPU time a process has used, in milliseconds, or undefined off Linux. */
function cpuMilliseconds(pid: number): number | undefined {
  try {
    // Fields after the command name; utime and stime are the 12th and 13th, in clock ticks (10 ms).
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return undefined;
  }
}

/** Idle: at most 20 ms of CPU in 200 ms. */
async function settle(pid: number): Promise<void> {
  const deadline = Date.now() + 15_000;
  let before = cpuMilliseconds(pid);
  while (before !== undefined && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    const now = cpuMilliseconds(pid);
    if (now === undefined || now - before <= 20) return;
    before = now;
  }
}

/** VmHWM of a process, in bytes. */
function readPeakRss(pid: number): number | undefined {
  try {
    const match = /^VmHWM:\s+(\d+) kB$/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** The bare Fastify ceiling server (bare-server.ts) in its own process. */
export async function startBareServer(specFile: string): Promise<{ baseUrl: string; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, [path.join(HERE, 'bare-server.js'), specFile], { stdio: ['ignore', 'pipe', 'pipe'] });
  const { output, exited } = track(child);
  const deadline = Date.now() + 30_000;
  let port: string | undefined;
  while ((port = /listening (\d+)/.exec(output())?.[1]) === undefined) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the bare server did not start:\n${output()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    baseUrl: `https://127.0.0.1:${port}`,
    stop: async () => {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Runs load.ts in its own process; it ends within the spec's seconds (plus a margin, then it is killed). */
export async function runLoad(spec: LoadSpec, specFile: string): Promise<LoadResult> {
  fs.writeFileSync(specFile, JSON.stringify(spec));
  const child = spawn(process.execPath, [path.join(HERE, 'load.js'), specFile], { stdio: ['ignore', 'pipe', 'pipe'] });
  const { output, exited } = track(child);
  const timer = setTimeout(() => child.kill('SIGKILL'), (spec.warmupSeconds + spec.seconds + 30) * 1000);
  const code = await exited;
  clearTimeout(timer);
  const line = output()
    .split('\n')
    .find((text) => text.startsWith('{'));
  if (code !== 0 || line === undefined) throw new Error(`the load process failed (exit ${code}):\n${output()}`);
  return JSON.parse(line) as LoadResult;
}

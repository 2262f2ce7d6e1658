import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { AGENT_KEEP_ALIVE } from './agent-keep-alive.js';
import { Agent, request as undiciRequest } from 'undici';
import { generateSelfSigned } from '../../src/app/tls.js';
import { CLI } from './cli-process.js';
import { freePort } from './free-port.js';
import type { HttpResponse, RequestOptions } from './test-server.js';

/** The built CLI (`npm run build`), run as an operator runs it. */
export { CLI };

/** A TLS pair in PEM files, shared by the instances of one test file, and its folder's remover. */
export async function tlsFiles(): Promise<{ dir: string; certFile: string; keyFile: string; cert: string; remove: () => void }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pricebook-instances-'));
  const pair = await generateSelfSigned();
  const certFile = path.join(dir, 'cert.pem');
  const keyFile = path.join(dir, 'key.pem');
  fs.writeFileSync(certFile, pair.cert);
  fs.writeFileSync(keyFile, pair.key, { mode: 0o600 });
  return { dir, certFile, keyFile, cert: pair.cert, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/** One `pricebook serve` process on a port of its own. */
export interface Instance {
  name: string;
  port: number;
  request(method: string, urlPath: string, options?: RequestOptions): Promise<HttpResponse>;
  /** Everything it printed so far (pino JSON lines). */
  output(): string;
  /** SIGTERM (graceful stop), SIGKILL after 10 s. */
  stop(): Promise<void>;
  /** SIGKILL: the process dies at once, whatever it was doing (crash tests). */
  kill(): Promise<void>;
}

export interface InstanceOptions {
  name: string;
  env: Record<string, string>;
  tls: { certFile: string; keyFile: string; cert: string };
  /** Most connections the client keeps open to it; default 100. */
  connections?: number;
  /**
   * The script and its arguments run with `node`, configured by the same environment;
   * default the built CLI's `serve` (the fault suite's controls run a test-only entry point).
   */
  command?: readonly string[];
}

/** Starts `node dist/main/pricebook.js serve` and waits (at most 30 s) until its /healthz answers 200. */
export async function startInstance(options: InstanceOptions): Promise<Instance> {
  const command = options.command ?? [CLI, 'serve'];
  if (!fs.existsSync(command[0]!)) throw new Error(`${command[0]} is missing: run \`npm run build\` first (npm test does)`);
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, command, {
    env: {
      PATH: process.env.PATH ?? '',
      PRICEBOOK_PORT: String(port),
      PRICEBOOK_HOST: '127.0.0.1',
      PRICEBOOK_HTTP_PORT: '0',
      PRICEBOOK_DEMO: '0',
      PRICEBOOK_LOG_LEVEL: 'warn',
      PRICEBOOK_TLS_CERT: options.tls.certFile,
      PRICEBOOK_TLS_KEY: options.tls.keyFile,
      PRICEBOOK_DATA_DIR: path.join(path.dirname(options.tls.certFile), `data-${options.name}`),
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const agent = new Agent({ connect: { ca: options.tls.cert, servername: 'localhost' }, connections: options.connections ?? 100, ...AGENT_KEEP_ALIVE });
  const baseUrl = `https://127.0.0.1:${port}`;
  const request = async (method: string, urlPath: string, requestOptions: RequestOptions = {}): Promise<HttpResponse> => {
    const headers: Record<string, string | string[]> = { ...requestOptions.headers };
    if (requestOptions.token !== undefined) headers.authorization = `Bearer ${requestOptions.token}`;
    const raw = requestOptions.rawBody;
    let payload: string | Buffer | Readable | undefined =
      typeof raw === 'string' || Buffer.isBuffer(raw) || raw === undefined ? raw : Readable.from(raw, { objectMode: false });
    if (payload === undefined && requestOptions.body !== undefined) {
      payload = JSON.stringify(requestOptions.body);
      headers['content-type'] ??= 'application/json';
    }
    const response = await undiciRequest(`${baseUrl}${urlPath}`, { method: method as 'GET', headers, body: payload, dispatcher: agent });
    const text = await response.body.text();
    let body: unknown;
    try {
      body = text === '' ? undefined : JSON.parse(text);
    } catch {
      body = undefined;
    }
    return { status: response.statusCode, headers: response.headers, body, text };
  };

  const stop = async () => {
    await agent.close();
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  };

  const kill = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await exited;
    }
    await agent.destroy();
  };

  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`instance ${options.name} exited with ${child.exitCode}:\n${output}`);
    try {
      if ((await request('GET', '/healthz')).status === 200) break;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`instance ${options.name} did not answer /healthz within 30 s:\n${output}`);
    }
    // A refused connection costs next to nothing; the crash checks start a process 50 times a run.
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return { name: options.name, port, request, output: () => output, stop, kill };
}

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Agent, request as undiciRequest } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI } from '../support/cli-process.js';
import { markedBlocks } from '../support/doc-blocks.js';
import { SCRIPT, toolAvailable } from '../support/external-tool.js';
import { freePort } from '../support/free-port.js';

/**
 * `pricebook serve` as a person starts it at a terminal (a pseudo-terminal from `script`) and as
 * a service manager does (stdout a pipe): readable lines and a banner with the addresses in the
 * first case, JSON lines exactly as before in the second. SQLite only: what is checked happens
 * before the database. Every child is killed if it overstays.
 */
const START_TIMEOUT_MS = 30_000;
const dataDirs: string[] = [];

function freshEnv(port: number): NodeJS.ProcessEnv {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pricebook-terminal-'));
  dataDirs.push(dataDir);
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    PRICEBOOK_DATA_DIR: dataDir,
    PRICEBOOK_HOST: '127.0.0.1',
    PRICEBOOK_PORT: String(port),
    PRICEBOOK_HTTP_PORT: '0',
    PRICEBOOK_LOG_LEVEL: 'info',
  };
}

interface Running {
  output(): string;
  waitFor(pattern: RegExp): Promise<void>;
  stop(): Promise<void>;
}

/** Runs `command` with `args`, collecting stdout; `waitFor` polls it until a pattern shows (bounded). */
function start(command: string, args: string[], env: NodeJS.ProcessEnv): Running {
  const child = spawn(command, args, { env, stdio: ['pipe', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  return {
    output: () => output.replaceAll('\r\n', '\n'),
    async waitFor(pattern) {
      const deadline = Date.now() + START_TIMEOUT_MS;
      while (!pattern.test(output.replaceAll('\r\n', '\n')) && Date.now() < deadline && child.exitCode === null)
        await new Promise((resolve) => setTimeout(resolve, 50));
      expect(output.replaceAll('\r\n', '\n')).toMatch(pattern);
    },
    async stop() {
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(killer);
    },
  };
}

async function getHealth(port: number, dataDir: string): Promise<number> {
  const agent = new Agent({ connect: { ca: fs.readFileSync(path.join(dataDir, 'tls-cert.pem')), servername: 'localhost' } });
  try {
    const response = await undiciRequest(`https://127.0.0.1:${port}/healthz`, { dispatcher: agent });
    await response.body.text();
    return response.statusCode;
  } finally {
    await agent.close();
  }
}

// Escape sequences of colours, so the text can be matched as the person reads it.
// eslint-disable-next-line no-control-regex
const stripColours = (text: string) => text.replace(/\u001b\[[0-9;]*m/g, '');

afterAll(() => {
  for (const dataDir of dataDirs) fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('pricebook serve at a terminal and into a pipe', () => {
  it('at a terminal prints readable log lines, one a request, and a banner with the https addresses of the API, /docs and /admin', async ({ skip }) => {
    skip(!toolAvailable(SCRIPT, 'serve at a terminal'), 'script is not installed');
    const port = await freePort();
    // Started where a reader starts it: the data directory is the default, ./data.
    const { PRICEBOOK_DATA_DIR: home, ...env } = freshEnv(port);
    const served = start('sh', ['-c', `cd '${home!}' && exec script -qfec "'${process.execPath}' '${CLI}' serve" /dev/null`], env);
    env.PRICEBOOK_DATA_DIR = path.join(home!, 'data');
    try {
      await served.waitFor(/curl .*Bearer pk_[^\n]*\n/);
      expect(await getHealth(port, env.PRICEBOOK_DATA_DIR!)).toBe(200);
      await served.waitFor(/GET \/healthz 200 /);
      const text = stripColours(served.output());
      expect(text).toContain(
        [
          'Pricebook is running:',
          '',
          `  API          https://localhost:${port}/v1`,
          `  Reference    https://localhost:${port}/docs`,
          `  Admin page   https://localhost:${port}/admin`,
        ].join('\n'),
      );
      // The first start at a terminal makes the demo store and prints its token (README, Quick start).
      expect(text).toMatch(/Demo store 1 created/);
      expect(text).toMatch(new RegExp(`curl .*'https://localhost:${port}/v1/customers'`));
      // pino-pretty's lines: a time, the level, the message; no JSON object anywhere.
      expect(text).toMatch(new RegExp(`^\\[\\d\\d:\\d\\d:\\d\\d\\.\\d{3}\\] INFO: Server listening at https://127\\.0\\.0\\.1:${port}$`, 'm'));
      expect(text).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: GET \/healthz 200 [\d.]+ ms from 127\.0\.0\.1 \{"reqId":"[0-9a-f-]{36}"\}$/m);
      expect(text).not.toMatch(/^\{"level"/m);
      // What the README's Quick start shows is what was printed: the token, the port and the directory aside.
      const [documented] = markedBlocks('README.md', 'first-start');
      const token = /Bearer (pk_[A-Za-z0-9_-]+\.sk_[A-Za-z0-9_-]+)/.exec(text)![1]!;
      // The admin page's one-time password (docs/staff.md): 20 characters of base64url, shown as ……
      const password = /^ {2}owner@demo\.example {2}([A-Za-z0-9_-]{20})$/m.exec(text)![1]!;
      const printed = text.slice(text.indexOf('Pricebook is running:'), text.indexOf("/v1/customers'") + "/v1/customers'".length);
      expect(printed.replaceAll(token, 'pk_….sk_…').replaceAll(password, '……').replaceAll(`:${port}`, ':8443').replaceAll(home!, '/home/you/pricebook')).toBe(
        documented!.text,
      );
      expect(text).not.toMatch(/http:\/\//);
    } finally {
      await served.stop();
    }
  });

  it('pricebook worker at a terminal logs readable lines too', async ({ skip }) => {
    skip(!toolAvailable(SCRIPT, 'worker at a terminal'), 'script is not installed');
    const env = freshEnv(await freePort());
    const worker = start('script', ['-qfec', `'${process.execPath}' '${CLI}' worker`, '/dev/null'], env);
    try {
      await worker.waitFor(/webhook delivery worker started/);
      expect(stripColours(worker.output())).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: webhook delivery worker started \{"database":"sqlite /m);
    } finally {
      await worker.stop();
    }
  });

  it('into a pipe logs JSON lines as before (the listening line naming https), and prints no banner', async () => {
    const port = await freePort();
    const env = freshEnv(port);
    const served = start(process.execPath, [CLI, 'serve'], env);
    try {
      await served.waitFor(/"msg":"listening"/);
      expect(await getHealth(port, env.PRICEBOOK_DATA_DIR!)).toBe(200);
      await served.waitFor(/"path":"\/healthz"/);
      const lines = served
        .output()
        .split('\n')
        .filter((line) => line !== '');
      const parsed = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(parsed.map((line) => line.msg)).toContain(`Server listening at https://127.0.0.1:${port}`);
      expect(parsed.find((line) => line.msg === 'request')).toMatchObject({
        level: 30,
        method: 'GET',
        path: '/healthz',
        status: 200,
        reqId: expect.any(String),
      });
      expect(served.output()).not.toMatch(/Pricebook is running|pk_/);
    } finally {
      await served.stop();
    }
  });
});

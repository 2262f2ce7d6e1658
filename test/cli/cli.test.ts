import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Agent, request as undiciRequest } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCOPES } from '../../src/modules/stores/scopes.js';
import { basic } from '../support/conventions.js';
import { CLI } from '../support/cli-process.js';
import { createPostgresDatabase, enginesUnderTest, type EngineName } from '../support/engines.js';
import { CURL, SCRIPT, toolAvailable } from '../support/external-tool.js';
import { connectTls, parseHttpResponse, rawPlainExchange, readUntilClosed } from '../support/raw-http.js';
import { freePort } from '../support/free-port.js';

/**
 * The built CLI (`dist/main/pricebook.js`, which `npm test` builds first), run as a user runs it:
 * contract §2. Every child process is bounded by a timeout and killed if it overstays.
 */
const COMMAND_TIMEOUT_MS = 30_000;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Only what the CLI needs from the environment: no PRICEBOOK_* or DATABASE_URL of the caller. */
function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, HOME: process.env.HOME, ...extra };
}

function runCli(args: string[], env: Record<string, string>): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: cleanEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), COMMAND_TIMEOUT_MS);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** The single JSON object a one-shot command prints. */
function onlyJsonObject(run: Run): Record<string, unknown> {
  expect(run.code, run.stderr).toBe(0);
  const lines = run.stdout.split('\n').filter((line) => line !== '');
  expect(lines, run.stdout).toHaveLength(1);
  const value = JSON.parse(lines[0]!) as unknown;
  expect(typeof value === 'object' && value !== null && !Array.isArray(value)).toBe(true);
  return value as Record<string, unknown>;
}

interface Served {
  child: ChildProcess;
  port: number;
  httpPort: number;
  output(): string;
  /** SIGTERM; the exit code and how long the process took to exit (killed after 15 s). */
  terminate(): Promise<{ code: number | null; signal: NodeJS.Signals | null; ms: number }>;
}

/** `pricebook serve` on free ports of 127.0.0.1, once its 'listening' log line is out. */
async function startServe(env: Record<string, string>): Promise<Served> {
  const port = await freePort();
  const httpPort = await freePort();
  const child = spawn(process.execPath, [CLI, 'serve'], {
    env: cleanEnv({ PRICEBOOK_HOST: '127.0.0.1', PRICEBOOK_PORT: String(port), PRICEBOOK_HTTP_PORT: String(httpPort), ...env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let errors = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr!.on('data', (chunk: Buffer) => (errors += chunk.toString('utf8')));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );

  const deadline = Date.now() + COMMAND_TIMEOUT_MS;
  let listening: Record<string, unknown> | undefined;
  while (listening === undefined) {
    if (Date.now() > deadline || child.exitCode !== null) {
      child.kill('SIGKILL');
      throw new Error(`serve did not start:\n${output}\n${errors}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
    listening = jsonLines(output).find((line) => line.msg === 'listening');
  }
  expect(listening).toMatchObject({ port, httpPort, host: '127.0.0.1' });

  return {
    child,
    port,
    httpPort,
    output: () => output,
    async terminate() {
      const started = Date.now();
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      const result = await exited;
      clearTimeout(killer);
      return { ...result, ms: Date.now() - started };
    },
  };
}

function jsonLines(text: string): Array<Record<string, unknown>> {
  return text.split('\n').flatMap((line) => {
    if (!line.startsWith('{')) return [];
    try {
      return [JSON.parse(line) as Record<string, unknown>];
    } catch {
      return [];
    }
  });
}

async function httpsGet(served: Served, ca: string, urlPath: string, authorization?: string, init: { method?: string; body?: string } = {}) {
  const agent = new Agent({ connect: { ca, servername: 'localhost' } });
  try {
    const headers: Record<string, string> = authorization === undefined ? {} : { authorization };
    if (init.body !== undefined) headers['content-type'] = 'application/json';
    const response = await undiciRequest(`https://127.0.0.1:${served.port}${urlPath}`, {
      method: (init.method ?? 'GET') as 'GET',
      headers,
      body: init.body,
      dispatcher: agent,
    });
    const text = await response.body.text();
    return { status: response.statusCode, body: text === '' ? undefined : (JSON.parse(text) as unknown) };
  } finally {
    await agent.close();
  }
}

beforeAll(() => {
  if (!fs.existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` first (\`npm test\` does)`);
});

const ENGINES = await enginesUnderTest();
/** Checks of what no engine takes part in run on this one. */
const FIRST_ENGINE = ENGINES[0];

describe.each(ENGINES)('pricebook CLI on %s', (engine: EngineName) => {
  const cleanups: Array<() => Promise<void> | void> = [];

  /** A fresh, empty data dir (and PostgreSQL database) as CLI environment. */
  async function emptyEnvironment(): Promise<Record<string, string>> {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pricebook-cli-'));
    cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    const env: Record<string, string> = { PRICEBOOK_DATA_DIR: dataDir, PRICEBOOK_LOG_LEVEL: 'info' };
    if (engine === 'postgres') {
      const database = await createPostgresDatabase();
      cleanups.push(() => database.drop());
      env.DATABASE_URL = database.url;
    }
    return env;
  }

  let env: Record<string, string>;
  beforeAll(async () => {
    env = await emptyEnvironment();
  });
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('stores create prints one JSON object {id, name}; its currency is GBP and its rounding half-up unless told; set-currency changes them', async () => {
    const store = onlyJsonObject(await runCli(['stores', 'create', '--name', 'X'], env));
    expect(Object.keys(store).sort()).toEqual(['id', 'name']);
    expect(store).toEqual({ id: expect.any(Number), name: 'X' });
    expect(Number.isInteger(store.id) && (store.id as number) > 0).toBe(true);
    const second = onlyJsonObject(await runCli(['stores', 'create', '--name', 'Second store', '--currency', 'jpy', '--rounding', 'down'], env));
    expect(second).toEqual({ id: expect.any(Number), name: 'Second store' });
    expect(second.id).not.toBe(store.id);
    // Without --rounding, the store keeps its own.
    const changed = onlyJsonObject(await runCli(['stores', 'set-currency', '--store', String(second.id), '--currency', 'EUR'], env));
    expect(changed).toEqual({ id: second.id, name: 'Second store', currency: 'EUR', rounding: 'down' });
    expect(onlyJsonObject(await runCli(['stores', 'set-currency', '--store', String(store.id), '--currency', 'BHD', '--rounding', 'up'], env))).toMatchObject({
      currency: 'BHD',
      rounding: 'up',
    });

    // A code ISO 4217 does not have is refused (exit 1, nothing made or changed); a bad --rounding is a usage error (exit 2).
    const unknown = await runCli(['stores', 'create', '--name', 'Pounds', '--currency', 'POUND'], env);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("'POUND' is not an ISO 4217 currency code");
    expect((await runCli(['stores', 'set-currency', '--store', String(store.id), '--currency', 'XYZ'], env)).code).toBe(1);
    const rounding = await runCli(['stores', 'set-currency', '--store', String(store.id), '--currency', 'USD', '--rounding', 'nearest'], env);
    expect(rounding.code).toBe(2);
    expect(rounding.stderr).toContain('--rounding must be one of half-up, up, down');
    const listed = (await runCli(['stores', 'list'], env)).stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as { id: number; name: string; currency: string });
    expect(listed.filter((row) => row.name === 'Pounds')).toEqual([]);
    expect(listed.find((row) => row.id === store.id)).toMatchObject({ currency: 'BHD', rounding: 'up' });
    expect(listed.find((row) => row.id === second.id)).toMatchObject({ currency: 'EUR', rounding: 'down' });
  });

  it("keys create prints {id, storeId, scopes, key, secret, token}, the contract's seven scopes by default, or the ones asked for", async () => {
    const store = onlyJsonObject(await runCli(['stores', 'create', '--name', 'Keys'], env));
    const credential = onlyJsonObject(await runCli(['keys', 'create', '--store', String(store.id)], env));
    expect(Object.keys(credential).sort()).toEqual(['id', 'key', 'scopes', 'secret', 'storeId', 'token']);
    expect(credential.storeId).toBe(store.id);
    // Every scope of the contract; approving change sets and writing prices directly where approval is required are given only when asked for.
    expect([...(credential.scopes as string[])].sort()).toEqual(
      SCOPES.filter((scope) => scope !== 'trade_prices:approve' && scope !== 'trade_prices:direct').sort(),
    );
    expect(credential.scopes).toHaveLength(7);
    const approver = onlyJsonObject(await runCli(['keys', 'create', '--store', String(store.id), '--scopes', 'trade_prices:read,trade_prices:approve'], env));
    expect(approver.scopes).toEqual(['trade_prices:read', 'trade_prices:approve']);
    const erp = onlyJsonObject(
      await runCli(['keys', 'create', '--store', String(store.id), '--scopes', 'trade_prices:read,trade_prices:write,trade_prices:direct'], env),
    );
    expect(erp.scopes).toEqual(['trade_prices:read', 'trade_prices:write', 'trade_prices:direct']);
    expect(credential.token).toBe(`${credential.key as string}.${credential.secret as string}`);

    const reader = onlyJsonObject(await runCli(['keys', 'create', '--store', String(store.id), '--scopes', 'catalog:read'], env));
    expect(reader.scopes).toEqual(['catalog:read']);
    const two = onlyJsonObject(await runCli(['keys', 'create', '--store', String(store.id), '--scopes', 'catalog:read,orders:write'], env));
    expect([...(two.scopes as string[])].sort()).toEqual(['catalog:read', 'orders:write']);
    expect(new Set([credential.key, reader.key, two.key]).size).toBe(3);
  });

  it('--version prints the package version; stores list prints every store, one JSON object a line', async () => {
    const manifest = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, '../../package.json'), 'utf8')) as { version: string };
    const version = await runCli(['--version'], {});
    expect(version).toEqual({ code: 0, stdout: `${manifest.version}\n`, stderr: '' });

    const made = [
      onlyJsonObject(await runCli(['stores', 'create', '--name', 'Listed A'], env)),
      onlyJsonObject(await runCli(['stores', 'create', '--name', 'Listed B'], env)),
    ];
    const listed = await runCli(['stores', 'list'], env);
    expect(listed.code, listed.stderr).toBe(0);
    const stores = listed.stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as { id: number; name: string; createdAt: string });
    expect(stores.map((store) => store.id)).toEqual([...stores.map((store) => store.id)].sort((a, b) => a - b));
    for (const store of made)
      expect(stores).toContainEqual({
        id: store.id,
        name: store.name,
        currency: 'GBP',
        rounding: 'half-up',
        createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      });
  });

  it("keys list shows a store's credentials without secrets; keys revoke takes a name, and refuses one two credentials share, listing them", async () => {
    const store = onlyJsonObject(await runCli(['stores', 'create', '--name', 'Named keys'], env));
    const storeId = String(store.id);
    const unnamed = onlyJsonObject(await runCli(['keys', 'create', '--store', storeId], env));
    expect(Object.keys(unnamed)).not.toContain('name');
    const erp = onlyJsonObject(await runCli(['keys', 'create', '--store', storeId, '--name', 'erp', '--scopes', 'trade_prices:read'], env));
    expect(erp.name).toBe('erp');
    const shopA = onlyJsonObject(await runCli(['keys', 'create', '--store', storeId, '--name', 'shop'], env));
    const shopB = onlyJsonObject(await runCli(['keys', 'create', '--store', storeId, '--name', 'shop'], env));

    const listed = await runCli(['keys', 'list', '--store', storeId], env);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).not.toContain(erp.secret as string);
    // No secret field, no secret (`sk_…`), no token (`pk_….sk_…`); a public key, random
    // base64url, may hold the letters "sk_" by chance.
    expect(listed.stdout).not.toMatch(/"secret"|"token"|[".]sk_/);
    const keys = listed.stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(keys.map((key) => [key.id, key.name])).toEqual([
      [unnamed.id, null],
      [erp.id, 'erp'],
      [shopA.id, 'shop'],
      [shopB.id, 'shop'],
    ]);
    expect(keys[1]).toEqual({
      id: erp.id,
      storeId: store.id,
      name: 'erp',
      key: erp.key,
      scopes: ['trade_prices:read'],
      createdAt: expect.any(String),
      revokedAt: null,
    });

    const ambiguous = await runCli(['keys', 'revoke', 'shop'], env);
    expect(ambiguous.code).toBe(1);
    expect(ambiguous.stdout).toBe('');
    expect(ambiguous.stderr).toContain(`2 credentials are named 'shop': ${String(shopA.id)} (store ${storeId}`);
    expect(ambiguous.stderr).toContain(`; ${String(shopB.id)} (store ${storeId}`);

    const byName = onlyJsonObject(await runCli(['keys', 'revoke', 'erp', '--store', storeId], env));
    expect(byName).toEqual({ id: erp.id, revoked: true });
    const after = (await runCli(['keys', 'list', '--store', storeId], env)).stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(after.find((key) => key.id === erp.id)?.revokedAt).toEqual(expect.stringMatching(/^\d{4}-/));
    expect(after.filter((key) => key.revokedAt !== null)).toHaveLength(1);
    // A revoked credential's name no longer names it.
    expect((await runCli(['keys', 'revoke', 'erp'], env)).stderr).toMatch(/No credential named 'erp'/);
  });

  it('fails with a message on stderr, nothing on stdout, and exit code 2 for a bad command line, 1 for a refused operation', async () => {
    const store = onlyJsonObject(await runCli(['stores', 'create', '--name', 'Failures'], env));
    // A bad command line is refused before any database is opened: tried on the first engine only.
    const usage: Array<[string[], RegExp, 1 | 2]> = [
      [['keys', 'create', '--store', String(store.id), '--scopes', 'catalog:read,admin'], /scope.*admin/i, 2],
      [['keys', 'create', '--store', String(store.id), '--scopes', ''], /scope/i, 2],
      [['keys', 'create', '--store', 'abc'], /abc/, 2],
      [['keys', 'create', '--store', '0'], /positive integer/, 2],
      [['keys', 'create', '--store', '-1'], /./, 2],
      [['keys', 'create', '--store', '1.5'], /1\.5/, 2],
      [['keys', 'create'], /--store/, 2],
      [['keys', 'revoke', '0'], /positive integer/, 2],
      [['keys', 'revoke', 'abc', '--store', 'x'], /--store/, 2],
      [['stores', 'create'], /--name/, 2],
      [['stores', 'create', '--name', 'X', '--bogus'], /bogus/, 2],
      [['nonsense'], /unknown command/i, 2],
    ];
    // Well-formed, refused by the rules of a name before anything is written: the first engine only.
    const names: Array<[string[], RegExp, 1 | 2]> = [
      [['keys', 'create', '--store', String(store.id), '--name', '42'], /only digits/, 1],
      [['stores', 'create', '--name', '   '], /name/i, 1],
      // stores list prints names to a terminal: none may hide or rewrite what is shown.
      [['stores', 'create', '--name', 'Shop\u001b[2J'], /A store name must not contain control characters \(U\+001B at position 5\)/, 1],
      [['stores', 'create', '--name', 'Shop\u202Eevil'], /A store name must not contain invisible formatting characters \(U\+202E at position 5\)/, 1],
      [['keys', 'create', '--store', String(store.id), '--name', 'erp\u200B'], /invisible formatting characters \(U\+200B at position 4\)/, 1],
    ];
    const cases: Array<[string[], RegExp, 1 | 2]> = [
      ...(engine === FIRST_ENGINE ? [...usage, ...names] : []),
      // Well-formed, refused by what the database holds.
      [['keys', 'create', '--store', '987654'], /987654/, 1],
      [['keys', 'revoke', '987654'], /987654/, 1],
      [['keys', 'revoke', 'abc'], /No credential named 'abc'/, 1],
      [['keys', 'list', '--store', '987654'], /Store 987654 not found/, 1],
    ];
    for (const [args, message, code] of cases) {
      const run = await runCli(args, env);
      const what = args.join(' ');
      expect(run.code, `${what}: ${run.stderr}`).toBe(code);
      expect(run.stdout, what).toBe('');
      expect(run.stderr, what).toMatch(message);
    }
  }, 180_000); // some twenty processes, one after another: a busy machine has taken a minute

  // The settings are read before any database is opened, and the unreachable one is named: the first engine only.
  it.runIf(engine === FIRST_ENGINE)('exits 2 on an invalid setting, naming it, and 1 when the database cannot be reached', async () => {
    const configurations: Array<[string[], Record<string, string>, RegExp]> = [
      [['stores', 'create', '--name', 'X'], { DATABASE_URL: 'mysql://127.0.0.1/x' }, /DATABASE_URL/],
      [['stores', 'create', '--name', 'X', '--database-url', 'not a url'], {}, /DATABASE_URL|database-url/],
      [['serve'], { PRICEBOOK_PORT: 'eighty' }, /PRICEBOOK_PORT/],
      [['worker'], { PRICEBOOK_WEBHOOK_RETRY_SCHEDULE: 'soon' }, /PRICEBOOK_WEBHOOK_RETRY_SCHEDULE/],
    ];
    for (const [args, extra, message] of configurations) {
      const run = await runCli(args, { ...env, ...extra });
      const what = `${args.join(' ')} ${JSON.stringify(extra)}`;
      expect(run.code, `${what}: ${run.stderr}`).toBe(2);
      expect(run.stdout, what).toBe('');
      expect(run.stderr, what).toMatch(message);
    }
    // Nothing listens on the port: the operation fails, the command line was fine.
    const unreachable = await runCli(['stores', 'create', '--name', 'X'], {
      ...env,
      DATABASE_URL: `postgres://postgres@127.0.0.1:${await freePort()}/pricebook`,
    });
    expect(unreachable.code, unreachable.stderr).toBe(1);
    expect(unreachable.stdout).toBe('');
    expect(unreachable.stderr).toMatch(/^pricebook: /);
  });

  it('issues credentials that work over HTTPS, Bearer and Basic, within their scopes, until revoked', async () => {
    const store = onlyJsonObject(await runCli(['stores', 'create', '--name', 'Served'], env));
    const credential = onlyJsonObject(await runCli(['keys', 'create', '--store', String(store.id)], env));
    const reader = onlyJsonObject(await runCli(['keys', 'create', '--store', String(store.id), '--scopes', 'catalog:read'], env));
    // The data dir already holds stores: no demo store, no token printed.
    const served = await startServe({ ...env, PRICEBOOK_DEMO: '1' });
    try {
      expect(served.output()).not.toMatch(/curl/);
      const ca = fs.readFileSync(path.join(env.PRICEBOOK_DATA_DIR!, 'tls-cert.pem'), 'utf8');
      const bearer = `Bearer ${credential.token as string}`;
      expect((await httpsGet(served, ca, '/v1/customers', bearer)).status).toBe(200);
      expect((await httpsGet(served, ca, '/v1/customers', basic(credential.key as string, credential.secret as string))).status).toBe(200);
      expect((await httpsGet(served, ca, '/v1/customers', `Bearer ${reader.token as string}`)).status).toBe(200);
      const forbidden = await httpsGet(served, ca, '/v1/customers', `Bearer ${reader.token as string}`, { method: 'POST', body: '{"email":"r@example.com"}' });
      expect(forbidden).toEqual({ status: 403, body: { code: 4, message: expect.any(String) } });

      // The server uses the credential steadily (so it holds it cached) while `keys revoke`
      // runs in a process of its own; from the moment that returns, every request is refused.
      let revokedAt = Number.POSITIVE_INFINITY;
      const seen: Array<{ sentAt: number; status: number }> = [];
      const steadyUse = (async () => {
        for (let i = 0, after = 0; i < 2000 && after < 3; i++) {
          const sentAt = performance.now();
          if (sentAt > revokedAt) after++;
          seen.push({ sentAt, status: (await httpsGet(served, ca, '/v1/customers?count=1', bearer)).status });
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      })();
      const revoked = onlyJsonObject(await runCli(['keys', 'revoke', String(credential.id)], env));
      revokedAt = performance.now();
      expect(revoked).toMatchObject({ id: credential.id });
      await steadyUse;
      expect(seen.filter((request) => request.sentAt > revokedAt).map((request) => request.status)).toEqual([401, 401, 401]);
      expect(await httpsGet(served, ca, '/v1/customers', bearer)).toEqual({ status: 401, body: { code: 3, message: expect.any(String) } });
      expect((await httpsGet(served, ca, '/v1/customers', basic(credential.key as string, credential.secret as string))).status).toBe(401);
      // The other credential of the store still works.
      expect((await httpsGet(served, ca, '/v1/customers', `Bearer ${reader.token as string}`)).status).toBe(200);
    } finally {
      const stopped = await served.terminate();
      expect(stopped.code).toBe(0);
    }
  });

  it('serve with PRICEBOOK_DEMO=1 on an empty data dir creates the demo store and prints a working token and curl line; SIGTERM finishes in-flight requests and exits 0', async () => {
    const fresh = await emptyEnvironment();
    const served = await startServe({ ...fresh, PRICEBOOK_DEMO: '1' });
    let stopped: Awaited<ReturnType<Served['terminate']>> | undefined;
    try {
      const output = served.output();
      const token = /^\s+(pk_[A-Za-z0-9_-]+\.sk_[A-Za-z0-9_-]+)\s*$/m.exec(output)?.[1];
      expect(token, output).toBeDefined();
      const curlLine = output.split('\n').find((line) => line.trim().startsWith('curl '));
      expect(curlLine, output).toBeDefined();
      expect(curlLine).toContain(`Authorization: Bearer ${token!}`);
      expect(curlLine).toContain(`https://localhost:${served.port}/v1/customers`);

      const certificate = path.join(fresh.PRICEBOOK_DATA_DIR!, 'tls-cert.pem');
      expect(curlLine).toContain(certificate);
      const ca = fs.readFileSync(certificate, 'utf8');
      const listed = await httpsGet(served, ca, '/v1/customers', `Bearer ${token!}`);
      expect(listed.status).toBe(200);
      const emails = (listed.body as Array<{ email: string; trade: boolean }>).map((customer) => customer.email);
      expect(emails.length).toBeGreaterThanOrEqual(3);
      expect((listed.body as Array<{ trade: boolean }>).some((customer) => customer.trade)).toBe(true);

      if (toolAvailable(CURL, 'running the printed curl line')) {
        // The printed line as pasted, pinned to 127.0.0.1.
        const curled = execFileSync('sh', ['-c', `${curlLine!.trim()} -sS --max-time 10 --resolve localhost:${served.port}:127.0.0.1`], {
          encoding: 'utf8',
          timeout: 15_000,
        });
        expect((JSON.parse(curled) as Array<{ email: string }>).map((customer) => customer.email)).toEqual(emails);
      }

      // The plain-HTTP listener refuses.
      const plain = await rawPlainExchange(served.httpPort, 'GET /v1/customers HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n');
      expect(plain.status).toBe(400);
      expect(plain.body).toEqual({ code: 2, message: expect.stringMatching(/HTTPS/) });

      // A request whose body is still arriving when SIGTERM comes is completed.
      const socket = await connectTls(served.port, ca);
      const answer = readUntilClosed(socket, 15_000);
      const body = JSON.stringify({ email: 'in-flight@example.com' });
      socket.write(
        `POST /v1/customers HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${token!}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body.slice(0, 5)}`,
      );
      await new Promise((resolve) => setTimeout(resolve, 300));
      const stopping = served.terminate();
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(served.child.exitCode, 'still running while a request is in flight').toBeNull();
      socket.write(body.slice(5));
      const response = parseHttpResponse((await answer).data);
      expect(response.status).toBe(201);
      expect(response.body).toMatchObject({ email: 'in-flight@example.com' });
      stopped = await stopping;
      expect(stopped).toMatchObject({ code: 0, signal: null });
      expect(stopped.ms).toBeLessThan(5000);
      // The log goes out through a buffer: the process wrote out every line before it exited,
      // the in-flight request's among them, under the id its answer carried.
      const requestId = response.headers['x-request-id'];
      const inFlightLine = async () => {
        for (let waited = 0; waited < 2000; waited += 50) {
          const line = jsonLines(served.output()).find((candidate) => candidate.msg === 'request' && candidate.reqId === requestId);
          if (line !== undefined) return line;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        return undefined;
      };
      expect(await inFlightLine(), served.output()).toMatchObject({ method: 'POST', path: '/v1/customers', status: 201 });
      expect(jsonLines(served.output()).filter((line) => line.msg === 'request' && line.path === '/v1/customers').length).toBeGreaterThanOrEqual(2);
    } finally {
      if (stopped === undefined) await served.terminate();
    }
  });

  it('serve into a pipe or log, unasked, creates no demo store and prints no token, only how to ask', async () => {
    const fresh = await emptyEnvironment();
    const served = await startServe(fresh);
    const stopped = await served.terminate();
    const output = served.output();
    expect(output).not.toMatch(/pk_|sk_|curl/);
    expect(jsonLines(output).find((line) => /no demo store/.test(String(line.msg)))?.msg).toMatch(/PRICEBOOK_DEMO=1/);
    expect(stopped).toMatchObject({ code: 0, signal: null });
    // No store was made: the first one created now is store 1.
    expect(JSON.parse(execFileSync(process.execPath, [CLI, 'stores', 'create', '--name', 'First'], { env: cleanEnv(fresh), encoding: 'utf8' }))).toMatchObject({
      id: 1,
    });
  });

  it('serve at a terminal, unasked, creates the demo store and prints its token (the README’s first start)', async ({ skip }) => {
    skip(!toolAvailable(SCRIPT, 'serve at a terminal'), 'script is not installed');
    const fresh = await emptyEnvironment();
    const port = await freePort();
    // `script` runs serve with a pseudo-terminal as its stdout, as a person's shell would.
    const env = cleanEnv({ ...fresh, PRICEBOOK_HOST: '127.0.0.1', PRICEBOOK_PORT: String(port), PRICEBOOK_HTTP_PORT: '0' });
    const child = spawn('script', ['-qfec', `'${process.execPath}' '${CLI}' serve`, '/dev/null'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    const exited = new Promise((resolve) => child.once('exit', resolve));
    try {
      const deadline = Date.now() + COMMAND_TIMEOUT_MS;
      // The banner may arrive in several chunks: wait for its last line, the curl one (the terminal ends it with \r\n).
      while (!/curl .*Bearer pk_[^\n]*\n/.test(output) && Date.now() < deadline && child.exitCode === null)
        await new Promise((resolve) => setTimeout(resolve, 50));
      expect(output).toMatch(/Demo store 1 created/);
      expect(output).toMatch(/curl .*Bearer pk_/);
    } finally {
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(killer);
    }
  });

  // No engine takes part: the flags are refused before a database is opened, and no code reads the variables.
  it.runIf(engine === FIRST_ENGINE)(
    'no flag or variable plants a fault: the former test switches are unknown flags, and as variables change nothing',
    async () => {
      for (const flag of ['--fault-ack-before-commit', '--fault-trade-price-list-every-store']) {
        const run = await runCli(['serve', flag, '1'], env);
        expect(run.code, run.stderr).toBe(2);
        expect(run.stdout).toBe('');
        expect(run.stderr).toMatch(new RegExp(`unknown option '${flag}'`));
      }
      // What the variables used to do: answer a write before its commit, list every store's trade prices.
      const fresh = await emptyEnvironment();
      const tenants: Array<Record<string, unknown>> = [];
      for (const name of ['Faults A', 'Faults B']) {
        const store = onlyJsonObject(await runCli(['stores', 'create', '--name', name], fresh));
        tenants.push(onlyJsonObject(await runCli(['keys', 'create', '--store', String(store.id)], fresh)));
      }
      const served = await startServe({
        ...fresh,
        PRICEBOOK_DEMO: '0',
        PRICEBOOK_FAULT_ACK_BEFORE_COMMIT: '1',
        PRICEBOOK_FAULT_TRADE_PRICE_LIST_EVERY_STORE: '1',
      });
      try {
        const ca = fs.readFileSync(path.join(fresh.PRICEBOOK_DATA_DIR!, 'tls-cert.pem'), 'utf8');
        const create = async (token: unknown, urlPath: string, body: unknown) => {
          const response = await httpsGet(served, ca, urlPath, `Bearer ${token as string}`, { method: 'POST', body: JSON.stringify(body) });
          expect(response.status, `${urlPath}: ${JSON.stringify(response.body)}`).toBe(201);
          return (response.body as { id: number }).id;
        };
        const own: number[] = [];
        for (const [index, tenant] of tenants.entries()) {
          const customerId = await create(tenant.token, '/v1/customers', { email: `faults-${index}@example.com`, trade: true });
          const productId = await create(tenant.token, '/v1/products', { title: 'T', price: 10, sku: `FAULTS-${index}` });
          const response = await httpsGet(served, ca, '/v1/trade-customer-product-prices/bulk', `Bearer ${tenant.token as string}`, {
            method: 'POST',
            body: JSON.stringify([{ customerId, productId, sku: `FAULTS-${index}`, price: 5 }]),
          });
          expect(response.status, JSON.stringify(response.body)).toBe(201);
          own.push((response.body as Array<{ id: number }>)[0]!.id);
        }
        // Each store sees its own price at once (committed when answered), and only its own.
        for (const [index, tenant] of tenants.entries()) {
          const listed = await httpsGet(served, ca, '/v1/trade-customer-product-prices', `Bearer ${tenant.token as string}`);
          expect({ status: listed.status, ids: (listed.body as Array<{ id: number }>).map((record) => record.id) }).toEqual({ status: 200, ids: [own[index]] });
        }
      } finally {
        await served.terminate();
      }
      expect(served.output()).not.toMatch(/fault/i);
    },
  );

  it('serve with PRICEBOOK_DEMO=0 on an empty data dir prints no token, and stops on SIGTERM', async () => {
    const fresh = await emptyEnvironment();
    const served = await startServe({ ...fresh, PRICEBOOK_DEMO: '0' });
    const stopped = await served.terminate();
    expect(served.output()).not.toMatch(/pk_|sk_|curl|token/i);
    expect(stopped).toMatchObject({ code: 0, signal: null });
    expect(stopped.ms).toBeLessThan(5000);
  });
});

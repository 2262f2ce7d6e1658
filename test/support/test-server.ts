import { answerCheckOf } from './answer-schemas.js';
import fs from 'node:fs';
import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { Agent, request as undiciRequest } from 'undici';
import { AGENT_KEEP_ALIVE } from './agent-keep-alive.js';
import { ImportRunner } from '../../src/modules/imports/import-runner.js';
import { type AppOptions, buildApp, createPlainHttpServer } from '../../src/app/build-app.js';
import { buildServices, type ServiceOptions, type Services } from '../../src/app/services.js';
import { generateSelfSigned } from '../../src/app/tls.js';
import { buildMetrics, type ProcessMetrics } from '../../src/app/metrics.js';
import { startMetricsListener } from '../../src/http/server/metrics-listener.js';
import { parseConfig, type Config } from '../../src/config/config.js';
import type { App } from '../../src/http/plugins/app-types.js';
import type { Scope } from '../../src/modules/stores/scopes.js';
import { createPostgresDatabase, type EngineName, freshDataDir } from './engines.js';

let certificate: Promise<{ cert: string; key: string }> | undefined;
/** One self-signed pair per test process. */
export function testCertificate() {
  certificate ??= generateSelfSigned();
  return certificate;
}

export interface HttpResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON, or undefined for an empty body. */
  body: unknown;
  text: string;
}

export interface RequestOptions {
  token?: string;
  body?: unknown;
  /** Sent as is, instead of JSON-encoding `body`; an async iterable is streamed as it yields (never held whole). */
  rawBody?: string | Buffer | AsyncIterable<Uint8Array>;
  headers?: Record<string, string | string[]>;
  /**
   * Parse the answer and check it against the OpenAPI document when `body` is first read, not
   * as it arrives. The noisy-neighbour suites measure the event loop of the process the server
   * shares with the test: parsing and checking a 20 000-record answer there is the test's own
   * work (30–40 ms of it), not the server's.
   */
  lazyBody?: boolean;
}

export interface TestServerOptions {
  /**
   * Passed to `buildServices`: a clock, stand-ins for the webhooks' resolver and HTTP client, or
   * a unit of work with a fault planted (test/faults/support/planted-faults.ts).
   */
  services?: Pick<ServiceOptions, 'clock' | 'webhookResolver' | 'webhookTransport' | 'unitOfWork'>;
  /** Also start the plain-HTTP listener, as `main/serve.ts` does, on a port of its own. */
  plainHttp?: boolean;
  /** Passed to `buildApp` (logger, timeouts); the TLS pair is the test one. */
  app?: Omit<AppOptions, 'tls' | 'metrics'>;
  /**
   * Also measure, as `main/serve.ts` does with a metrics port: the app counts its requests and
   * the metrics listener answers on a port of its own (port 0, `PRICEBOOK_METRICS_HOST`, with
   * `PRICEBOOK_METRICS_TOKEN` when given).
   */
  metrics?: boolean;
  /** Work queued imports, as `main/serve.ts` does (default true); false leaves them queued. */
  importRunner?: boolean;
}

export interface TestServer {
  engine: EngineName;
  config: Config;
  services: Services;
  app: App;
  /** `https://127.0.0.1:PORT` */
  baseUrl: string;
  port: number;
  /** The CA that verifies the server's certificate (for raw TLS sockets; servername `localhost`). */
  ca: string;
  /** `http://127.0.0.1:PORT` of the plain-HTTP listener, with `plainHttp: true`. */
  plainBaseUrl: string | undefined;
  request(method: string, urlPath: string, options?: RequestOptions): Promise<HttpResponse>;
  /** SQL of every statement run so far; tests may empty it. */
  statements: string[];
  /** What the process measures, with `metrics: true` (`startWorker` counts deliveries into it). */
  metrics: ProcessMetrics | undefined;
  /** `http://127.0.0.1:PORT` of the metrics listener, with `metrics: true`. */
  metricsBaseUrl: string | undefined;
  /** A request to the plain-HTTP listener (needs `plainHttp: true`). */
  plainRequest(method: string, urlPath: string, options?: RequestOptions): Promise<HttpResponse>;
  /** A new store and a credential for it (all scopes unless given). */
  createTenant(scopes?: Scope[]): Promise<Tenant>;
  close(): Promise<void>;
}

export interface Tenant {
  storeId: number;
  keyId: number;
  token: string;
  key: string;
  secret: string;
}

/**
 * Of the SQL statements a test server ran (`TestServer.statements`), the ones a request's own
 * work made: without transaction control, the import runner's poll of its queue (every second,
 * on its own) and the credential's read (made again only once it has been trusted for a second,
 * so whether a request makes it depends on the time since the last one).
 */
export function requestStatements(statements: readonly string[]): string[] {
  return statements.filter((sql) => !/^(begin|commit|rollback)/i.test(sql) && !/\b"?(imports|api_keys)"?\b/.test(sql));
}

/**
 * The real app over real HTTPS on 127.0.0.1, on a fresh SQLite data dir or a fresh PostgreSQL
 * database. Rate limits are raised unless the test sets them.
 */
export async function startTestServer(engine: EngineName, env: Record<string, string> = {}, options: TestServerOptions = {}): Promise<TestServer> {
  const dataDir = freshDataDir();
  const postgres = engine === 'postgres' ? await createPostgresDatabase() : undefined;
  const config = parseConfig(
    {
      PRICEBOOK_DATA_DIR: dataDir,
      PRICEBOOK_RATE_LIMIT_BUCKET: '100000',
      PRICEBOOK_RATE_LIMIT_LEAK: '1000',
      PRICEBOOK_AUTH_FAILURE_BUCKET: '100000',
      // Staff passwords hashed at scrypt's lowest cost the setting allows: the suites make many
      // members, and the default (2^15) costs a core some 150 ms a hash. One test keeps the default.
      PRICEBOOK_PASSWORD_COST: '10',
      PRICEBOOK_DEMO: '0',
      PRICEBOOK_LOG_LEVEL: 'silent',
      ...(postgres && { DATABASE_URL: postgres.url }),
    },
    env,
  );
  const statements: string[] = [];
  const services = await buildServices(config, { ...options.services, poolSize: 5, onQuery: (sql) => statements.push(sql) });
  const tls = await testCertificate();
  const metrics = options.metrics === true ? buildMetrics(services, { api: true, deliveries: true }) : undefined;
  const app = await buildApp(config, services, { ...options.app, metrics: metrics?.http, tls: { ...tls, source: 'test' } });
  // As main/serve.ts does: imports are worked in the process that serves them.
  const importRunner = new ImportRunner(services.imports, app.log, { concurrency: config.importConcurrency });
  const stopWaking = services.imports.whenQueued(() => importRunner.wake());
  if (options.importRunner !== false) importRunner.start();
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as AddressInfo).port;
  const baseUrl = `https://127.0.0.1:${port}`;
  const agent = new Agent({ connect: { ca: tls.cert, servername: 'localhost' }, connections: 64, ...AGENT_KEEP_ALIVE });
  // A raw body (an upload) goes on a connection of its own, closed after its answer: the server
  // may close an upload's connection once it has refused it, and that connection, back in the
  // pool and reused by the next request on a loaded machine before its close arrived, failed
  // that request with `read ECONNRESET` (seen in the import limits' suites).
  const uploadAgent = new Agent({ connect: { ca: tls.cert, servername: 'localhost' }, connections: 64, pipelining: 0 });

  let plain: http.Server | undefined;
  if (options.plainHttp === true) {
    // As main/serve.ts builds it.
    plain = createPlainHttpServer(app, config, options.app?.timeouts?.firstRequestTimeout);
    await new Promise<void>((resolve, reject) => plain?.once('error', reject).listen(0, '127.0.0.1', () => resolve()));
  }
  const plainBaseUrl = plain === undefined ? undefined : `http://127.0.0.1:${(plain.address() as AddressInfo).port}`;
  const plainAgent = new Agent({ connections: 16, ...AGENT_KEEP_ALIVE });
  const metricsListener =
    metrics === undefined
      ? undefined
      : await startMetricsListener({
          host: config.metricsHost,
          port: 0,
          token: config.metricsToken,
          registry: metrics.registry,
          log: app.log,
          firstRequestTimeout: options.app?.timeouts?.firstRequestTimeout,
        });
  const metricsBaseUrl = metricsListener === undefined ? undefined : `http://${metricsListener.host}:${metricsListener.port}`;

  const checkAnswer = answerCheckOf(app);
  const send = async (base: string, dispatcher: Agent, method: string, urlPath: string, requestOptions: RequestOptions = {}): Promise<HttpResponse> => {
    const headers: Record<string, string | string[]> = { ...requestOptions.headers };
    if (requestOptions.token !== undefined) headers.authorization = `Bearer ${requestOptions.token}`;
    const raw = requestOptions.rawBody;
    let payload: string | Buffer | Readable | undefined =
      typeof raw === 'string' || Buffer.isBuffer(raw) || raw === undefined ? raw : Readable.from(raw, { objectMode: false });
    if (payload === undefined && requestOptions.body !== undefined) {
      payload = JSON.stringify(requestOptions.body);
      headers['content-type'] ??= 'application/json';
    }
    const response = await undiciRequest(`${base}${urlPath}`, { method: method as 'GET', headers, body: payload, dispatcher });
    const text = await response.body.text();
    const readBody = (): unknown => {
      let body: unknown;
      if (text !== '') {
        try {
          body = JSON.parse(text);
        } catch {
          body = undefined;
        }
      }
      if (base !== metricsBaseUrl) checkAnswer(method, urlPath, response.statusCode, response.headers['content-type'] as string | undefined, body);
      return body;
    };
    if (requestOptions.lazyBody !== true) return { status: response.statusCode, headers: response.headers, body: readBody(), text };
    let read: { body: unknown } | undefined;
    return {
      status: response.statusCode,
      headers: response.headers,
      get body() {
        read ??= { body: readBody() };
        return read.body;
      },
      text,
    };
  };
  const request = (method: string, urlPath: string, requestOptions?: RequestOptions) =>
    send(baseUrl, requestOptions?.rawBody === undefined ? agent : uploadAgent, method, urlPath, requestOptions);
  const plainRequest = (method: string, urlPath: string, requestOptions?: RequestOptions) => {
    if (plainBaseUrl === undefined) throw new Error('start the test server with { plainHttp: true }');
    return send(plainBaseUrl, plainAgent, method, urlPath, requestOptions);
  };

  return {
    engine,
    config,
    services,
    app,
    baseUrl,
    port,
    statements,
    ca: tls.cert,
    plainBaseUrl,
    metrics,
    metricsBaseUrl,
    request,
    plainRequest,
    async createTenant(scopes) {
      const store = await services.credentials.createStore(`Test store ${Math.random().toString(36).slice(2, 8)}`);
      const credential = await services.credentials.issueKey(store.id, scopes);
      return { storeId: store.id, keyId: credential.id, token: credential.token, key: credential.key, secret: credential.secret };
    },
    async close() {
      await agent.close();
      await uploadAgent.close();
      await plainAgent.close();
      await metricsListener?.close();
      metrics?.stop();
      if (plain !== undefined) {
        plain.closeAllConnections();
        await new Promise<void>((resolve) => plain?.close(() => resolve()));
      }
      stopWaking();
      await importRunner.stop();
      await app.close();
      await services.close();
      await postgres?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

import { timingSafeEqual, createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';
import { FIRST_REQUEST_TIMEOUT_MS, limitConnections } from './connection-slots.js';

export interface MetricsListenerOptions {
  host: string;
  /** 0 picks a free port (tests). */
  port: number;
  /** Required as `Authorization: Bearer <token>` when set. */
  token: string | undefined;
  registry: Registry;
  /** Where a failed scrape and full connection slots are reported; pino's logger fits. */
  log: { error(details: object, message: string): void; warn(details: object, message: string): void };
  /** Milliseconds a connection may stay without sending a request; default FIRST_REQUEST_TIMEOUT_MS (tests shorten it). */
  firstRequestTimeout?: number;
}

export interface MetricsListener {
  readonly host: string;
  readonly port: number;
  close(): Promise<void>;
}

/**
 * Prometheus scrapers keep one connection or a few; more is someone else. When all are taken, a
 * new one closes the oldest idle one (a scrape is answered at once, so they are idle almost
 * always): connections that say nothing cannot keep a scraper out.
 */
export const METRICS_MAX_CONNECTIONS = 16;
/** As the API's listener: expired requests are looked for every 500 ms, not Node's 30 s. */
const TIMEOUTS = { headersTimeout: 10_000, requestTimeout: 30_000, keepAliveTimeout: 5_000, connectionsCheckingInterval: 500 } satisfies http.ServerOptions;

/**
 * The metrics listener: plain HTTP, apart from the API (its own port and address, none of the
 * API's rules), answering `GET /metrics` in the Prometheus text format and 404 to anything else.
 * With a token, a request without it gets 401 and learns nothing.
 */
export async function startMetricsListener(options: MetricsListenerOptions): Promise<MetricsListener> {
  const expected = options.token === undefined ? undefined : digest(`Bearer ${options.token}`);
  const server = http.createServer(TIMEOUTS, (request, response) => {
    const answer = (status: number, body: string, headers: Record<string, string> = {}) => {
      response.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', ...headers }).end(body);
    };
    if (expected !== undefined && !timingSafeEqual(digest(request.headers.authorization ?? ''), expected)) {
      return answer(401, 'Unauthorized\n', { 'www-authenticate': 'Bearer realm="pricebook-metrics"' });
    }
    const path = (request.url ?? '').split('?', 1)[0];
    if (path !== '/metrics') return answer(404, 'Not found: the metrics are at /metrics\n');
    if (request.method !== 'GET' && request.method !== 'HEAD') return answer(405, 'Method not allowed\n', { allow: 'GET, HEAD' });
    options.registry.metrics().then(
      (text) => answer(200, request.method === 'HEAD' ? '' : text, { 'content-type': options.registry.contentType }),
      (error: unknown) => {
        options.log.error({ err: error }, 'metrics: scrape failed');
        answer(500, 'Metrics could not be collected\n');
      },
    );
  });
  limitConnections(
    server,
    {
      max: METRICS_MAX_CONNECTIONS,
      // No cap per address: scrapers come from one address or two.
      perAddress: METRICS_MAX_CONNECTIONS,
      exempt: () => false,
      firstRequestMs: options.firstRequestTimeout ?? FIRST_REQUEST_TIMEOUT_MS,
      label: `metrics: the listener's ${METRICS_MAX_CONNECTIONS} connections`,
    },
    (details, message) => options.log.warn(details, message),
  );
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(options.port, options.host, () => resolve()));
  const address = server.address() as AddressInfo;
  return {
    host: address.address,
    port: address.port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  };
}

/** Equal-length digests, so the comparison takes the same time whatever was sent. */
function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

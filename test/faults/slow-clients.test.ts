import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROTOCOL_ENGINES } from '../support/engines.js';
import { connectTls, parseHttpResponse, readUntilClosed } from '../support/raw-http.js';
import { startTestServer, type Tenant, type TestServer } from '../support/test-server.js';
import { percentile, reportLine } from './support/report.js';

/**
 * Slow clients: 200 connections that send their headers, or their body, one byte per second.
 * Each must be cut off within the server's limits (+1 s); while they hang, /healthz and an
 * authenticated GET keep answering quickly. The limits are shortened (3 s / 6 s instead of the
 * contract's 10 s / 30 s, which test/http/conventions-slow-clients.test.ts checks as they are)
 * so the test stays short; the mechanism is the same.
 */
const HEADERS_MS = 3000;
const REQUEST_MS = 6000;
const CONNECTIONS = 200;
const SLACK_MS = 1000;
const P99_LIMIT_MS = 100;

interface SlowOutcome {
  kind: 'headers' | 'body';
  closedAfterMs: number;
  /** The server had not closed it by the limit + 4 s (the test closed it). */
  timedOut: boolean;
  /** The status the server answered with (408), or undefined when it closed without one. */
  status: number | undefined;
}

/**
 * Opens a TLS connection and sends `text`, all of it before `from` at once, then a byte a
 * second until the server closes. Resolves once connected, with the outcome to wait for.
 */
async function startSlowClient(
  server: TestServer,
  kind: 'headers' | 'body',
  text: string,
  from: number,
  limitMs: number,
): Promise<{ outcome: Promise<SlowOutcome> }> {
  const socket = await connectTls(server.port, server.ca);
  const closed = readUntilClosed(socket, limitMs + 4000);
  socket.write(text.slice(0, from));
  let next = from;
  const drip = setInterval(() => {
    if (next < text.length && !socket.destroyed) socket.write(text[next++]!);
  }, 1000);
  const outcome = closed
    .finally(() => clearInterval(drip))
    .then((result): SlowOutcome => {
      let status: number | undefined;
      try {
        status = parseHttpResponse(result.data).status;
      } catch {
        status = undefined;
      }
      return { kind, closedAfterMs: result.closedAfterMs, timedOut: result.timedOut, status };
    });
  return { outcome };
}

describe.each(PROTOCOL_ENGINES)('slow clients on %s', (engine) => {
  let server: TestServer;
  let tenant: Tenant;

  beforeAll(async () => {
    server = await startTestServer(engine, {}, { app: { timeouts: { headersTimeout: HEADERS_MS, requestTimeout: REQUEST_MS } } });
    tenant = await server.createTenant();
  });
  afterAll(() => server.close());

  it(`cuts off ${CONNECTIONS} byte-a-second clients in time while others are served quickly`, async () => {
    const headerText = `GET /v1/customers HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${tenant.token}\r\nX-Padding: ${'p'.repeat(64)}\r\n\r\n`;
    const body = JSON.stringify({ email: 'slow@example.com', firstName: 'S'.repeat(40) });
    const bodyHead = `POST /v1/customers HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${tenant.token}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
    // Warm: the measuring client's connection is open before the slow ones arrive.
    expect((await server.request('GET', '/healthz')).status).toBe(200);

    const clients = await Promise.all(
      Array.from({ length: CONNECTIONS }, (_, i) =>
        i % 2 === 0
          ? startSlowClient(server, 'headers', headerText, 1, HEADERS_MS)
          : startSlowClient(server, 'body', bodyHead + body, bodyHead.length + 1, REQUEST_MS),
      ),
    );
    let hanging = true;
    const all = Promise.all(clients.map((client) => client.outcome)).finally(() => (hanging = false));

    // While all of them hang (connected, a byte a second): one request every 20 ms, alternating an unauthenticated and an authenticated one.
    const latencies = { health: [] as number[], authenticated: [] as number[] };
    for (let i = 0; hanging && i < 1000; i++) {
      const started = performance.now();
      const response = i % 2 === 0 ? await server.request('GET', '/healthz') : await server.request('GET', '/v1/customers?count=10', { token: tenant.token });
      expect(response.status).toBe(200);
      (i % 2 === 0 ? latencies.health : latencies.authenticated).push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const outcomes = await all;

    const late = outcomes.filter((outcome) => outcome.timedOut || outcome.closedAfterMs > (outcome.kind === 'headers' ? HEADERS_MS : REQUEST_MS) + SLACK_MS);
    const without408 = outcomes.filter((outcome) => outcome.status !== 408);
    const slowest = (kind: SlowOutcome['kind']) => Math.max(...outcomes.filter((outcome) => outcome.kind === kind).map((outcome) => outcome.closedAfterMs));
    const p99 = { health: percentile(latencies.health, 0.99), authenticated: percentile(latencies.authenticated, 0.99) };
    reportLine(
      `slow/${engine}: ${CONNECTIONS} byte-a-second clients, ${late.length} closed late (limits ${HEADERS_MS / 1000} s / ${REQUEST_MS / 1000} s + 1 s; slowest closed after ${(slowest('headers') / 1000).toFixed(2)} s / ${(slowest('body') / 1000).toFixed(2)} s), ` +
        `${without408.length} without a 408; meanwhile p99 /healthz ${p99.health.toFixed(0)} ms, authenticated GET ${p99.authenticated.toFixed(0)} ms (${latencies.health.length + latencies.authenticated.length} requests)`,
    );
    expect(late).toEqual([]);
    expect(without408).toEqual([]);
    expect(latencies.authenticated.length).toBeGreaterThanOrEqual(50);
    expect(p99.health).toBeLessThan(P99_LIMIT_MS);
    expect(p99.authenticated).toBeLessThan(P99_LIMIT_MS);
    // Nothing the slow POSTs carried was stored.
    expect(((await server.request('GET', '/v1/customers/count', { token: tenant.token })).body as { count: number }).count).toBe(0);
  }, 60_000);
});

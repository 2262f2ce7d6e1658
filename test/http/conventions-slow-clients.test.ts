import type { TLSSocket } from 'node:tls';
import { describe, expect, it } from 'vitest';
import { HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS } from '../../src/app/build-app.js';
import { customerCount } from '../support/conventions.js';
import { PROTOCOL_ENGINES } from '../support/engines.js';
import { connectTls, parseHttpResponse, readUntilClosed } from '../support/raw-http.js';
import { suiteServer } from '../support/suite-server.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/**
 * Contract §3 "Strict input": headers within 10 s, the whole request within 30 s, else 408 and
 * the connection closed; a stalled client never delays other requests.
 */
const engines = PROTOCOL_ENGINES;

/** How late Node may notice an expired request (its check runs every 500 ms) plus scheduling. */
const SLACK_MS = 1500;

function expectTimedOutAnswer(data: Buffer): void {
  const response = parseHttpResponse(data);
  expect(response.status).toBe(408);
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  expect(response.headers.connection).toBe('close');
  expect(response.body).toEqual({ code: 14, message: expect.stringMatching(/too long/) });
  // One answer only.
  expect(data.toString('latin1').match(/HTTP\/1\.1 \d{3} /g)).toHaveLength(1);
}

/** Times an authenticated GET. */
async function timedGet(server: TestServer, token: string): Promise<number> {
  const started = Date.now();
  const response = await server.request('GET', '/v1/customers', { token });
  expect(response.status).toBe(200);
  return Date.now() - started;
}

describe('contract §3 slow clients, with the default limits', () => {
  // Both engines at once: the wait is the server's, not the test's.
  it.concurrent.each(engines)('cuts off a client that stalls within its headers after 10 s, while serving others, on %s', async (engine) => {
    const server = await startTestServer(engine);
    try {
      const tenant = await server.createTenant();
      expect(HEADERS_TIMEOUT_MS).toBe(10_000);
      expect(REQUEST_TIMEOUT_MS).toBe(30_000);
      expect(server.app.server.headersTimeout).toBe(10_000);
      expect(server.app.server.requestTimeout).toBe(30_000);

      const stalled = await connectTls(server.port, server.ca);
      const outcome = readUntilClosed(stalled, HEADERS_TIMEOUT_MS + 4000);
      stalled.write(`GET /v1/customers HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${tenant.token.slice(0, 10)}`);

      // Others are served at once while it hangs.
      const latencies: number[] = [];
      for (let i = 0; i < 4; i++) {
        await new Promise((resolve) => setTimeout(resolve, 2000));
        latencies.push(await timedGet(server, tenant.token));
      }
      // Far below the 10 s a request queued behind the stalled one would wait.
      expect(Math.max(...latencies)).toBeLessThan(2000);

      const result = await outcome;
      expect(result.timedOut, 'the server closed the connection').toBe(false);
      expect(result.closedAfterMs).toBeGreaterThanOrEqual(HEADERS_TIMEOUT_MS - 500);
      expect(result.closedAfterMs).toBeLessThanOrEqual(HEADERS_TIMEOUT_MS + SLACK_MS);
      expectTimedOutAnswer(result.data);
    } finally {
      await server.close();
    }
  });
});

// Each test waits on its own connection: they run side by side.
describe.concurrent.each(engines)('contract §3 slow clients, with shortened limits, on %s', (engine) => {
  const HEADERS_MS = 1000;
  const REQUEST_MS = 2000;
  const suite = suiteServer(engine, { app: { timeouts: { headersTimeout: HEADERS_MS, requestTimeout: REQUEST_MS } }, tenants: 1 });

  it('cuts off stalled headers after the headers limit', async () => {
    const socket = await connectTls(suite.server.port, suite.server.ca);
    const outcome = readUntilClosed(socket, HEADERS_MS + 4000);
    socket.write('GET /v1/customers HTTP/1.1\r\nHost: local');
    const result = await outcome;
    expect(result.timedOut).toBe(false);
    expect(result.closedAfterMs).toBeLessThanOrEqual(HEADERS_MS + SLACK_MS);
    expectTimedOutAnswer(result.data);
  });

  it('cuts off a stalled body after the whole-request limit, and stores nothing', async () => {
    const own = await suite.server.createTenant();
    const socket = await connectTls(suite.server.port, suite.server.ca);
    const outcome = readUntilClosed(socket, REQUEST_MS + 4000);
    const body = JSON.stringify({ email: 'slow-body@example.com' });
    socket.write(
      `POST /v1/customers HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${own.token}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 10)}`,
    );
    const result = await outcome;
    expect(result.timedOut).toBe(false);
    expect(result.closedAfterMs).toBeGreaterThanOrEqual(REQUEST_MS - 600);
    expect(result.closedAfterMs).toBeLessThanOrEqual(REQUEST_MS + SLACK_MS);
    expectTimedOutAnswer(result.data);
    expect(await customerCount(suite.server, own.token)).toBe(0);
  });

  /** Writes `text` a byte every 100 ms from `from` on, until the server closes the connection (bounded by the text's length). */
  async function drip(socket: TLSSocket, text: string, from: number, closed: () => boolean): Promise<void> {
    for (let i = from; i < text.length && !closed(); i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      if (!closed() && !socket.destroyed) socket.write(text[i]!);
    }
  }

  it('cuts off a client that trickles its headers past the headers limit', async () => {
    const socket = await connectTls(suite.server.port, suite.server.ca);
    let closed = false;
    const outcome = readUntilClosed(socket, HEADERS_MS + 4000).finally(() => (closed = true));
    await drip(socket, `GET /v1/customers HTTP/1.1\r\nHost: localhost\r\nX-Padding: ${'p'.repeat(100)}\r\n\r\n`, 0, () => closed);
    const result = await outcome;
    expect(result.timedOut).toBe(false);
    expect(result.closedAfterMs).toBeLessThanOrEqual(HEADERS_MS + SLACK_MS);
    expectTimedOutAnswer(result.data);
  });

  it('cuts off a client that trickles its body past the whole-request limit, and stores nothing', async () => {
    const own = await suite.server.createTenant();
    const socket = await connectTls(suite.server.port, suite.server.ca);
    let closed = false;
    const outcome = readUntilClosed(socket, REQUEST_MS + 4000).finally(() => (closed = true));
    const body = JSON.stringify({ email: 'trickle@example.com', firstName: 'T'.repeat(20) });
    const head = `POST /v1/customers HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${own.token}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
    socket.write(head);
    await drip(socket, head + body, head.length, () => closed);
    const result = await outcome;
    expect(result.timedOut).toBe(false);
    expect(result.closedAfterMs).toBeGreaterThanOrEqual(REQUEST_MS - 600);
    expect(result.closedAfterMs).toBeLessThanOrEqual(REQUEST_MS + SLACK_MS);
    expectTimedOutAnswer(result.data);
    expect(await customerCount(suite.server, own.token)).toBe(0);
  });

  it('answers a stalled second request of a kept-alive connection with 408 too', async () => {
    const socket = await connectTls(suite.server.port, suite.server.ca);
    const outcome = readUntilClosed(socket, HEADERS_MS + 5000);
    socket.write(
      `GET /v1/customers/count HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${suite.tenant.token}\r\n\r\nGET /v1/customers HTTP/1.1\r\nHost: loc`,
    );
    const result = await outcome;
    expect(result.timedOut).toBe(false);
    const text = result.data.toString('utf8');
    const second = text.indexOf('HTTP/1.1 ', 1);
    expect(second, text).toBeGreaterThan(0);
    expect(parseHttpResponse(result.data.subarray(0, Buffer.byteLength(text.slice(0, second)))).status).toBe(200);
    expectTimedOutAnswer(Buffer.from(text.slice(second)));
  });

  it('does not add a 408 after an answer already sent when the rest of the body never comes', async () => {
    const socket = await connectTls(suite.server.port, suite.server.ca);
    const outcome = readUntilClosed(socket, REQUEST_MS + 4000);
    // Refused on its Content-Type before the body is read; the body then stalls.
    socket.write(
      `POST /v1/customers HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${suite.tenant.token}\r\nContent-Type: text/plain\r\nContent-Length: 100\r\n\r\nabc`,
    );
    const result = await outcome;
    expect(result.timedOut).toBe(false);
    const text = result.data.toString('utf8');
    expect(text.match(/HTTP\/1\.1 \d{3} /g)).toEqual(['HTTP/1.1 415 ']);
    expect(parseHttpResponse(result.data).body).toEqual({ code: 7, message: expect.any(String) });
  });
});

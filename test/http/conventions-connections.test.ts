import type net from 'node:net';
import { request as undiciRequest } from 'undici';
import { describe, expect, it } from 'vitest';
import { METRICS_MAX_CONNECTIONS } from '../../src/http/server/metrics-listener.js';
import { PROTOCOL_ENGINES } from '../support/engines.js';
import { clientHelloPart, connectTls, rawTlsExchange, readUntilClosed, silentSocket, type SocketOutcome } from '../support/raw-http.js';
import { suiteServer } from '../support/suite-server.js';
import { startTestServer, type TestServer, type TestServerOptions } from '../support/test-server.js';

/**
 * Connections that never become requests, and the connection slots: a TLS handshake that does
 * not finish is dropped (never answered: there is no TLS channel to answer on); a connection
 * that sends no request is closed at the first-request deadline; a full listener, or an address
 * at its cap, closes its oldest idle connection to make room and refuses a new one only when
 * every connection has a request in flight. Other clients are played by other 127.x addresses.
 * The fault suite checks the same at the real limits (docs/reliability.md).
 */
const HANDSHAKE_MS = 1000;
const engines = PROTOCOL_ENGINES;

describe.each(engines)('connections that never become requests on %s', (engine) => {
  const suite = suiteServer(engine, { tenants: 1, app: { timeouts: { handshakeTimeout: HANDSHAKE_MS } } });

  it('closes a connection that sends nothing, or half a ClientHello, at the handshake limit, without writing to it', async () => {
    const half = await clientHelloPart(0.5);
    const sockets = await Promise.all([
      silentSocket(suite.server.port),
      silentSocket(suite.server.port, half),
      silentSocket(suite.server.port, Buffer.from('GET / HTTP/1.1\r\n\r\n')),
    ]);
    const outcomes = await Promise.all(sockets.map((socket) => readUntilClosed(socket, HANDSHAKE_MS + 5000)));
    for (const [index, outcome] of outcomes.entries()) {
      expect(outcome.timedOut, `socket ${index} still open`).toBe(false);
      expect(outcome.closedAfterMs, `socket ${index}`).toBeLessThan(HANDSHAKE_MS + 2000);
    }
    // Nothing was written to the handshake-less sockets (an HTTP 400 there was the old leak).
    expect(outcomes[0]!.data.length).toBe(0);
    expect(outcomes[1]!.data.length).toBe(0);
    expect((await suite.server.request('GET', '/healthz')).status).toBe(200);
  });
});

const MAX = 30;
const PER_ADDRESS = 10;
const FIRST_REQUEST_MS = 1000;
const PROXY = '127.0.0.3';
/** Long enough for the server to have taken in a connection just opened, or closed one. */
const SETTLE_MS = 300;

/** A connection the test holds, and what became of it. */
interface Held {
  socket: net.Socket;
  outcome: Promise<SocketOutcome>;
  closed(): boolean;
}

function watch(socket: net.Socket): Held {
  let closed = false;
  const outcome = readUntilClosed(socket, 30_000).finally(() => (closed = true));
  return { socket, outcome, closed: () => closed };
}

/** `count` connections from `address` that never finish their TLS handshake, opened one after the other. */
async function holdSilent(port: number, address: string, count: number): Promise<Held[]> {
  const held: Held[] = [];
  for (let i = 0; i < count; i++) held.push(watch(await silentSocket(port, undefined, address)));
  return held;
}

/**
 * `count` requests from `address` that stay in flight: the headers of an authenticated POST
 * whose body never comes (until the 30 s whole-request limit).
 */
async function holdInFlight(server: TestServer, token: string, address: string, count: number): Promise<Held[]> {
  const held: Held[] = [];
  for (let i = 0; i < count; i++) {
    const socket = await connectTls(server.port, server.ca, address);
    socket.write(
      `POST /v1/customers HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"email":`,
    );
    held.push(watch(socket));
  }
  return held;
}

function settle(ms = SETTLE_MS): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function openCount(held: readonly Held[]): number {
  return held.filter((connection) => !connection.closed()).length;
}

/** `GET /healthz` over a new connection from `address`. */
async function healthFrom(server: TestServer, address: string): Promise<number> {
  const response = await rawTlsExchange(server.port, server.ca, 'GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n', 5000, address);
  return response.status;
}

// A server of its own per check: its slots start empty (the test client's own pooled connections
// would take some). Requests go over connections of their own, from addresses of their own.
describe.each(engines)('connection slots on %s', (engine) => {
  async function withServer(env: Record<string, string>, work: (server: TestServer) => Promise<void>, options: TestServerOptions = {}): Promise<void> {
    const server = await startTestServer(
      engine,
      { PRICEBOOK_MAX_CONNECTIONS: String(MAX), PRICEBOOK_MAX_CONNECTIONS_PER_ADDRESS: String(PER_ADDRESS), ...env },
      { ...options, app: { ...options.app, timeouts: { firstRequestTimeout: FIRST_REQUEST_MS } } },
    );
    try {
      await work(server);
    } finally {
      await server.close();
    }
  }

  it(`closes the oldest idle connection of an address at its cap (${PER_ADDRESS}) to make room, and leaves other addresses alone`, async () => {
    await withServer({}, async (server) => {
      const first = await holdSilent(server.port, '127.0.0.2', PER_ADDRESS);
      const other = await holdSilent(server.port, '127.0.0.4', 5);
      await settle();
      const more = await holdSilent(server.port, '127.0.0.2', 3);
      await settle();
      try {
        expect(first.map((connection) => connection.closed())).toEqual([true, true, true, ...Array.from({ length: PER_ADDRESS - 3 }, () => false)]);
        expect(openCount(more)).toBe(3);
        expect(openCount(other)).toBe(5);
        for (const connection of first.slice(0, 3)) expect((await connection.outcome).data.length, 'nothing written').toBe(0);
        expect(await healthFrom(server, '127.0.0.4')).toBe(200);
      } finally {
        for (const connection of [...first, ...other, ...more]) connection.socket.destroy();
      }
    });
  });

  it('keeps one connection per address with a cap of 1: each new one closes the one before', async () => {
    await withServer({ PRICEBOOK_MAX_CONNECTIONS_PER_ADDRESS: '1' }, async (server) => {
      const held: Held[] = [];
      try {
        for (let i = 0; i < 4; i++) {
          held.push(...(await holdSilent(server.port, '127.0.0.2', 1)));
          await settle(100);
        }
        expect(held.map((connection) => connection.closed())).toEqual([true, true, true, false]);
      } finally {
        for (const connection of held) connection.socket.destroy();
      }
      await settle(100);
      expect(await healthFrom(server, '127.0.0.2')).toBe(200);
    });
  });

  it('refuses a new connection of an address whose connections all carry a request, and serves another address meanwhile', async () => {
    await withServer({}, async (server) => {
      const tenant = await server.createTenant();
      const busy = await holdInFlight(server, tenant.token, '127.0.0.2', PER_ADDRESS);
      await settle();
      try {
        const refused = await readUntilClosed(await silentSocket(server.port, undefined, '127.0.0.2'), 3000);
        expect(refused.timedOut, 'a connection past the address cap stayed open').toBe(false);
        expect(refused.closedAfterMs).toBeLessThan(500);
        expect(refused.data.length).toBe(0);
        expect(openCount(busy)).toBe(PER_ADDRESS);
        expect(await healthFrom(server, '127.0.0.4')).toBe(200);
        // One of them ends: the address has room again.
        busy[0]!.socket.destroy();
        await settle();
        expect(await healthFrom(server, '127.0.0.2')).toBe(200);
      } finally {
        for (const connection of busy) connection.socket.destroy();
      }
    });
  });

  it(`closes the oldest idle connection of a full listener (${MAX}) to make room, and logs it once`, async () => {
    const log: string[] = [];
    await withServer(
      {},
      async (server) => {
        const held = [
          ...(await holdSilent(server.port, '127.0.0.2', PER_ADDRESS)),
          ...(await holdSilent(server.port, '127.0.0.4', PER_ADDRESS)),
          ...(await holdSilent(server.port, '127.0.0.5', PER_ADDRESS)),
        ];
        await settle();
        const extra = await holdSilent(server.port, '127.0.0.6', 1);
        await settle();
        try {
          expect(held.map((connection) => connection.closed())).toEqual([true, ...Array.from({ length: MAX - 1 }, () => false)]);
          expect(openCount(extra)).toBe(1);
          // A whole request from yet another address: it takes the next oldest idle one's place.
          expect(await healthFrom(server, '127.0.0.7')).toBe(200);
          expect(held[1]!.closed()).toBe(true);
          expect(openCount(held)).toBe(MAX - 2);
        } finally {
          for (const connection of [...held, ...extra]) connection.socket.destroy();
        }
      },
      { app: { logger: { level: 'warn', stream: { write: (line: string) => log.push(line) } } } },
    );
    const warnings = log
      .map((line) => JSON.parse(line) as { msg: string; closedForListener: number; maxConnections: number })
      .filter((line) => /connection limits/.test(line.msg));
    // At most one a minute: the first closing says so, the second waits for the next minute.
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ closedForListener: 1, maxConnections: MAX, maxConnectionsPerAddress: PER_ADDRESS });
    expect(warnings[0]!.msg).toMatch(/PRICEBOOK_MAX_CONNECTIONS/);
  });

  it('refuses a new connection at once when every connection of a full listener carries a request, and accepts again when one ends', async () => {
    await withServer({}, async (server) => {
      const tenant = await server.createTenant();
      const busy = [
        ...(await holdInFlight(server, tenant.token, '127.0.0.2', PER_ADDRESS)),
        ...(await holdInFlight(server, tenant.token, '127.0.0.4', PER_ADDRESS)),
        ...(await holdInFlight(server, tenant.token, '127.0.0.5', PER_ADDRESS)),
      ];
      await settle();
      try {
        const refused = await readUntilClosed(await silentSocket(server.port, undefined, '127.0.0.6'), 3000);
        expect(refused.timedOut, 'a connection past the cap stayed open').toBe(false);
        expect(refused.closedAfterMs).toBeLessThan(500);
        expect(refused.data.length).toBe(0);
        expect(openCount(busy)).toBe(MAX);
        busy[0]!.socket.destroy();
        await settle();
        expect(await healthFrom(server, '127.0.0.6')).toBe(200);
      } finally {
        for (const connection of busy) connection.socket.destroy();
      }
    });
  });

  it(`gives a trusted proxy (${PROXY}) no cap of its own, and keeps the cap of other addresses`, async () => {
    await withServer({ PRICEBOOK_TRUST_PROXY: PROXY }, async (server) => {
      const proxy = await holdSilent(server.port, PROXY, PER_ADDRESS + 5);
      const client = await holdSilent(server.port, '127.0.0.2', PER_ADDRESS + 1);
      await settle();
      try {
        expect(openCount(proxy)).toBe(PER_ADDRESS + 5);
        expect(openCount(client)).toBe(PER_ADDRESS);
        expect(client[0]!.closed()).toBe(true);
      } finally {
        for (const connection of [...proxy, ...client]) connection.socket.destroy();
      }
    });
  });

  it(`closes a connection that sends no request ${FIRST_REQUEST_MS} ms after its handshake, without an answer, on both listeners; a begun request waits for the headers limit`, async () => {
    await withServer(
      {},
      async (server) => {
        const plainPort = Number(new URL(server.plainBaseUrl!).port);
        const [silentTls, begun, silentPlain] = await Promise.all([
          connectTls(server.port, server.ca, '127.0.0.2'),
          connectTls(server.port, server.ca, '127.0.0.2'),
          silentSocket(plainPort, undefined, '127.0.0.2'),
        ]);
        begun.write('GET /healthz HTTP/1.1\r\nHost: loc');
        const watched = [watch(silentTls), watch(begun), watch(silentPlain)];
        try {
          await settle(FIRST_REQUEST_MS + 800);
          expect(watched.map((connection) => connection.closed())).toEqual([true, false, true]);
          for (const connection of [watched[0]!, watched[2]!]) {
            const outcome = await connection.outcome;
            expect(outcome.data.length, 'nothing written').toBe(0);
            expect(outcome.closedAfterMs).toBeGreaterThanOrEqual(FIRST_REQUEST_MS - 100);
          }
        } finally {
          for (const connection of watched) connection.socket.destroy();
        }
      },
      { plainHttp: true },
    );
  });

  it(`keeps the metrics listener open to a scraper while its ${METRICS_MAX_CONNECTIONS} connections are taken by silent ones, and closes those at the first-request deadline`, async () => {
    await withServer(
      {},
      async (server) => {
        const port = Number(new URL(server.metricsBaseUrl!).port);
        const silent = await holdSilent(port, '127.0.0.1', METRICS_MAX_CONNECTIONS);
        await settle(100);
        try {
          const started = performance.now();
          const response = await undiciRequest(`${server.metricsBaseUrl}/metrics`, { reset: true });
          await response.body.text();
          expect(response.statusCode).toBe(200);
          expect(performance.now() - started).toBeLessThan(1000);
          // The oldest made room for the scrape; the others go at the deadline.
          expect(silent[0]!.closed()).toBe(true);
          const outcomes = await Promise.all(silent.map((connection) => connection.outcome));
          for (const outcome of outcomes.slice(1)) {
            expect(outcome.timedOut).toBe(false);
            expect(outcome.closedAfterMs).toBeLessThan(FIRST_REQUEST_MS + 1500);
            expect(outcome.data.length).toBe(0);
          }
        } finally {
          for (const connection of silent) connection.socket.destroy();
        }
      },
      { metrics: true },
    );
  });
});

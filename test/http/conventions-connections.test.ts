import { describe, expect, it } from 'vitest';
import { enginesUnderTest } from '../support/engines.js';
import { clientHelloPart, readUntilClosed, silentSocket } from '../support/raw-http.js';
import { suiteServer } from '../support/suite-server.js';

/**
 * Connections that never become requests: a TLS handshake that does not finish is dropped
 * (never answered: there is no TLS channel to answer on), and connections beyond
 * PRICEBOOK_MAX_CONNECTIONS are refused at once. The fault suite checks the same with 400
 * sockets and the real 10 s handshake limit (docs/reliability.md).
 */
const HANDSHAKE_MS = 1000;
const MAX_CONNECTIONS = 30;

describe.each(await enginesUnderTest())('connections that never become requests on %s', (engine) => {
  const suite = suiteServer(engine, { tenants: 1, env: { PRICEBOOK_MAX_CONNECTIONS: String(MAX_CONNECTIONS) }, app: { timeouts: { handshakeTimeout: HANDSHAKE_MS } } });

  it('closes a connection that sends nothing, or half a ClientHello, at the handshake limit, without writing to it', async () => {
    const half = await clientHelloPart(0.5);
    const sockets = await Promise.all([silentSocket(suite.server.port), silentSocket(suite.server.port, half), silentSocket(suite.server.port, Buffer.from('GET / HTTP/1.1\r\n\r\n'))]);
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

  it(`refuses connections beyond PRICEBOOK_MAX_CONNECTIONS (${MAX_CONNECTIONS}) at once, and accepts again when they close`, async () => {
    const held = [];
    // Some of the allowance is the test client's own pooled connections: fill what is left.
    for (let i = 0; i < MAX_CONNECTIONS; i++) held.push(await silentSocket(suite.server.port));
    try {
      const extra = await silentSocket(suite.server.port);
      const outcome = await readUntilClosed(extra, 3000);
      expect(outcome.timedOut, 'a connection past the cap stayed open').toBe(false);
      expect(outcome.closedAfterMs).toBeLessThan(500);
      expect(outcome.data.length).toBe(0);
    } finally {
      for (const socket of held) socket.destroy();
    }
    // Closed connections free their places.
    const deadline = Date.now() + 5000;
    let status = 0;
    while (Date.now() < deadline) {
      status = await suite.server.request('GET', '/healthz').then((response) => response.status, () => 0);
      if (status === 200) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(status).toBe(200);
  });
});

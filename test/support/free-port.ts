import fs from 'node:fs';
import net from 'node:net';

/**
 * Ports below the kernel's ephemeral range, which outgoing connections (to PostgreSQL, Redis,
 * the servers under test) draw from: a port handed out here cannot be taken by one of them in
 * the moment between the probe and the listen, as a port-0 probe's could.
 */
const EPHEMERAL_START = ephemeralRangeStart();
const LOWEST = 10_000;
const ATTEMPTS = 50;
/** Ports this process handed out already: never twice, though each was closed again at once. */
const handedOut = new Set<number>();

function ephemeralRangeStart(): number {
  try {
    const [start] = fs.readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
    return start !== undefined && Number.isInteger(start) && start > LOWEST + 1000 ? start : 32_768;
  } catch {
    return 32_768;
  }
}

function probe(port: number): Promise<number | undefined> {
  const server = net.createServer();
  return new Promise((resolve) => {
    server.once('error', () => resolve(undefined));
    server.listen(port, '127.0.0.1', () => {
      const { port: bound } = server.address() as net.AddressInfo;
      server.close(() => resolve(bound));
    });
  });
}

/**
 * A TCP port of 127.0.0.1 that was free a moment ago: a random one below the ephemeral range that
 * a listener could take and closed again (a port-0 one if 50 tries found none).
 */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const candidate = LOWEST + Math.floor(Math.random() * (EPHEMERAL_START - LOWEST));
    if (handedOut.has(candidate)) continue;
    const port = await probe(candidate);
    if (port !== undefined) {
      handedOut.add(port);
      return port;
    }
  }
  const port = await probe(0);
  if (port === undefined) throw new Error('no free TCP port on 127.0.0.1');
  handedOut.add(port);
  return port;
}

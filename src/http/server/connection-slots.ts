import type http from 'node:http';
import { isIPv4, isIPv6, type Server, type Socket } from 'node:net';
import { Server as TlsServer, type TLSSocket } from 'node:tls';

/**
 * A connection that has not sent the first byte of a request this long after it opened (after
 * its TLS handshake, on the HTTPS listener) is closed without an answer: there is nothing to
 * answer. The same 5 s as the keep-alive timeout, so no connection waits longer than that for a
 * request, first or next. A request that has begun stays under the headers limit (10 s, 408).
 */
export const FIRST_REQUEST_TIMEOUT_MS = 5_000;

/** Refusals and closed idle connections are logged at most this often. */
const WARN_EVERY_MS = 60_000;

export interface ConnectionLimits {
  /** Open connections the listener holds. */
  max: number;
  /** Open connections one client address holds (an IPv4 address, or an IPv6 /64 network). */
  perAddress: number;
  /** Addresses without a cap of their own (trusted proxies: each carries many clients). */
  exempt: (address: string) => boolean;
  /** See FIRST_REQUEST_TIMEOUT_MS. */
  firstRequestMs: number;
  /** What the warning says was reached (the settings behind the caps). */
  label: string;
}

export type ConnectionWarning = (details: object, message: string) => void;

interface Slot {
  /** The TCP connection: destroying it closes whatever runs over it. */
  readonly socket: Socket;
  /** Its address's group, or undefined when the address is exempt from the per-address cap. */
  readonly group: AddressGroup | undefined;
  /** `address port`, while its TLS handshake runs. */
  readonly handshakePeer: string | undefined;
  /** What carries the requests: the TLS socket once the handshake is done, else the TCP one. */
  stream: Socket | undefined;
  /** Requests whose headers arrived and whose answer is not finished. */
  inFlight: number;
  requests: number;
  firstRequestTimer: NodeJS.Timeout | undefined;
  closed: boolean;
}

interface AddressGroup {
  readonly key: string;
  open: number;
  /** Its connections without a request in flight, the one idle longest first. */
  readonly idle: Set<Slot>;
}

/**
 * Caps a listener's open connections, and one client address's, without letting idle
 * connections lock anyone out:
 *
 * - A new connection from an address at its cap (`perAddress`) closes that address's oldest idle
 *   connection to make room; only when all of them have a request in flight is it refused.
 *   Addresses for which `exempt` is true have no cap of their own.
 * - A new connection to a full listener (`max`) closes the listener's oldest idle connection the
 *   same way; only when every connection has a request in flight is it refused.
 * - A connection that sends nothing is closed `firstRequestMs` after it opened (after its TLS
 *   handshake: a handshake has a limit of its own).
 *
 * "Idle" means no request in flight: its headers have not all arrived, or its answer is
 * finished. A connection still in its TLS handshake is idle too. The one idle longest is the one
 * whose last answer finished first (or that opened first, if it has not had a request). Closed
 * connections get no answer, as a kept-alive connection closed by its timeout gets none.
 * Refusals and closings are logged as one warning at most once a minute.
 */
export function limitConnections(server: Server, limits: ConnectionLimits, warn: ConnectionWarning): void {
  const encrypted = server instanceof TlsServer;
  const slots = new ConnectionSlots(limits, new LimitWarning(limits, warn));
  // Every connection passes the slots first; the server's own handling (TLS, then HTTP) sees
  // only the ones given a slot, so a refused connection costs no TLS or HTTP state.
  const handlers = server.listeners('connection') as ((socket: Socket) => void)[];
  server.removeAllListeners('connection');
  server.on('connection', (socket: Socket) => {
    const slot = slots.admit(socket, encrypted);
    if (slot === undefined) return;
    for (const handler of handlers) handler.call(server, socket);
  });
  if (encrypted) server.on('secureConnection', (socket: TLSSocket) => slots.secured(socket));
  server.on('request', (request: http.IncomingMessage, response: http.ServerResponse) => slots.requested(request.socket, response));
}

class ConnectionSlots {
  private open = 0;
  /** Every connection without a request in flight, the one idle longest first. */
  private readonly idle = new Set<Slot>();
  private readonly groups = new Map<string, AddressGroup>();
  /** Connections in their TLS handshake, by peer address and port (the TLS socket has the same). */
  private readonly handshaking = new Map<string, Slot>();
  private readonly byStream = new WeakMap<Socket, Slot>();

  constructor(
    private readonly limits: ConnectionLimits,
    private readonly warning: LimitWarning,
  ) {}

  /** A slot for a new connection, closing an idle one to make room; undefined when refused (the socket is destroyed). */
  admit(socket: Socket, encrypted: boolean): Slot | undefined {
    const address = socket.remoteAddress;
    if (address === undefined) {
      // Already gone (reset before it was accepted).
      socket.destroy();
      return undefined;
    }
    const key = this.limits.exempt(address) ? undefined : addressGroupOf(address);
    const crowded = key === undefined ? undefined : this.groups.get(key);
    if (crowded !== undefined && crowded.open >= this.limits.perAddress && !this.makeRoom(crowded.idle, 'address', address)) {
      this.warning.note('refusedAddress', address);
      socket.destroy();
      return undefined;
    }
    if (this.open >= this.limits.max && !this.makeRoom(this.idle, 'listener', address)) {
      this.warning.note('refusedListener', address);
      socket.destroy();
      return undefined;
    }
    // Looked up again: making room may have closed the group's last connection, and dropped it.
    let group = key === undefined ? undefined : this.groups.get(key);
    if (key !== undefined && group === undefined) {
      group = { key, open: 0, idle: new Set() };
      this.groups.set(key, group);
    }
    const handshakePeer = encrypted ? peerOf(socket) : undefined;
    const slot: Slot = { socket, group, handshakePeer, stream: undefined, inFlight: 0, requests: 0, firstRequestTimer: undefined, closed: false };
    this.open += 1;
    if (group !== undefined) group.open += 1;
    this.markIdle(slot);
    socket.once('close', () => this.release(slot));
    if (handshakePeer !== undefined) this.handshaking.set(handshakePeer, slot);
    else this.carry(slot, socket);
    return slot;
  }

  /** The TLS handshake is done: requests come over `socket` from now on. */
  secured(socket: TLSSocket): void {
    const peer = peerOf(socket);
    const slot = this.handshaking.get(peer);
    if (slot === undefined) return;
    this.handshaking.delete(peer);
    if (!slot.closed) this.carry(slot, socket);
  }

  requested(stream: Socket, response: http.ServerResponse): void {
    const slot = this.byStream.get(stream);
    if (slot === undefined || slot.closed) return;
    slot.requests += 1;
    clearTimeout(slot.firstRequestTimer);
    if (slot.inFlight === 0) this.markBusy(slot);
    slot.inFlight += 1;
    response.once('close', () => {
      slot.inFlight -= 1;
      if (slot.inFlight === 0 && !slot.closed) this.markIdle(slot);
    });
  }

  private carry(slot: Slot, stream: Socket): void {
    slot.stream = stream;
    this.byStream.set(stream, slot);
    slot.firstRequestTimer = setTimeout(() => {
      // A request begun (a byte of it read) is the headers limit's business.
      if (slot.requests === 0 && stream.bytesRead === 0) this.close(slot);
    }, this.limits.firstRequestMs);
    slot.firstRequestTimer.unref();
  }

  /** Closes the oldest of `idle`; false when there is none. */
  private makeRoom(idle: Set<Slot>, kind: 'address' | 'listener', address: string): boolean {
    const oldest = idle.values().next();
    if (oldest.done === true) return false;
    this.close(oldest.value);
    this.warning.note(kind === 'address' ? 'closedForAddress' : 'closedForListener', address);
    return true;
  }

  private close(slot: Slot): void {
    this.release(slot);
    slot.socket.destroy();
  }

  private release(slot: Slot): void {
    if (slot.closed) return;
    slot.closed = true;
    clearTimeout(slot.firstRequestTimer);
    this.open -= 1;
    this.idle.delete(slot);
    const group = slot.group;
    if (group !== undefined) {
      group.open -= 1;
      group.idle.delete(slot);
      if (group.open === 0) this.groups.delete(group.key);
    }
    const peer = slot.handshakePeer;
    if (peer !== undefined && this.handshaking.get(peer) === slot) this.handshaking.delete(peer);
  }

  /** Last in line: the connection idle the shortest. */
  private markIdle(slot: Slot): void {
    this.idle.add(slot);
    slot.group?.idle.add(slot);
  }

  private markBusy(slot: Slot): void {
    this.idle.delete(slot);
    slot.group?.idle.delete(slot);
  }
}

type LimitEvent = 'refusedListener' | 'refusedAddress' | 'closedForListener' | 'closedForAddress';

/** Counts refusals and closings, and says so at most once a minute, so a flood cannot also flood the log. */
class LimitWarning {
  private counts = LimitWarning.zero();
  private since = -Infinity;

  constructor(
    private readonly limits: ConnectionLimits,
    private readonly warn: ConnectionWarning,
  ) {}

  note(event: LimitEvent, address: string): void {
    this.counts[event] += 1;
    const now = Date.now();
    if (now - this.since < WARN_EVERY_MS) return;
    this.warn(
      { ...this.counts, lastAddress: address, maxConnections: this.limits.max, maxConnectionsPerAddress: this.limits.perAddress },
      `${this.limits.label} reached: idle connections closed to make room, new ones refused when none was idle`,
    );
    this.counts = LimitWarning.zero();
    this.since = now;
  }

  private static zero(): Record<LimitEvent, number> {
    return { refusedListener: 0, refusedAddress: 0, closedForListener: 0, closedForAddress: 0 };
  }
}

/** `address port`: one TCP connection to the listener. */
function peerOf(socket: Socket): string {
  return `${socket.remoteAddress ?? ''} ${socket.remotePort ?? ''}`;
}

/**
 * What one client holds: an IPv4 address (also when written `::ffff:a.b.c.d`), or an IPv6 /64
 * network, as one host usually has a whole /64 to pick addresses from.
 */
export function addressGroupOf(address: string): string {
  const mapped = address.toLowerCase().startsWith('::ffff:') ? address.slice(7) : address;
  if (isIPv4(mapped)) return mapped;
  const plain = address.split('%', 1)[0]!;
  if (!isIPv6(plain)) return address;
  const [head = '', tail] = plain.split('::');
  const groups = (part: string) => (part === '' ? [] : part.split(':').flatMap((group) => (group.includes('.') ? ['0', '0'] : [group])));
  const first = groups(head);
  const last = tail === undefined ? [] : groups(tail);
  const all = [...first, ...Array.from({ length: 8 - first.length - last.length }, () => '0'), ...last];
  return `${all
    .slice(0, 4)
    .map((group) => parseInt(group, 16).toString(16))
    .join(':')}::/64`;
}

import net from 'node:net';
import tls from 'node:tls';

/**
 * HTTP/1.1 spoken by hand over a socket, for what an HTTP client library will not send:
 * duplicate headers, half-sent requests, bodies that stall.
 */
export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  text: string;
  /** Parsed JSON, or undefined. */
  body: unknown;
}

export interface SocketOutcome {
  /** Everything the server sent. */
  data: Buffer;
  /** Milliseconds from the start of reading until the server closed the connection. */
  closedAfterMs: number;
  /** The server had not closed it within the limit (the test closed it). */
  timedOut: boolean;
}

/**
 * A TLS connection to the test server on 127.0.0.1, verified like a client would, from
 * `localAddress` (another 127.x address plays another client; default 127.0.0.1).
 */
export function connectTls(port: number, ca: string, localAddress?: string): Promise<tls.TLSSocket> {
  return new Promise((resolve, reject) => {
    const tcp = net.connect({ host: '127.0.0.1', port, localAddress });
    const socket = tls.connect({ socket: tcp, ca, servername: 'localhost' }, () => resolve(socket));
    socket.once('error', reject);
  });
}

export function connectPlain(port: number, localAddress?: string): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: '127.0.0.1', port, localAddress }, () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Collects what the server sends until it closes the connection, at most `limitMs`. */
export function readUntilClosed(socket: net.Socket, limitMs: number): Promise<SocketOutcome> {
  const started = Date.now();
  const chunks: Buffer[] = [];
  return new Promise((resolve) => {
    let settled = false;
    const finish = (timedOut: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (timedOut) socket.destroy();
      resolve({ data: Buffer.concat(chunks), closedAfterMs: Date.now() - started, timedOut });
    };
    const timer = setTimeout(() => finish(true), limitMs);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', () => finish(false));
    socket.on('close', () => finish(false));
  });
}

/** Parses one HTTP/1.1 response (Content-Length bodies; the server never chunks error bodies). */
export function parseHttpResponse(data: Buffer): RawResponse {
  const text = data.toString('utf8');
  const end = text.indexOf('\r\n\r\n');
  if (end < 0) throw new Error(`no complete HTTP response in ${JSON.stringify(text.slice(0, 200))}`);
  const [statusLine = '', ...headerLines] = text.slice(0, end).split('\r\n');
  const status = Number(/^HTTP\/1\.1 (\d{3}) /.exec(statusLine)?.[1]);
  const headers: Record<string, string> = {};
  for (const line of headerLines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  let bodyText = text.slice(end + 4);
  if (headers['content-length'] !== undefined) bodyText = bodyText.slice(0, Number(headers['content-length']));
  let body: unknown;
  try {
    body = JSON.parse(bodyText);
  } catch {
    body = undefined;
  }
  return { status, headers, text: bodyText, body };
}

/** Sends `request` as is over a new TLS connection and reads the answer until the server closes (send `Connection: close`). */
export async function rawTlsExchange(
  port: number,
  ca: string,
  request: string | Buffer,
  limitMs = 5000,
  localAddress?: string,
): Promise<RawResponse & SocketOutcome> {
  const socket = await connectTls(port, ca, localAddress);
  const outcome = readUntilClosed(socket, limitMs);
  socket.write(request);
  const result = await outcome;
  return { ...result, ...parseHttpResponse(result.data) };
}

export async function rawPlainExchange(port: number, request: string | Buffer, limitMs = 5000): Promise<RawResponse & SocketOutcome> {
  const socket = await connectPlain(port);
  const outcome = readUntilClosed(socket, limitMs);
  socket.write(request);
  const result = await outcome;
  return { ...result, ...parseHttpResponse(result.data) };
}

/**
 * The first bytes a real TLS client sends (its ClientHello), captured from `tls.connect` to a
 * local listener that never answers; `share` of it is returned (a handshake left half-way).
 */
export async function clientHelloPart(share: number): Promise<Buffer> {
  const listener = net.createServer();
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  const { port } = listener.address() as net.AddressInfo;
  const hello = new Promise<Buffer>((resolve) => listener.once('connection', (socket) => socket.once('data', (chunk: Buffer) => resolve(chunk))));
  const client = tls.connect({ host: '127.0.0.1', port, servername: 'localhost' });
  client.on('error', () => undefined);
  try {
    const bytes = await hello;
    return bytes.subarray(0, Math.max(1, Math.floor(bytes.length * share)));
  } finally {
    client.destroy();
    await new Promise<void>((resolve) => listener.close(() => resolve()));
  }
}

/** A plain TCP connection to 127.0.0.1:`port` (from `localAddress`) that sends `bytes` (maybe none) and then nothing. */
export async function silentSocket(port: number, bytes?: Buffer, localAddress?: string): Promise<net.Socket> {
  const socket = await connectPlain(port, localAddress);
  if (bytes !== undefined) socket.write(bytes);
  return socket;
}

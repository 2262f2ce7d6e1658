import https from 'node:https';
import type { Transport, TransportRequest, TransportResponse } from './transport.js';

export interface HttpsTransportOptions {
  /** `https://host[:port][/prefix]`; only `https:` URLs. */
  baseUrl: string;
  /** PEM CA(s) to trust instead of the system's: a self-signed server certificate. */
  ca?: string | Buffer;
  /** Milliseconds a request may take, from sending to the last byte of the answer; default 60 000. */
  timeoutMs?: number;
  /** Connections kept open to the server; default 8. */
  maxSockets?: number;
}

/**
 * HTTP/1.1 over TLS with `node:https`, connections kept alive. A request whose reused
 * connection the server had just closed (ECONNRESET before any answer) is sent once more on a
 * new one, as Node's documentation advises.
 */
export class HttpsTransport implements Transport {
  private readonly base: URL;
  private readonly agent: https.Agent;
  private readonly timeoutMs: number;

  constructor(options: HttpsTransportOptions) {
    const base = new URL(options.baseUrl);
    if (base.protocol !== 'https:') throw new TypeError(`baseUrl must be an https: URL, got ${base.protocol}`);
    this.base = base;
    this.timeoutMs = options.timeoutMs ?? 60_000;
    this.agent = new https.Agent({ keepAlive: true, maxSockets: options.maxSockets ?? 8, ...(options.ca !== undefined && { ca: options.ca }) });
  }

  async send(request: TransportRequest): Promise<TransportResponse> {
    try {
      return await this.attempt(request);
    } catch (error) {
      if (error instanceof ReusedConnectionReset && request.signal?.aborted !== true) return this.attempt(request);
      throw error;
    }
  }

  close(): void {
    this.agent.destroy();
  }

  private attempt(request: TransportRequest): Promise<TransportResponse> {
    const url = new URL(this.base.pathname.replace(/\/$/, '') + request.path, this.base);
    const headers: Record<string, string> = { ...request.headers };
    if (request.body !== undefined) headers['content-length'] = String(Buffer.byteLength(request.body));
    return new Promise((resolve, reject) => {
      const outgoing = https.request(
        url,
        { method: request.method, headers, agent: this.agent, timeout: this.timeoutMs, ...(request.signal !== undefined && { signal: request.signal }) },
        (incoming) => {
          const chunks: Buffer[] = [];
          incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
          incoming.on('error', (error) => reject(request.signal?.aborted === true ? request.signal.reason : error));
          incoming.on('end', () => resolve({ status: incoming.statusCode ?? 0, headers: incoming.headers, text: Buffer.concat(chunks).toString('utf8') }));
        },
      );
      const deadline = setTimeout(
        () => outgoing.destroy(new Error(`${request.method} ${url.pathname}: no complete answer within ${this.timeoutMs} ms`)),
        this.timeoutMs,
      );
      outgoing.on('close', () => clearTimeout(deadline));
      outgoing.on('timeout', () => outgoing.destroy(new Error(`${request.method} ${url.pathname}: the connection was idle for ${this.timeoutMs} ms`)));
      outgoing.on('error', (error: NodeJS.ErrnoException) => {
        if (request.signal?.aborted === true) reject(request.signal.reason);
        else reject(outgoing.reusedSocket && error.code === 'ECONNRESET' ? new ReusedConnectionReset() : error);
      });
      outgoing.end(request.body);
    });
  }
}

class ReusedConnectionReset extends Error {}

import type { ResponseHeaders, Transport, TransportRequest, TransportResponse } from './transport.js';

export interface FetchTransportOptions {
  /** `https://host[:port][/prefix]`; only `https:` URLs. In a page served by the API: `location.origin`. */
  baseUrl: string;
  /** Milliseconds a request may take, from sending to the last byte of the answer; default 60 000; 0: no limit. */
  timeoutMs?: number;
  /**
   * `'omit'` (default): no cookie is sent or kept, the Bearer token is the credential.
   * `'same-origin'`: the browser sends and keeps the cookies of `baseUrl`'s origin, for a page
   * the API itself serves whose credential is a staff session's cookie (the admin page).
   */
  credentials?: 'omit' | 'same-origin';
}

/**
 * Requests through the global `fetch` (Node.js 22 and later, browsers, edge runtimes): no
 * `node:` module, so a browser bundle can carry it. Connections are the runtime's: it decides
 * how many it keeps, and which certificates it trusts (Node.js: the system's, plus
 * `NODE_EXTRA_CA_CERTS`; use `HttpsTransport` and its `ca` for one certificate in code). No
 * answer is cached, and no cookie is sent unless `credentials` is `'same-origin'`: by default
 * the Bearer token is the only credential.
 */
export class FetchTransport implements Transport {
  private readonly base: URL;
  private readonly timeoutMs: number;
  private readonly credentials: 'omit' | 'same-origin';

  constructor(options: FetchTransportOptions) {
    const base = new URL(options.baseUrl);
    if (base.protocol !== 'https:') throw new TypeError(`baseUrl must be an https: URL, got ${base.protocol}`);
    const timeoutMs = options.timeoutMs ?? 60_000;
    if (!Number.isInteger(timeoutMs) || timeoutMs < 0) throw new RangeError(`timeoutMs must be a whole number of milliseconds, 0 or more, got ${timeoutMs}`);
    this.base = base;
    this.timeoutMs = timeoutMs;
    this.credentials = options.credentials ?? 'omit';
  }

  async send(request: TransportRequest): Promise<TransportResponse> {
    const url = new URL(this.base.pathname.replace(/\/$/, '') + request.path, this.base);
    // One signal for the caller's abort and the deadline; which of them fired decides the error.
    const controller = new AbortController();
    const stop = () => controller.abort(request.signal?.reason);
    if (request.signal?.aborted === true) stop();
    request.signal?.addEventListener('abort', stop, { once: true });
    let timedOut = false;
    const deadline =
      this.timeoutMs === 0
        ? undefined
        : setTimeout(() => {
            timedOut = true;
            controller.abort();
          }, this.timeoutMs);
    try {
      const response = await fetch(url, {
        method: request.method,
        headers: request.headers,
        // A Uint8Array is a BufferSource to every fetch; lib.dom's types want its buffer to be an ArrayBuffer.
        body: request.body as string | Uint8Array<ArrayBuffer> | undefined,
        signal: controller.signal,
        credentials: this.credentials,
        cache: 'no-store',
      });
      return { status: response.status, headers: headersOf(response.headers), text: await response.text() };
    } catch (error) {
      if (request.signal?.aborted === true) throw request.signal.reason;
      if (timedOut) throw new Error(`${request.method} ${url.pathname}: no complete answer within ${this.timeoutMs} ms`, { cause: error });
      throw error;
    } finally {
      clearTimeout(deadline);
      request.signal?.removeEventListener('abort', stop);
    }
  }

  /** Nothing to close: the runtime owns the connections. */
  close(): void {}
}

/** Fetch's `Headers` (lower-case names, repeated ones joined by `, `) as a plain object. */
function headersOf(headers: Headers): ResponseHeaders {
  const result: Record<string, string> = {};
  headers.forEach((value, name) => {
    result[name] = value;
  });
  return result;
}

import type { HttpMethod } from './operations.js';

/** An answer's headers by lower-case name (`node:http`'s `IncomingHttpHeaders` is one). */
export type ResponseHeaders = Readonly<Record<string, string | string[] | undefined>>;

export interface TransportRequest {
  method: HttpMethod;
  /** Path and query string, after the base URL's own path. */
  path: string;
  headers: Record<string, string>;
  /** Text is sent as UTF-8; bytes (a Node.js `Buffer` is some) as they are. */
  body?: string | Uint8Array;
  /** Aborts the request: it rejects with the signal's reason. */
  signal?: AbortSignal;
}

export interface TransportResponse {
  status: number;
  headers: ResponseHeaders;
  /** The body as UTF-8 text ('' for none). */
  text: string;
}

/**
 * Sends one request and reads its whole answer. Two come with the client: `HttpsTransport`
 * (`node:https`, Node.js only) and `FetchTransport` (the global `fetch`: Node.js, browsers,
 * edge runtimes).
 */
export interface Transport {
  send(request: TransportRequest): Promise<TransportResponse>;
  /** Lets go of kept-alive connections, if the transport holds any. */
  close(): void;
}

import { FetchTransport } from './fetch-transport.js';
import { PricebookBase, type PricebookBaseOptions, type SessionCookieOptions } from './pricebook-base.js';
import type { Transport } from './transport.js';

interface BrowserTransportOptions {
  /** `https://host[:port]` of the API (without `/v1`); in a page the API serves, `location.origin`. */
  baseUrl: string;
  /** Milliseconds one request may take; default 60 000; 0: no limit. */
  timeoutMs?: number;
  /** Sends requests through this instead of a `FetchTransport` (tests, a wrapper that watches answers). */
  transport?: Transport;
}

/**
 * A `token` (an integration, a page of your own), or `sessionCookie: true` for a page the API
 * serves whose credential is a staff session's cookie: then no `Authorization` is sent, and the
 * default transport sends the cookie (`credentials: 'same-origin'`).
 */
export type BrowserPricebookOptions = BrowserTransportOptions & (PricebookBaseOptions | SessionCookieOptions);

/**
 * The typed client for browsers and edge runtimes: requests through the global `fetch`, and no
 * `node:` module anywhere in what it loads. `@pricebook/client/browser` exports it as `Pricebook`.
 */
export class BrowserPricebook extends PricebookBase {
  constructor(options: BrowserPricebookOptions) {
    const { baseUrl, timeoutMs, transport } = options;
    const credentials = 'sessionCookie' in options && options.sessionCookie === true ? 'same-origin' : 'omit';
    super(options, () => transport ?? new FetchTransport({ baseUrl, credentials, ...(timeoutMs !== undefined && { timeoutMs }) }));
  }
}

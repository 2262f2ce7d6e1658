import { FetchTransport } from './fetch-transport.js';
import { PricebookBase, type PricebookBaseOptions } from './pricebook-base.js';
import type { Transport } from './transport.js';

export interface BrowserPricebookOptions extends PricebookBaseOptions {
  /** `https://host[:port]` of the API (without `/v1`); in a page the API serves, `location.origin`. */
  baseUrl: string;
  /** Milliseconds one request may take; default 60 000; 0: no limit. */
  timeoutMs?: number;
  /** Sends requests through this instead of a `FetchTransport` (tests, a wrapper that watches answers). */
  transport?: Transport;
}

/**
 * The typed client for browsers and edge runtimes: requests through the global `fetch`, and no
 * `node:` module anywhere in what it loads. `@pricebook/client/browser` exports it as `Pricebook`.
 */
export class BrowserPricebook extends PricebookBase {
  constructor(options: BrowserPricebookOptions) {
    const { baseUrl, timeoutMs, transport } = options;
    super(options, () => transport ?? new FetchTransport({ baseUrl, ...(timeoutMs !== undefined && { timeoutMs }) }));
  }
}

import { FetchTransport } from './fetch-transport.js';
import { HttpsTransport } from './https-transport.js';
import { PricebookBase, type PricebookBaseOptions } from './pricebook-base.js';
import type { Transport } from './transport.js';

export interface PricebookOptions extends PricebookBaseOptions {
  /** `https://host[:port]` of the API (without `/v1`); only `https:` URLs. */
  baseUrl: string;
  /** PEM CA(s) to trust instead of the system's, for a self-signed certificate (`./data/tls-cert.pem`); HTTPS transport only. */
  ca?: string | Buffer;
  /** Milliseconds one request may take; default 60 000. */
  timeoutMs?: number;
  /**
   * How requests are sent: `'https'` (default: `node:https`, kept-alive connections), `'fetch'`
   * (the global `fetch`, which trusts the runtime's CAs only), or a transport of your own (tests, proxies).
   */
  transport?: Transport | 'https' | 'fetch';
}

/** The typed client for Node.js: HTTPS by default (docs/client.md). */
export class Pricebook extends PricebookBase {
  constructor(options: PricebookOptions) {
    super(options, () => openTransport(options));
  }
}

function openTransport(options: PricebookOptions): Transport {
  const { baseUrl, ca, timeoutMs, transport = 'https' } = options;
  if (typeof transport === 'object') return transport;
  if (transport === 'fetch') {
    if (ca !== undefined) throw new TypeError("ca is for the 'https' transport: fetch trusts the runtime's CAs (NODE_EXTRA_CA_CERTS in Node.js)");
    return new FetchTransport({ baseUrl, ...(timeoutMs !== undefined && { timeoutMs }) });
  }
  return new HttpsTransport({ baseUrl, ...(ca !== undefined && { ca }), ...(timeoutMs !== undefined && { timeoutMs }) });
}

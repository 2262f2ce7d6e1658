/**
 * The typed client for browsers and edge runtimes: `import { Pricebook } from
 * '@pricebook/client/browser'` (docs/client.md). The same client as `@pricebook/client`, with the
 * global `fetch` as its transport; nothing it loads imports a `node:` module, so a bundler (or
 * the server's admin page) can ship it as it is.
 */
export { BrowserPricebook as Pricebook, type BrowserPricebookOptions as PricebookOptions } from './browser-pricebook.js';
export { PricebookBase, type PricebookBaseOptions, type ReplaceOptions, type SessionCookieOptions } from './pricebook-base.js';
export { PricebookError } from './pricebook-error.js';
export { FetchTransport, type FetchTransportOptions } from './fetch-transport.js';
export type { PacingCounters, PacingOptions, WaitCause } from './pacer.js';
export { OPERATIONS, type HttpMethod, type OperationName } from './operations.js';
export { PAGE_SIZE } from './pages.js';
export { toPrice } from './to-price.js';
export type { CreateOptions } from './api-caller.js';
export type { BulkCreateOptions, BulkCreateResult } from './trade-prices-resource.js';
export type { CreateImportOptions, WaitOptions } from './imports-resource.js';
export { UnknownSkusError, type WithOptionalProductId } from './skus-resource.js';
export type { ResponseHeaders, Transport, TransportRequest, TransportResponse } from './transport.js';
export type * from './types.js';

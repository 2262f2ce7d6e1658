/**
 * The typed client of the Pricebook API: `import { Pricebook } from '@pricebook/client'`
 * (docs/client.md). Nothing of the server loads with it: its types are generated from the API's contract
 * schemas (./api-types.ts). Requests go over `node:https` unless `transport: 'fetch'`
 * says otherwise; browsers import `@pricebook/client/browser` (./browser.ts), which loads no
 * `node:` module.
 */
export { Pricebook, type PricebookOptions } from './pricebook.js';
export { PricebookBase, type PricebookBaseOptions, type ReplaceOptions, type SessionCookieOptions } from './pricebook-base.js';
export { PricebookError } from './pricebook-error.js';
export { FetchTransport, type FetchTransportOptions } from './fetch-transport.js';
export type { PacingCounters, PacingOptions, WaitCause } from './pacer.js';
export { OPERATIONS, type HttpMethod, type OperationName } from './operations.js';
export { PAGE_SIZE } from './pages.js';
export { toPrice } from './to-price.js';
export type { CreateOptions } from './api-caller.js';
export type { RecordOf, RecordOperation, RecordsName, RecordsResource } from './records-resource.js';
export type { BulkCreateOptions, BulkCreateResult } from './trade-prices-resource.js';
export type { CreateImportOptions, WaitOptions } from './imports-resource.js';
export { UnknownSkusError, type WithOptionalProductId } from './skus-resource.js';
export type { HttpsTransportOptions } from './https-transport.js';
export type { ResponseHeaders, Transport, TransportRequest, TransportResponse } from './transport.js';
export type * from './types.js';

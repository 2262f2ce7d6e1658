/**
 * The typed client of the Pricebook API: `import { Pricebook } from 'pricebook/client'`
 * (docs/client.md). Nothing of the server loads with it: its types come from the API's contract
 * schemas, imported as types only.
 */
export { Pricebook, type PricebookOptions, type ReplaceOptions } from './pricebook.js';
export { PricebookError } from './pricebook-error.js';
export type { PacingCounters, PacingOptions } from './pacer.js';
export { OPERATIONS, type HttpMethod, type OperationName } from './operations.js';
export { PAGE_SIZE } from './pages.js';
export type { CreateOptions } from './api-caller.js';
export type { BulkCreateOptions, BulkCreateResult } from './trade-prices-resource.js';
export type { CreateImportOptions, WaitOptions } from './imports-resource.js';
export type { HttpsTransportOptions, Transport, TransportRequest, TransportResponse } from './https-transport.js';
export type * from './types.js';

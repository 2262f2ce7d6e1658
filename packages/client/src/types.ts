/**
 * Every request and response type of the client: plain TypeScript generated from the API's own
 * schemas (the source of its OpenAPI document) into ./api-types.ts, so the package's declarations
 * need nothing installed beside them (docs/client.md, "Types").
 */
export type * from './api-types.js';

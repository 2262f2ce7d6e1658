import { Type } from '@sinclair/typebox';
import { ErrorBodySchema } from '../../contract/errors.js';

/** OpenAPI descriptions of the error answers each kind of route can give. */
const ErrorRef = Type.Ref(ErrorBodySchema);

const COMMON = { 400: ErrorRef, 401: ErrorRef, 403: ErrorRef, 404: ErrorRef, 429: ErrorRef };
const WITH_BODY = { ...COMMON, 413: ErrorRef, 415: ErrorRef, 422: ErrorRef };

export const readErrors = COMMON;
/** A read its record's state may not allow (a real run's dry-run changes): 409, code 17. */
export const stateReadErrors = { ...COMMON, 409: ErrorRef };
/** A read whose answer would pass its bound (a list's overlaps of more entries than it reads): 422. */
export const boundedReadErrors = { ...COMMON, 422: ErrorRef };
/** The health check: 400 (code 2) is the plain-HTTP listener's answer, to every path. */
export const healthErrors = { 400: ErrorRef };
export const writeErrors = WITH_BODY;
/**
 * A delete takes no body, but one sent is read as any request's: not JSON by its Content-Type
 * is 415 (code 7), past 1 MiB 413, malformed JSON 400.
 */
export const deleteErrors = { ...COMMON, 413: ErrorRef, 415: ErrorRef };
export const createErrors = { ...WITH_BODY, 409: ErrorRef };
/** A write that records may depend on (a SKU's rename): 409, code 15, while they do. */
export const inUseWriteErrors = { ...WITH_BODY, 409: ErrorRef };

export const NoContent = Type.Null({ description: 'No content' });

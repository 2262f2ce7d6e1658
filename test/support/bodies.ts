import type { ErrorBody } from '../../src/contract/errors.js';

/** A `createdAt`: UTC, to the millisecond. */
export const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/** A 422 answer (the contract's error body): it always lists every problem, with the index of the item it is about in a list body. */
export type ProblemBody = Required<ErrorBody>;

import { Type, type Static } from '@sinclair/typebox';

/**
 * The closed list of failures the service reports. A failure carries its kind, never an HTTP
 * status: `http/error-handler.ts` alone maps kinds to statuses, and `ERROR_CODES` below to the
 * numeric codes integrators see.
 */
export type ErrorKind =
  | 'internal'
  | 'invalid_protocol'
  | 'unauthenticated'
  | 'forbidden'
  | 'not_found'
  | 'method_not_allowed'
  | 'unsupported_media_type'
  | 'invalid_json'
  | 'invalid_query'
  | 'validation_failed'
  | 'rate_limited'
  | 'body_too_large'
  | 'idempotency_key_in_use'
  | 'idempotency_key_reused'
  | 'request_timeout'
  /** A change refused because records still depend on what it changes (a priced SKU's rename). */
  | 'in_use'
  | 'import_queue_full'
  /** A change set's step its state does not allow (approve a draft, apply a discarded set, an approval gone stale). */
  | 'wrong_state';

/** The numeric `code` of each failure: the table of the API contract. */
export const ERROR_CODES: Readonly<Record<ErrorKind, number>> = {
  internal: 1,
  invalid_protocol: 2,
  unauthenticated: 3,
  forbidden: 4,
  not_found: 5,
  method_not_allowed: 6,
  unsupported_media_type: 7,
  invalid_json: 8,
  invalid_query: 9,
  validation_failed: 10,
  rate_limited: 11,
  body_too_large: 12,
  idempotency_key_in_use: 13,
  idempotency_key_reused: 13,
  // Not in the contract's table, which names 408 without a code: ours, documented in the README.
  request_timeout: 14,
  in_use: 15,
  import_queue_full: 16,
  wrong_state: 17,
};

export const FieldProblemSchema = Type.Object(
  {
    index: Type.Optional(Type.Integer({ minimum: 0, description: 'Position in the bulk request array' })),
    field: Type.Union([Type.String(), Type.Null()], { description: 'Field name; null for the item or body as a whole' }),
    message: Type.String(),
  },
  { additionalProperties: false },
);
/** One problem of a 422: `index` is the position in a bulk array, `field` null for a whole item. */
export type FieldProblem = Static<typeof FieldProblemSchema>;

export const ErrorBodySchema = Type.Object(
  {
    code: Type.Integer({ description: 'Numeric error code (see the code table)' }),
    message: Type.String(),
    errors: Type.Optional(Type.Array(FieldProblemSchema, { maxItems: 1000, description: 'Every problem found (422 only)' })),
  },
  { $id: 'Error', additionalProperties: false },
);
export type ErrorBody = Static<typeof ErrorBodySchema>;

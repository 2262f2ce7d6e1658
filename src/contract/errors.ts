import { Type, type Static } from '@sinclair/typebox';
import type { ErrorKind } from '../modules/errors.js';

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
};

export const FieldProblemSchema = Type.Object(
  {
    index: Type.Optional(Type.Integer({ minimum: 0, description: 'Position in the bulk request array' })),
    field: Type.Union([Type.String(), Type.Null()], { description: 'Field name; null for the item or body as a whole' }),
    message: Type.String(),
  },
  { additionalProperties: false },
);

export const ErrorBodySchema = Type.Object(
  {
    code: Type.Integer({ description: 'Numeric error code (see the code table)' }),
    message: Type.String(),
    errors: Type.Optional(Type.Array(FieldProblemSchema, { maxItems: 1000, description: 'Every problem found (422 only)' })),
  },
  { $id: 'Error', additionalProperties: false },
);
export type ErrorBody = Static<typeof ErrorBodySchema>;

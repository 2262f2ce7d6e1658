// No import: the admin page loads this file in the browser as it is (scripts/build-admin.js).

/**
 * The closed list of failures the service reports. A failure carries its kind, never an HTTP
 * status: `http/plugins/error-handler.ts` alone maps kinds to statuses, and `ERROR_CODES` below to the
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
  | 'wrong_state'
  /**
   * A direct change of what a customer pays, where the store requires approval: it goes through
   * a change set, unless the credential has `trade_prices:direct` (docs/change-sets.md, "Approval").
   */
  | 'approval_required';

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
  approval_required: 18,
};

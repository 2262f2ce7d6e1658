import type { TransportResponse } from './transport.js';
import type { ErrorBody, FieldProblem } from './types.js';

/**
 * An answer of the API that is not a success: its HTTP `status` and the API's error body
 * (`code` from the API's code table, `message`, and for a 422 every problem in `errors`).
 * An answer that is not an API error body (a proxy's page) has `code` 0 and its status line
 * as the message. Network failures are not PricebookErrors: they are the transport's own errors
 * (Node's, or `fetch`'s TypeError), and an abort rejects with the signal's reason.
 */
export class PricebookError extends Error {
  override readonly name = 'PricebookError';
  readonly status: number;
  /** The API's error code (10: validation failed, 11: rate limited, …); 0 when the body was not an API error. */
  readonly code: number;
  /** Every problem found, for a 422: `index` in a bulk array, `field`, `message`. */
  readonly errors: FieldProblem[] | undefined;
  /** `Retry-After` in seconds, for a 429. */
  readonly retryAfterSeconds: number | undefined;

  constructor(status: number, body: ErrorBody, retryAfterSeconds?: number) {
    super(body.message);
    this.status = status;
    this.code = body.code;
    this.errors = body.errors;
    this.retryAfterSeconds = retryAfterSeconds;
  }

  static fromResponse(operation: string, response: TransportResponse): PricebookError {
    const retryAfter = Number(response.headers['retry-after']);
    const retryAfterSeconds = Number.isFinite(retryAfter) && retryAfter >= 0 ? retryAfter : undefined;
    const body = errorBodyOf(response.text);
    if (body !== undefined) return new PricebookError(response.status, body, retryAfterSeconds);
    return new PricebookError(response.status, { code: 0, message: `${operation}: HTTP ${response.status} without an API error body` }, retryAfterSeconds);
  }
}

function errorBodyOf(text: string): ErrorBody | undefined {
  try {
    const value = JSON.parse(text) as Partial<ErrorBody> | null;
    if (typeof value?.code === 'number' && typeof value.message === 'string') return value as ErrorBody;
  } catch {
    // Not JSON: described by the caller.
  }
  return undefined;
}

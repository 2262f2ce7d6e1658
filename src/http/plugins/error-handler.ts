import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ERROR_CODES, type ErrorBody } from '../../contract/errors.js';
import { AppError } from '../../modules/shared/errors.js';
import type { ErrorKind } from '../../contract/errors.js';

/** The one place that knows which HTTP status each failure gets. */
export const STATUS_OF: Readonly<Record<ErrorKind, number>> = {
  internal: 500,
  invalid_protocol: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  unsupported_media_type: 415,
  invalid_json: 400,
  invalid_query: 400,
  validation_failed: 422,
  rate_limited: 429,
  body_too_large: 413,
  idempotency_key_in_use: 409,
  idempotency_key_reused: 422,
  request_timeout: 408,
  in_use: 409,
  import_queue_full: 429,
  wrong_state: 409,
  approval_required: 403,
};

export function errorBody(error: AppError): ErrorBody {
  const body: ErrorBody = { code: ERROR_CODES[error.kind], message: error.message };
  if (error.problems !== undefined) body.errors = [...error.problems];
  return body;
}

export function sendError(reply: FastifyReply, error: AppError): FastifyReply {
  if (error.retryAfterSeconds !== undefined) reply.header('retry-after', String(error.retryAfterSeconds));
  return reply.code(STATUS_OF[error.kind]).type('application/json; charset=utf-8').send(errorBody(error));
}

/** Fastify's own failures, in the contract's terms. */
function fromFastifyError(error: FastifyError, request: FastifyRequest): AppError | undefined {
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError(
        'body_too_large',
        request.routeOptions.config.bodyType === 'csv' ? 'Request body is larger than 50 MiB' : 'Request body is larger than 1 MiB',
      );
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new AppError('unsupported_media_type', 'Content-Type must be application/json');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new AppError('invalid_json', 'Request body is not valid JSON');
    default:
      if (error.statusCode === 408) return new AppError('request_timeout', 'Request took too long');
      return undefined;
  }
}

export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError, request: FastifyRequest, reply: FastifyReply) => {
    const known = error instanceof AppError ? error : fromFastifyError(error, request);
    if (known !== undefined) return sendError(reply, known);
    request.log.error({ err: error }, 'request failed');
    return sendError(reply, new AppError('internal', 'Internal server error'));
  });
}

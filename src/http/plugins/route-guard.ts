import type { FastifyInstance } from 'fastify';
import { AppError } from '../../modules/errors.js';
import { sendError } from '../error-handler.js';
import '../route-config.js';

/**
 * Checks that need the matched route, in the contract's order: the credential's scope (403),
 * then the content type of POST and PUT (415). Unknown routes skip both: they answer 404/405.
 */
export function registerRouteGuard(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    if (request.is404) return;
    const { scope } = request.routeOptions.config;
    if (scope !== undefined && request.principal !== undefined && !request.principal.scopes.has(scope)) {
      return sendError(reply, new AppError('forbidden', `This credential lacks the scope '${scope}'`));
    }
    if (request.method === 'POST' || request.method === 'PUT') {
      const contentType = request.headers['content-type'];
      if (request.routeOptions.config.bodyType === 'csv') {
        if (contentType === undefined || !isContentType(contentType, 'text/csv')) return sendError(reply, new AppError('unsupported_media_type', 'Content-Type must be text/csv'));
      } else if (contentType === undefined || !isJsonContentType(contentType)) {
        return sendError(reply, new AppError('unsupported_media_type', 'Content-Type must be application/json'));
      }
    }
  });
}

/**
 * `application/json`, parameters allowed; bodies are read as UTF-8, so another `charset` is
 * refused rather than misread. The same rule for CSV bodies.
 */
export function isJsonContentType(value: string): boolean {
  return isContentType(value, 'application/json');
}

/** `value` names `mediaType`, with parameters allowed but a `charset` only if it is UTF-8. */
export function isContentType(value: string, wanted: string): boolean {
  const [mediaType = '', ...parameters] = value.split(';');
  if (mediaType.trim().toLowerCase() !== wanted) return false;
  for (const parameter of parameters) {
    if (parameter.trim() === '') continue;
    const equals = parameter.indexOf('=');
    if (equals <= 0) return false;
    const name = parameter.slice(0, equals).trim().toLowerCase();
    const setting = parameter.slice(equals + 1).trim().replace(/^"(.*)"$/, '$1').toLowerCase();
    if (name === 'charset' && setting !== 'utf-8' && setting !== 'utf8') return false;
  }
  return true;
}

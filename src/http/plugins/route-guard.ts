import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../../modules/shared/errors.js';
import type { Scope } from '../../modules/stores/scopes.js';
import { sendError } from './error-handler.js';
import './route-config.js';

/**
 * Checks that need the matched route, in the contract's order: a staff member who must change
 * the password first may only do that (403), the credential's scopes (403),
 * those of the route and those of the objects `embed=` asks for, then the content type of POST
 * and PUT (415). Unknown routes skip both: they answer 404/405.
 */
export function registerRouteGuard(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    const refusal = routeRefusal(request);
    if (refusal === undefined) return done();
    sendError(reply, refusal);
  });
}

/** Why the route guard refuses the request (in the contract's order of checks), or undefined. */
function routeRefusal(request: FastifyRequest): AppError | undefined {
  if (request.is404) return undefined;
  const { scope, embeds } = request.routeOptions.config;
  const principal = request.principal;
  if (principal?.session?.mustChangePassword === true && request.routeOptions.config.staffSession !== true) {
    return new AppError('forbidden', 'The password must be changed first: POST /v1/session/password with currentPassword and newPassword');
  }
  if (principal !== undefined) {
    const missing = (scope === undefined ? [] : typeof scope === 'string' ? [scope] : scope).find((needed) => !principal.scopes.has(needed));
    if (missing !== undefined) return new AppError('forbidden', `This credential lacks the scope '${missing}'`);
    const embedRefusal =
      embeds === undefined ? undefined : refusedEmbed(embeds, principal.scopes, (request.query as Record<string, unknown> | undefined)?.embed);
    if (embedRefusal !== undefined) return embedRefusal;
  }
  if (request.method === 'POST' || request.method === 'PUT') {
    const contentType = request.headers['content-type'];
    if (request.routeOptions.config.bodyType === 'csv') {
      if (contentType === undefined || !isContentType(contentType, 'text/csv')) return new AppError('unsupported_media_type', 'Content-Type must be text/csv');
    } else if (contentType === undefined || !isJsonContentType(contentType)) {
      return new AppError('unsupported_media_type', 'Content-Type must be application/json');
    }
  }
  return undefined;
}

/**
 * The 403 for the first object `embed=` names whose read scope the credential lacks. Read from
 * the raw query string, before it is parsed strictly (the contract checks scopes before query
 * parameters: 403 before 400); names the route does not know are left to that parse.
 */
function refusedEmbed(embeds: Readonly<Record<string, Scope>>, scopes: ReadonlySet<Scope>, raw: unknown): AppError | undefined {
  const values = typeof raw === 'string' ? [raw] : Array.isArray(raw) ? raw.filter((value): value is string => typeof value === 'string') : [];
  for (const name of values.flatMap((value) => value.split(',').map((part) => part.trim()))) {
    const needed = Object.hasOwn(embeds, name) ? embeds[name] : undefined;
    if (needed !== undefined && !scopes.has(needed)) return new AppError('forbidden', `This credential lacks the scope '${needed}' that embed=${name} needs`);
  }
  return undefined;
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
    const setting = parameter
      .slice(equals + 1)
      .trim()
      .replace(/^"(.*)"$/, '$1')
      .toLowerCase();
    if (name === 'charset' && setting !== 'utf-8' && setting !== 'utf8') return false;
  }
  return true;
}

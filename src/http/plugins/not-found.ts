import type { FastifyInstance } from 'fastify';
import FindMyWay, { type HTTPMethod } from 'find-my-way';
import { AppError } from '../../modules/shared/errors.js';
import { sendError } from './error-handler.js';

const METHODS: readonly HTTPMethod[] = ['GET', 'POST', 'PUT', 'DELETE'];

/**
 * 404 for paths no route has; 405 with `Allow` for a known path and another method. Runs after
 * authentication and rate limiting, so routes are not revealed to unauthenticated callers.
 */
export function registerNotFound(app: FastifyInstance): void {
  const routes = FindMyWay();
  // Not `routes.find(…) === null`: `/count` must still be added after `/:id` matched it.
  const registered = new Set<string>();
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      if (METHODS.includes(method as HTTPMethod) && !registered.has(`${method} ${route.url}`)) {
        registered.add(`${method} ${route.url}`);
        routes.on(method as HTTPMethod, route.url, () => undefined);
      }
    }
  });
  // A path of a fixed route (`/v1/trade-customer-product-prices/bulk`) reached with another
  // method lands on the `/:id` route of that method; it is a known path, so 405, not a bad id.
  app.addHook('onRequest', (request, reply, done) => {
    if (request.is404) return done();
    const params = Object.values(request.params as Record<string, string>);
    if (params.length === 0 || params.every((value) => /^[1-9]\d*$/.test(value))) return done();
    const path = request.url.split('?', 1)[0] ?? '';
    const allowed = allowedMethods(routes, path);
    if (allowed.includes(request.method as HTTPMethod)) return done();
    reply.header('allow', allowed.join(', '));
    sendError(reply, new AppError('method_not_allowed', `Method ${request.method} is not allowed here; allowed: ${allowed.join(', ')}`));
  });
  app.setNotFoundHandler(async (request, reply) => {
    const path = request.url.split('?', 1)[0] ?? '';
    const allowed = allowedMethods(routes, path);
    if (allowed.length > 0) {
      reply.header('allow', allowed.join(', '));
      return sendError(reply, new AppError('method_not_allowed', `Method ${request.method} is not allowed here; allowed: ${allowed.join(', ')}`));
    }
    const asSent = request.originalUrl.split('?', 1)[0] ?? '';
    return sendError(reply, new AppError('not_found', `No resource at ${asSent.slice(0, 200)}`));
  });
}

/**
 * The methods of the route the path names. Like the router, a static segment wins over a
 * parameter: `/v1/customers/count` is the count route (GET), not a customer id (PUT, DELETE).
 */
function allowedMethods(routes: FindMyWay.Instance<FindMyWay.HTTPVersion.V1>, path: string): HTTPMethod[] {
  const matches = METHODS.flatMap((method) => {
    const found = routes.find(method, path);
    return found === null ? [] : [{ method, parameters: Object.keys(found.params).length }];
  });
  const fewest = Math.min(...matches.map((match) => match.parameters));
  return matches.filter((match) => match.parameters === fewest).map((match) => match.method);
}

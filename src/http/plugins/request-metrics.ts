import type { FastifyInstance } from 'fastify';
import type { HttpMetrics } from '../../metrics/http-metrics.js';

/**
 * Counts every answered request by its route's template (`/v1/customers/:id`; no route:
 * `unmatched`), so the labels stay few whatever URLs clients send. The refusals are told apart
 * by status: a 401 is always authentication's, a 429 the credential's bucket when the caller
 * was authenticated and the failed-authentication throttle when not.
 */
export function registerRequestMetrics(app: FastifyInstance, metrics: HttpMetrics): void {
  app.addHook('onResponse', (request, reply, done) => {
    const status = reply.statusCode;
    metrics.observeRequest(request.method, request.is404 ? undefined : request.routeOptions.url, status, reply.elapsedTime / 1000);
    if (status === 401) metrics.countAuthFailure();
    else if (status === 429) metrics.countRateLimitRefusal(request.principal === undefined ? 'auth_failures' : 'credential');
    done();
  });
}

import type { FastifyInstance } from 'fastify';
import { AppError } from '../../modules/shared/errors.js';
import type { RateLimiter } from '../../rate-limit/rate-limiter.js';
import type { RateLimiterStatus } from '../../rate-limit/rate-limiter-status.js';
import { sendError } from './error-handler.js';

/**
 * The leaky bucket of the credential, or of the staff member. Every authenticated response carries its headers,
 * the 429 too; a refused request takes no place. A change of the buckets' store is logged
 * once: a warning when Redis stops answering, an info when it answers again.
 */
export function registerRateLimit(app: FastifyInstance, limiter: RateLimiter, status: RateLimiterStatus): void {
  const unsubscribe = status.onChange(({ mode, cause }) => {
    if (mode === 'local-fallback') {
      app.log.warn({ err: cause }, 'rate limiter: Redis does not answer; each instance limits with its own buckets until it does');
    } else {
      app.log.info('rate limiter: Redis answers; buckets are shared by every instance again');
    }
  });
  app.addHook('onClose', async () => unsubscribe());

  app.addHook('onRequest', async (request, reply) => {
    if (request.principal === undefined) return;
    const decision = await limiter.take(request.principal.rateLimitBucket);
    reply.header('x-rate-limit-limit', String(decision.limit));
    reply.header('x-rate-limit-remaining', String(decision.remaining));
    if (decision.allowed) return;
    reply.header('retry-after', String(decision.retryAfterSeconds));
    return sendError(
      reply,
      new AppError('rate_limited', `Rate limit exceeded: ${decision.limit} requests per bucket; retry after ${decision.retryAfterSeconds} s`),
    );
  });
}

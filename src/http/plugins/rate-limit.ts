import type { FastifyInstance } from 'fastify';
import { AppError } from '../../modules/shared/errors.js';
import type { RateLimiter } from '../../rate-limit/rate-limiter.js';
import type { RateLimiterStatus } from '../../rate-limit/rate-limiter-status.js';
import { thenAnswer } from '../../modules/shared/answer.js';
import { sendError } from './error-handler.js';
import { continueUnlessAnswered, type HookOutcome } from './hook-outcome.js';

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

  // A callback: the buckets in memory answer at once, Redis through a promise (hook-outcome.ts).
  app.addHook('onRequest', (request, reply, done) => {
    if (request.principal === undefined) return done();
    const outcome = thenAnswer(limiter.take(request.principal.rateLimitBucket), (decision): HookOutcome => {
      reply.header('x-rate-limit-limit', String(decision.limit));
      reply.header('x-rate-limit-remaining', String(decision.remaining));
      if (decision.allowed) return 'continue';
      reply.header('retry-after', String(decision.retryAfterSeconds));
      sendError(reply, new AppError('rate_limited', `Rate limit exceeded: ${decision.limit} requests per bucket; retry after ${decision.retryAfterSeconds} s`));
      return 'answered';
    });
    continueUnlessAnswered(outcome, done);
  });
}

import { Type } from '@sinclair/typebox';
import { sql } from 'kysely';
import type { RateLimiterStatus } from '../../../rate-limit/rate-limiter-status.js';
import type { Database } from '../../../storage/database.js';
import { healthErrors } from '../docs.js';
import type { App } from '../../plugins/app-types.js';

const Health = Type.Object(
  {
    status: Type.Union([Type.Literal('ok'), Type.Literal('unavailable')]),
    database: Type.String(),
    rateLimiter: Type.Union([Type.Literal('redis'), Type.Literal('local-fallback'), Type.Literal('memory')], {
      description:
        '`redis`: buckets shared by every instance; `local-fallback`: Redis is configured but does not answer, so each instance limits on its own until it does (not a failure: status stays ok); `memory`: no Redis configured',
    }),
  },
  { additionalProperties: false },
);

/**
 * For load balancers: 200 while the database answers, 503 when it does not. No credentials.
 * A Redis outage does not make an instance unhealthy: its limiter falls back to local buckets.
 */
export function health(app: App, database: Database, rateLimiter: RateLimiterStatus): void {
  app.get(
    '/healthz',
    {
      schema: {
        operationId: 'system.health',
        tags: ['system'],
        summary: 'Health check',
        security: [],
        response: { 200: Health, 503: Health, ...healthErrors },
      },
    },
    async (request, reply) => {
      const limiterMode = rateLimiter.mode();
      try {
        await sql`select 1`.execute(database.db);
        return { status: 'ok' as const, database: 'ok', rateLimiter: limiterMode };
      } catch (error) {
        request.log.warn({ err: error }, 'health check: database unreachable');
        return reply.code(503).send({ status: 'unavailable' as const, database: 'unreachable', rateLimiter: limiterMode });
      }
    },
  );
}

import type { FastifyInstance } from 'fastify';

/** One line per request, with its id; never headers, bodies or credentials. */
export function registerRequestLog(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  app.addHook('onResponse', async (request, reply) => {
    request.log.info(
      {
        method: request.method,
        path: request.url.split('?', 1)[0],
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 10) / 10,
        storeId: request.principal?.storeId,
        keyId: request.principal?.actor.type === 'key' ? request.principal.actor.id : undefined,
        staffId: request.principal?.actor.type === 'staff' ? request.principal.actor.id : undefined,
        ip: request.ip,
      },
      'request',
    );
  });
}

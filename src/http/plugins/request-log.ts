import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';

/**
 * One line per request, with its id, on `lines` (app/logs.ts; none when the app logs nothing);
 * never headers, bodies or credentials. Both hooks are synchronous: nothing in them waits.
 */
export function registerRequestLog(app: FastifyInstance, lines: Logger | undefined): void {
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('x-request-id', request.id);
    done(null, payload);
  });
  if (lines === undefined) return;
  app.addHook('onResponse', (request, reply, done) => {
    const principal = request.principal;
    lines.info(
      {
        reqId: request.id,
        method: request.method,
        path: request.url.split('?', 1)[0],
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 10) / 10,
        storeId: principal?.storeId,
        keyId: principal?.actor.type === 'key' ? principal.actor.id : undefined,
        staffId: principal?.actor.type === 'staff' ? principal.actor.id : undefined,
        ip: request.ip,
      },
      'request',
    );
    done();
  });
}

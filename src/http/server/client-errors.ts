import http from 'node:http';
import type { Socket } from 'node:net';
import { TLSSocket, type Server as TlsServer } from 'node:tls';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../modules/shared/errors.js';
import { errorBody, STATUS_OF } from '../plugins/error-handler.js';

/**
 * Requests answered before their body had fully arrived (a 401 or 415 does not wait for it),
 * by connection. If the rest of that body never comes, Node reports the request as timed out;
 * the client already has its answer, so a second one (408) must not follow it on the wire.
 */
const answeredEarly = new WeakMap<Socket, http.IncomingMessage>();

export function registerEarlyAnswerTracking(app: FastifyInstance): void {
  app.addHook('onResponse', (request, _reply, done) => {
    if (!request.raw.complete) answeredEarly.set(request.raw.socket, request.raw);
    done();
  });
}

/** After answering a bad request, the client gets this long to read it before the socket is destroyed. */
export const END_GRACE_MS = 1_000;

/** TLS connections whose handshake completed: only they can carry an HTTP answer. */
const handshaken = new WeakSet<Socket>();

export function trackHandshakes(server: TlsServer): void {
  server.on('secureConnection', (socket: TLSSocket) => handshaken.add(socket));
}

/**
 * Node's `clientError`: timeouts (408) and requests it cannot parse (`malformed`), answered in
 * the error shape before the socket closes. A TLS socket whose handshake never finished (a
 * handshake timeout, garbage instead of a ClientHello) cannot carry an answer: it is destroyed
 * at once. Every answered socket is destroyed after END_GRACE_MS even if the client never
 * reads its answer.
 */
export function clientErrorAnswerer(timeouts: { headersTimeout: number; requestTimeout: number }, malformed: AppError) {
  const timedOut = new AppError(
    'request_timeout',
    `Request took too long: headers must arrive within ${timeouts.headersTimeout / 1000} s and the whole request within ${timeouts.requestTimeout / 1000} s`,
  );
  return (error: Error & { code?: string }, socket: Socket): void => {
    const answered = answeredEarly.get(socket);
    const handshakePending = socket instanceof TLSSocket && !handshaken.has(socket);
    if (handshakePending || !socket.writable || (answered !== undefined && !answered.complete)) {
      socket.destroy();
      return;
    }
    const answer = error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? timedOut : malformed;
    const status = STATUS_OF[answer.kind];
    const body = JSON.stringify(errorBody(answer));
    socket.end(
      `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
    setTimeout(() => socket.destroy(), END_GRACE_MS).unref();
  };
}

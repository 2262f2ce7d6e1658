import type { IncomingMessage } from 'node:http';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../modules/shared/errors.js';
import { sendError } from './error-handler.js';
import { API_VERSION } from './api-version.js';

/** The router's own failures: a URL it cannot decode, or a path parameter over `maxParamLength`. */
const UNREADABLE_URL = new Set(['FST_ERR_BAD_URL', 'FST_ERR_MAX_PARAM_LENGTH']);
const rerouted = new WeakSet<IncomingMessage>();

/**
 * Fastify answers a URL its router cannot read (`/v1/%zz`, an over-long id) with a body of its
 * own, before any hook runs: no protocol check, no authentication. Such a request is routed
 * again as a path that no route has, on the same side of the version segment, so it passes the
 * same checks as every other request and ends in 400 code 2, 404 code 5 or 401 like them.
 * `request.originalUrl` keeps what the client sent.
 */
export function rerouteUnreadableUrl(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const raw = request.raw as IncomingMessage & { originalUrl?: string };
  if (!UNREADABLE_URL.has(error.code) || rerouted.has(raw)) {
    // Never twice for one request: the replacement path is readable, so this is only a guard.
    void sendError(reply, new AppError('not_found', 'No resource at this URL'));
    return;
  }
  rerouted.add(raw);
  raw.originalUrl = raw.url ?? '/';
  raw.url = raw.originalUrl.startsWith(`/${API_VERSION}/`) ? `/${API_VERSION}/%25` : '/%25';
  request.server.routing(raw, reply.raw);
}

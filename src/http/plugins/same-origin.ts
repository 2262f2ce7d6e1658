import type { FastifyRequest } from 'fastify';

/**
 * Whether the request's `Origin` is this server's own: the scheme it was reached by (https, or
 * what a trusted proxy says) and its `Host`, default port or not. A browser sends `Origin` with
 * every POST, PUT and DELETE, so one made by another site's page, which the browser would send
 * with the session cookie, never passes (docs/staff.md, "Cross-site requests").
 */
export function isSameOrigin(request: FastifyRequest): boolean {
  const origin = request.headers.origin;
  if (typeof origin !== 'string' || request.host === undefined || request.host === '') return false;
  try {
    // Exactly an origin (no path, no user info), and ours.
    const sent = new URL(origin);
    return sent.origin === origin && sent.origin === new URL(`${request.protocol}://${request.host}`).origin;
  } catch {
    return false;
  }
}

/** GET and HEAD change nothing: they need no `Origin`. */
export function changesState(method: string): boolean {
  return method !== 'GET' && method !== 'HEAD';
}

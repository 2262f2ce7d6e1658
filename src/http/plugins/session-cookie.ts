import type { FastifyReply, FastifyRequest } from 'fastify';

/** The staff session's cookie (docs/staff.md). */
export const SESSION_COOKIE = 'pricebook_session';

/**
 * Never readable by scripts (`HttpOnly`), never sent over plain HTTP (`Secure`), never sent with
 * a request another site starts (`SameSite=Strict`), for every path of the server.
 */
const FLAGS = 'Path=/; HttpOnly; Secure; SameSite=Strict';

/**
 * The session token the request's `Cookie` header carries: `undefined` when it has none, `null`
 * when it carries the cookie more than once (a cookie planted by a sibling domain beside ours:
 * neither is trusted).
 */
export function sessionTokenOf(request: FastifyRequest): string | undefined | null {
  return cookieOf(request, SESSION_COOKIE);
}

/** The value of the cookie `name` in the request's `Cookie` header: `undefined` without it, `null` when it is there more than once. */
export function cookieOf(request: FastifyRequest, name: string): string | undefined | null {
  const header = request.headers.cookie;
  if (header === undefined) return undefined;
  const values: string[] = [];
  for (const part of header.split(';')) {
    const equals = part.indexOf('=');
    if (equals > 0 && part.slice(0, equals).trim() === name) values.push(part.slice(equals + 1).trim());
  }
  if (values.length === 0) return undefined;
  return values.length === 1 ? values[0]! : null;
}

export function setSessionCookie(reply: FastifyReply, token: string, maxAgeSeconds: number): void {
  reply.header('set-cookie', `${SESSION_COOKIE}=${token}; Max-Age=${maxAgeSeconds}; ${FLAGS}`);
}

/** Tells the browser to drop the cookie (sign-out, or a session that no longer works). */
export function clearSessionCookie(reply: FastifyReply): void {
  reply.header('set-cookie', `${SESSION_COOKIE}=; Max-Age=0; ${FLAGS}`);
}

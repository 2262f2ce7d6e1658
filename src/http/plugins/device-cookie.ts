import type { FastifyReply, FastifyRequest } from 'fastify';
import { cookieOf } from './session-cookie.js';

/** The staff device cookie (docs/staff.md, "Throttling"). */
export const DEVICE_COOKIE = 'pricebook_device';

/**
 * Sent only to the sign-in and password-change requests (`Path=/v1/session`), never readable
 * by scripts, never over plain HTTP, never with a request another site starts.
 */
const FLAGS = 'Path=/v1/session; HttpOnly; Secure; SameSite=Strict';

/** The device cookie the browser sent; none when it sent none or more than one. */
export function deviceCookieOf(request: FastifyRequest): string | undefined {
  return cookieOf(request, DEVICE_COOKIE) ?? undefined;
}

export function setDeviceCookie(reply: FastifyReply, value: string, maxAgeSeconds: number): void {
  reply.header('set-cookie', `${DEVICE_COOKIE}=${value}; Max-Age=${maxAgeSeconds}; ${FLAGS}`);
}

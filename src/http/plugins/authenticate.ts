import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../modules/shared/errors.js';
import { type CredentialService, type Principal, parseToken } from '../../modules/stores/credential-service.js';
import type { StaffSessionService } from '../../modules/staff/session-service.js';
import type { RateLimiter } from '../../rate-limit/rate-limiter.js';
import { addressBucketKey } from '../../rate-limit/sign-in-throttle.js';
import { type Answer, thenAnswer } from '../../modules/shared/answer.js';
import { sendError } from './error-handler.js';
import { continueUnlessAnswered, type HookOutcome } from './hook-outcome.js';
import { isPublicPath, isSignInRequest, isWelcomePageRequest } from './public-paths.js';
import { changesState, isSameOrigin } from './same-origin.js';
import { clearSessionCookie, sessionTokenOf } from './session-cookie.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The authenticated caller; set on every request past authentication. */
    principal: Principal | undefined;
  }
}

const CHALLENGE = 'Bearer realm="pricebook", Basic realm="pricebook", charset="UTF-8"';
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/**
 * Bearer `<key>.<secret>` or Basic `key:secret`; without an `Authorization` header, a staff
 * session's cookie (`pricebook_session`). A request with both is a credential's: the cookie is
 * not looked at. Every failure looks the same (401, code 3), and each counts against the client
 * address; an address with too many failures is refused (429) before its credentials are even
 * looked at. A request made with the cookie that changes something must come from this
 * server's own origin (`Origin`), or it is refused (403).
 */
export function registerAuthentication(app: FastifyInstance, credentials: CredentialService, sessions: StaffSessionService, failures: RateLimiter): void {
  app.decorateRequest('principal', undefined);
  // A callback, not an async function: with the failure buckets in memory and the credential
  // cached, a request is authenticated without waiting for anything (hook-outcome.ts).
  app.addHook('onRequest', (request, reply, done) => {
    if (isPublicPath(request.url) || isWelcomePageRequest(request) || isSignInRequest(request)) return done();
    const throttleKey = addressBucketKey(request.ip);
    const outcome = thenAnswer(failures.peek(throttleKey), (throttled): Answer<HookOutcome> => {
      if (!throttled.allowed) return refuseThrottled(reply, throttled.retryAfterSeconds);
      const cookieToken = request.headers.authorization === undefined ? sessionTokenOf(request) : undefined;
      const principal = cookieToken === undefined ? keyPrincipal(request, credentials) : cookieToken === null ? undefined : sessions.authenticate(cookieToken);
      return thenAnswer(principal, (found) => (found ? admit(request, reply, found) : refuse(reply, failures, throttleKey, cookieToken)));
    });
    continueUnlessAnswered(outcome, done);
  });
}

/** The caller is who they say; a session's change must still come from this origin (403). */
function admit(request: FastifyRequest, reply: FastifyReply, principal: Principal): HookOutcome {
  if (principal.session !== undefined && changesState(request.method) && !isSameOrigin(request)) {
    sendError(
      reply,
      new AppError(
        'forbidden',
        "Cross-origin request refused: a request signed in with the session cookie that changes something must send this server's own Origin",
      ),
    );
    return 'answered';
  }
  request.principal = principal;
  return 'continue';
}

/** A failed authentication: counted against the address (429 once its bucket is full), else 401. */
function refuse(reply: FastifyReply, failures: RateLimiter, throttleKey: string, cookieToken: string | null | undefined): Answer<HookOutcome> {
  return thenAnswer(failures.take(throttleKey), (after) => {
    if (!after.allowed) return refuseThrottled(reply, after.retryAfterSeconds);
    reply.header('www-authenticate', CHALLENGE);
    // A cookie that no longer opens a session is of no use to the browser: it may drop it.
    if (cookieToken !== undefined) clearSessionCookie(reply);
    sendError(
      reply,
      new AppError(
        'unauthenticated',
        'Missing or invalid credentials: send Authorization: Bearer <token> or HTTP Basic key:secret, or sign in (POST /v1/session)',
      ),
    );
    return 'answered';
  });
}

function keyPrincipal(request: FastifyRequest, credentials: CredentialService): Answer<Principal | undefined> {
  const presented = readCredentials(request);
  return presented && credentials.authenticate(presented.key, presented.secret);
}

function refuseThrottled(reply: FastifyReply, retryAfterSeconds: number): HookOutcome {
  reply.header('retry-after', String(retryAfterSeconds));
  sendError(reply, new AppError('rate_limited', 'Too many failed authentication attempts from this address; retry later'));
  return 'answered';
}

/** Key and secret from the Authorization header; undefined for anything malformed or ambiguous. */
export function readCredentials(request: FastifyRequest): { key: string; secret: string } | undefined {
  const raw = request.raw.rawHeaders;
  let headerCount = 0;
  for (let i = 0; i < raw.length; i += 2) if (raw[i]?.toLowerCase() === 'authorization') headerCount++;
  const header = request.headers.authorization;
  if (headerCount !== 1 || typeof header !== 'string' || header.length > 1024) return undefined;

  const [scheme, value, extra] = header.split(' ');
  if (value === undefined || value === '' || extra !== undefined) return undefined;
  switch (scheme?.toLowerCase()) {
    case 'bearer':
      return parseToken(value);
    case 'basic': {
      if (!BASE64.test(value) || value.length % 4 !== 0) return undefined;
      const decoded = Buffer.from(value, 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      if (colon <= 0) return undefined;
      return { key: decoded.slice(0, colon), secret: decoded.slice(colon + 1) };
    }
    default:
      return undefined;
  }
}

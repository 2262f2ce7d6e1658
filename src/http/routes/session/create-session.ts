import { SignInInput, StaffMember } from '../../../contract/staff.js';
import { AppError } from '../../../modules/shared/errors.js';
import type { StaffSessionService } from '../../../modules/staff/session-service.js';
import type { App } from '../../plugins/app-types.js';
import { deviceCookieOf, setDeviceCookie } from '../../plugins/device-cookie.js';
import { sendError } from '../../plugins/error-handler.js';
import { isSameOrigin } from '../../plugins/same-origin.js';
import { sessionTokenOf, setSessionCookie } from '../../plugins/session-cookie.js';
import { createErrors } from '../docs.js';
import { NO_SCOPE, staffMemberOf } from './staff-member.js';

const CHALLENGE = 'Bearer realm="pricebook", Basic realm="pricebook", charset="UTF-8"';

export function createSession(app: App, sessions: StaffSessionService): void {
  app.post(
    '/v1/session',
    {
      schema: {
        operationId: 'session.create',
        tags: ['staff'],
        summary: 'Sign in as a staff member',
        description:
          'Needs no credential. Answers the member and sets the session cookie (`pricebook_session`: HttpOnly, Secure, SameSite=Strict, Path=/), always a new one, and a new device cookie (`pricebook_device`, Path=/v1/session). ' +
          'A wrong e-mail and a wrong password get the same 401; attempts are throttled per e-mail (or per device cookie, for a browser that brings a valid one) and per address (429 with Retry-After, before the password is checked). ' +
          'An `Origin` other than this server’s is refused (403). ' +
          NO_SCOPE,
        security: [],
        body: SignInInput,
        response: { 201: StaffMember, ...createErrors },
      },
      config: { staffSession: true },
    },
    async (request, reply) => {
      // A browser sends Origin with every POST: another site's page may not sign anyone in.
      if (request.headers.origin !== undefined && !isSameOrigin(request)) {
        throw new AppError('forbidden', 'Cross-origin sign-in refused: the Origin is not this server');
      }
      const opened = await sessions.signIn(request.body.email, request.body.password, {
        address: request.ip,
        deviceCookie: deviceCookieOf(request),
        replacedToken: sessionTokenOf(request) ?? undefined,
      });
      if (opened === undefined) {
        reply.header('www-authenticate', CHALLENGE);
        return sendError(reply, new AppError('unauthenticated', 'Wrong e-mail or password'));
      }
      setSessionCookie(reply, opened.token, opened.maxAgeSeconds);
      setDeviceCookie(reply, opened.deviceCookie.value, opened.deviceCookie.maxAgeSeconds);
      return reply.code(201).send(staffMemberOf(opened.account));
    },
  );
}

import { SignInInput, StaffMember } from '../../../contract/staff.js';
import { AppError } from '../../../modules/errors.js';
import type { StaffSessionService } from '../../../modules/staff/session-service.js';
import { emailKeyOf } from '../../../modules/staff/staff-service.js';
import type { App } from '../../app-types.js';
import { sendError } from '../../error-handler.js';
import { isSameOrigin } from '../../same-origin.js';
import { sessionTokenOf, setSessionCookie } from '../../session-cookie.js';
import type { SignInThrottle } from '../../sign-in-throttle.js';
import { createErrors } from '../docs.js';
import { NO_SCOPE, staffMemberOf } from './staff-member.js';

const CHALLENGE = 'Bearer realm="pricebook", Basic realm="pricebook", charset="UTF-8"';

export function createSession(app: App, sessions: StaffSessionService, throttle: SignInThrottle): void {
  app.post(
    '/v1/session',
    {
      schema: {
        tags: ['staff'],
        summary: 'Sign in as a staff member',
        description:
          'Needs no credential. Answers the member and sets the session cookie (`pricebook_session`: HttpOnly, Secure, SameSite=Strict, Path=/), always a new one. ' +
          'A wrong e-mail and a wrong password get the same 401; failures are throttled per e-mail and per address (429 with Retry-After). ' +
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
      const emailKey = emailKeyOf(request.body.email);
      const wait = await throttle.refusal(emailKey, request.ip);
      if (wait !== undefined) throw new AppError('rate_limited', 'Too many failed sign-ins for this account or from this address; retry later', undefined, wait);
      const replaced = sessionTokenOf(request);
      const opened = await sessions.signIn(request.body.email, request.body.password, replaced ?? undefined);
      if (opened === undefined) {
        const waitAfter = await throttle.failed(emailKey, request.ip);
        if (waitAfter !== undefined) throw new AppError('rate_limited', 'Too many failed sign-ins for this account or from this address; retry later', undefined, waitAfter);
        reply.header('www-authenticate', CHALLENGE);
        return sendError(reply, new AppError('unauthenticated', 'Wrong e-mail or password'));
      }
      setSessionCookie(reply, opened.token, opened.maxAgeSeconds);
      return reply.code(201).send(staffMemberOf(opened.account));
    },
  );
}

import { PasswordChangeInput } from '../../../contract/staff.js';
import { AppError } from '../../../modules/errors.js';
import type { StaffSessionService } from '../../../modules/staff/session-service.js';
import { emailKeyOf, type StaffService } from '../../../modules/staff/staff-service.js';
import { type App, staffSessionOf } from '../../app-types.js';
import type { SignInThrottle } from '../../sign-in-throttle.js';
import { NoContent, writeErrors } from '../docs.js';
import { NO_SCOPE } from './staff-member.js';

const TOO_MANY = 'Too many wrong passwords for this account or from this address; retry later';

export function changePassword(app: App, staff: StaffService, sessions: StaffSessionService, throttle: SignInThrottle): void {
  app.post(
    '/v1/session/password',
    {
      schema: {
        tags: ['staff'],
        summary: 'Change the signed-in member’s password',
        description:
          'Required before anything else after sign-in with a one-time password (`mustChangePassword`). The new password has 12 to 200 characters and differs from the current one (422 otherwise, as for a wrong `currentPassword`). ' +
          'A wrong `currentPassword` counts as a failed sign-in of the account and the address: past the limit, 429 with Retry-After, as for sign-in. ' +
          `The account's other sessions end; this one goes on. ${NO_SCOPE}`,
        body: PasswordChangeInput,
        response: { 204: NoContent, ...writeErrors },
      },
      config: { staffSession: true },
    },
    async (request, reply) => {
      const { principal, session } = staffSessionOf(request);
      const member = await sessions.member(principal.storeId, principal.actor.id);
      const wait = member === undefined ? undefined : await throttle.refusal(emailKeyOf(member.email), request.ip);
      if (wait !== undefined) throw new AppError('rate_limited', TOO_MANY, undefined, wait);
      await staff.changePassword(principal.storeId, principal.actor.id, session.id, request.body.currentPassword, request.body.newPassword, async (email) => {
        const waitAfter = await throttle.failed(emailKeyOf(email), request.ip);
        if (waitAfter !== undefined) throw new AppError('rate_limited', TOO_MANY, undefined, waitAfter);
      });
      return reply.code(204).send(null);
    },
  );
}

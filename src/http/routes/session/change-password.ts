import { PasswordChangeInput } from '../../../contract/staff.js';
import type { StaffService } from '../../../modules/staff/staff-service.js';
import { type App, staffSessionOf } from '../../plugins/app-types.js';
import { deviceCookieOf } from '../../plugins/device-cookie.js';
import { NoContent, writeErrors } from '../docs.js';
import { NO_SCOPE } from './staff-member.js';

export function changePassword(app: App, staff: StaffService): void {
  app.post(
    '/v1/session/password',
    {
      schema: {
        operationId: 'session.changePassword',
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
      const attempt = { address: request.ip, deviceCookie: deviceCookieOf(request) };
      await staff.changePassword(principal.storeId, principal.actor.id, session.id, request.body.currentPassword, request.body.newPassword, attempt);
      return reply.code(204).send(null);
    },
  );
}

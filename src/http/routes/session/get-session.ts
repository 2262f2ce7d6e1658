import { StaffMember } from '../../../contract/staff.js';
import { AppError } from '../../../modules/shared/errors.js';
import type { StaffSessionService } from '../../../modules/staff/session-service.js';
import { type App, staffSessionOf } from '../../plugins/app-types.js';
import { readErrors } from '../docs.js';
import { NO_SCOPE, staffMemberOf } from './staff-member.js';

export function getSession(app: App, sessions: StaffSessionService): void {
  app.get(
    '/v1/session',
    {
      schema: {
        operationId: 'session.get',
        tags: ['staff'],
        summary: 'The signed-in staff member',
        description: `401 without a valid session cookie (an API key has no session). ${NO_SCOPE}`,
        response: { 200: StaffMember, ...readErrors },
      },
      config: { staffSession: true },
    },
    async (request) => {
      const { principal } = staffSessionOf(request);
      const member = await sessions.member(principal.storeId, principal.actor.id);
      if (member === undefined) throw new AppError('unauthenticated', 'The session has ended: sign in again');
      return staffMemberOf(member);
    },
  );
}

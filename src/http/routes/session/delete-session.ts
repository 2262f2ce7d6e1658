import type { StaffSessionService } from '../../../modules/staff/session-service.js';
import { type App, staffSessionOf } from '../../plugins/app-types.js';
import { clearSessionCookie } from '../../plugins/session-cookie.js';
import { NoContent, deleteErrors } from '../docs.js';
import { NO_SCOPE } from './staff-member.js';

export function deleteSession(app: App, sessions: StaffSessionService): void {
  app.delete(
    '/v1/session',
    {
      schema: {
        operationId: 'session.delete',
        tags: ['staff'],
        summary: 'Sign out: end every session of the signed-in member',
        description: `Ends every session of the member the cookie signs in (this browser's and any other's), on every instance at once, and clears the cookie. ${NO_SCOPE}`,
        response: { 204: NoContent, ...deleteErrors },
      },
      config: { staffSession: true },
    },
    async (request, reply) => {
      await sessions.signOut(staffSessionOf(request).principal.actor.id);
      clearSessionCookie(reply);
      return reply.code(204).send(null);
    },
  );
}

import type { StaffSessionService } from '../../../modules/staff/session-service.js';
import type { StaffService } from '../../../modules/staff/staff-service.js';
import type { App } from '../../plugins/app-types.js';
import { changePassword } from './change-password.js';
import { createSession } from './create-session.js';
import { deleteSession } from './delete-session.js';
import { getSession } from './get-session.js';

export function registerSessionRoutes(app: App, sessions: StaffSessionService, staff: StaffService): void {
  createSession(app, sessions);
  getSession(app, sessions);
  deleteSession(app, sessions);
  changePassword(app, staff);
}

import type { StaffMember } from '../../../contract/staff.js';
import type { StaffAccount } from '../../../modules/staff/staff-repository.js';

/** An account as the session's answers show it. */
export function staffMemberOf(account: StaffAccount): StaffMember {
  return {
    id: account.id,
    email: account.email,
    name: account.name,
    role: account.role,
    storeId: account.storeId,
    mustChangePassword: account.mustChangePassword,
    createdAt: account.createdAt,
  };
}

/** The end of each session operation's OpenAPI description (checked by test/http/scopes-table.test.ts). */
export const NO_SCOPE = 'No scope: a staff session’s own operation (docs/staff.md).';

import { Type, type Static } from '@sinclair/typebox';
import { Id, StrictObject, Timestamp } from './common.js';

/**
 * Staff sign-in and sessions (docs/staff.md). A password's length rule (12 characters or
 * more) is the service's, so that sign-in with any text answers the same 401 as a wrong one.
 */
export const SignInInput = StrictObject(
  {
    email: Type.String({ minLength: 1, maxLength: 254 }),
    password: Type.String({ minLength: 1, maxLength: 1000 }),
  },
  { title: 'SignInInput' },
);
export type SignInInput = Static<typeof SignInInput>;

export const PasswordChangeInput = StrictObject(
  {
    currentPassword: Type.String({ minLength: 1, maxLength: 1000 }),
    newPassword: Type.String({ minLength: 1, maxLength: 1000, description: '12 to 200 characters, not the current password' }),
  },
  { title: 'PasswordChangeInput' },
);
export type PasswordChangeInput = Static<typeof PasswordChangeInput>;

export const StaffRoleSchema = Type.Union([Type.Literal('viewer'), Type.Literal('editor'), Type.Literal('approver'), Type.Literal('owner')], {
  title: 'StaffRole',
  description: 'viewer reads; editor also changes prices; approver is an editor (change sets come later); owner has every scope',
});

/** The signed-in member, as sign-in and `GET /v1/session` answer. */
export const StaffMember = Type.Object(
  {
    id: Id,
    email: Type.String(),
    name: Type.String(),
    role: StaffRoleSchema,
    storeId: Id,
    mustChangePassword: Type.Boolean({
      description: 'true: only POST /v1/session/password (and GET or DELETE /v1/session) are allowed until the password is changed',
    }),
    createdAt: Timestamp,
  },
  { title: 'StaffMember', additionalProperties: false },
);
export type StaffMember = Static<typeof StaffMember>;

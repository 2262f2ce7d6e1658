import { SCOPES, type Scope } from '../stores/scopes.js';

/** A staff member's role: what the member may do, as the API scopes of the role (docs/staff.md). */
export const STAFF_ROLES = ['viewer', 'editor', 'approver', 'owner'] as const;

export type StaffRole = (typeof STAFF_ROLES)[number];

export function isStaffRole(value: string): value is StaffRole {
  return (STAFF_ROLES as readonly string[]).includes(value);
}

const VIEWER: readonly Scope[] = ['catalog:read', 'trade_prices:read', 'orders:read'];
const EDITOR: readonly Scope[] = [...VIEWER, 'trade_prices:write'];

/**
 * The scopes of each role. An approver is an editor who may also approve others' change sets;
 * an owner has every scope but `trade_prices:direct`, and manages staff with the CLI. No role
 * writes prices directly where the store requires approval: staff change them through change
 * sets there, which someone else approves (docs/change-sets.md, "Approval").
 */
export const SCOPES_OF_ROLE: Readonly<Record<StaffRole, readonly Scope[]>> = {
  viewer: VIEWER,
  editor: EDITOR,
  approver: [...EDITOR, 'trade_prices:approve'],
  owner: SCOPES.filter((scope) => scope !== 'trade_prices:direct'),
};

import type { ChangeSet, StaffMember } from '@pricebook/client/browser';

/** The states in which a set still changes: operations added, submitted, approved, applied or discarded. */
export const OPEN_STATES: ReadonlySet<ChangeSet['state']> = new Set(['draft', 'submitted', 'approved', 'scheduled', 'failed']);

/** What the set's page offers: each step the set's state and the member's role allow, as the API would take it. */
export interface OfferedSteps {
  /** Add, change, delete and upload into the set. */
  edit: boolean;
  submit: boolean;
  approve: boolean;
  /** Apply now, or schedule. */
  apply: boolean;
  discard: boolean;
  revert: boolean;
  /** Where the store requires approval and the set is not approved yet: why applying is not offered. */
  awaitsApproval: boolean;
}

/**
 * The steps of docs/change-sets.md's states, for `member` (`trade_prices:write` for all but the
 * approval, which takes `trade_prices:approve`: approvers and owners). Where the store requires
 * approval, a set applies only once approved (the approval goes with any change to its
 * operations). Who may approve a given set (never its own writers there) is the server's to say:
 * its refusal names the rule.
 */
export function offeredSteps(set: ChangeSet, member: StaffMember | undefined, approvalRequired: boolean): OfferedSteps {
  const writes = member !== undefined && member.role !== 'viewer';
  const approves = member?.role === 'approver' || member?.role === 'owner';
  const open = OPEN_STATES.has(set.state);
  const hasWork = set.counts.operations > 0 || set.revertOf !== null;
  const approved = set.approvedBy !== null && (set.state === 'approved' || set.state === 'scheduled' || set.state === 'failed');
  const applicable = open && hasWork && (!approvalRequired || approved);
  return {
    edit: writes && open,
    submit: writes && (set.state === 'draft' || set.state === 'failed') && hasWork,
    approve: approves && set.state === 'submitted',
    apply: writes && applicable,
    discard: writes && open,
    revert: writes && set.state === 'applied' && set.revertedBy === null,
    awaitsApproval: writes && open && hasWork && approvalRequired && !approved,
  };
}

import type { ChangeSetState } from '../../contract/change-sets.js';
import { AppError } from '../shared/errors.js';
import type { Actor, ChangeOrigin } from '../history/history-entry.js';
import type { Repositories } from '../shared/unit-of-work.js';
import type { StoredChangeSet } from './change-set-repository.js';

/*
 * What a set's state and its writers allow (docs/change-sets.md): which steps an open set may
 * take, who may approve it, when it may be applied, and who its steps are recorded as.
 */

/** States whose set may still be changed, submitted, applied or discarded. */
export const OPEN_STATES: readonly ChangeSetState[] = ['draft', 'submitted', 'approved', 'scheduled', 'failed'];

/** Refuses a step the set's state does not allow: 409, code 17. */
export function wrongState(set: StoredChangeSet, step: string, why: string): AppError {
  return new AppError('wrong_state', `Change set ${set.id} is ${set.state} and cannot be ${step}: ${why}`);
}

export function assertOpen(set: StoredChangeSet, step: string): void {
  if (!OPEN_STATES.includes(set.state)) throw wrongState(set, step, 'it is no longer open');
}

/** Whether the set may be applied or scheduled: open, not empty, and approved for this revision where the store requires it. */
export async function assertApplicable(repos: Repositories, set: StoredChangeSet): Promise<void> {
  assertOpen(set, 'applied');
  // A revert of a set that changed nothing (a replace with every price as it was) has nothing to do, and is applied all the same.
  if (set.operationCount === 0 && set.revertOf === null) throw wrongState(set, 'applied', 'it has no operations');
  if ((await repos.stores.requiresApproval(set.storeId)) !== true) return;
  if (set.approvedRevision === null) {
    throw wrongState(set, 'applied', 'this store requires an approval: submit it, then another staff member or key with trade_prices:approve approves it');
  }
  if (set.approvedRevision !== set.revision || (set.state !== 'approved' && set.state !== 'scheduled' && set.state !== 'failed')) {
    throw wrongState(
      set,
      'applied',
      `its operations changed after the approval (revision ${set.approvedRevision}, now ${set.revision}): submit it again for approval`,
    );
  }
  // An approval given while the store did not require one may have come from a writer of the set: it does not count now.
  if (set.approvedBy === null || isWriter(set, set.approvedBy)) {
    throw wrongState(set, 'applied', 'it was approved by one of its writers, before this store required approval: submit it again for another’s approval');
  }
}

/** Whether `actor` created the set, changed its operations or submitted it. */
export function isWriter(set: StoredChangeSet, actor: Actor): boolean {
  const key = actorKey(actor);
  return set.authors.includes(key) || (set.submittedBy !== null && actorKey(set.submittedBy) === key);
}

export function actorKey(actor: Actor): string {
  return `${actor.type}:${actor.id}`;
}

export function withAuthor(authors: readonly string[], actor: Actor): string[] {
  const key = actorKey(actor);
  return authors.includes(key) ? [...authors] : [...authors, key];
}

/** The operations' own origin: made by the set, in the name of whoever applied it. */
export function asChangeSet(origin: ChangeOrigin, id: number): ChangeOrigin {
  return { ...origin, source: 'changeset', sourceId: id };
}

/** Who a scheduled set's steps are recorded as: whoever scheduled it, the set as the source. */
export function scheduleOrigin(set: StoredChangeSet): ChangeOrigin {
  return { actor: set.appliedBy ?? set.createdBy, source: 'changeset', sourceId: set.id, requestId: null };
}

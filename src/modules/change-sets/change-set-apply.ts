import type { ChangeSet } from '../../contract/change-sets.js';
import type { FieldProblem } from '../../contract/errors.js';
import { type Clock, isoTimestamp } from '../shared/clock.js';
import { AppError, MAX_REPORTED_PROBLEMS, validationFailed } from '../shared/errors.js';
import type { ChangeOrigin } from '../history/history-entry.js';
import { canonicalTimestamp, TIMESTAMP_RULE } from '../shared/timestamps.js';
import type { UnitOfWork } from '../shared/unit-of-work.js';
import { executeOperations, type OperationServices } from './apply-operations.js';
import { inverseOperations } from './applied-effects.js';
import type { ChangeSetPatch, StoredChangeSet } from './change-set-repository.js';
import { type ChangeSetRecorder, findSet, shown } from './change-set-recorder.js';
import { asChangeSet, assertApplicable, OPEN_STATES, scheduleOrigin, wrongState } from './change-set-rules.js';

/** An apply the live book refused: the transaction rolls back with these problems. */
class ApplyRefused extends Error {
  constructor(readonly problems: FieldProblem[]) {
    super(`${problems.length} problems`);
  }
}

/**
 * A set applied (now, at a scheduled moment, or by the maintenance loop when that moment
 * comes), failed when the live book refuses it, and taken back by a revert: a new draft that
 * undoes what the apply did.
 */
export class ChangeSetApply {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly services: OperationServices,
    private readonly recorder: ChangeSetRecorder,
  ) {}

  /**
   * Applies the set now, or (`at` in the future) schedules it for then. Applying is one
   * transaction, all or nothing; when the live book refuses any operation, nothing changes,
   * the set is `failed` with every problem, and the answer is a 422 listing them by the
   * operation's `index` in the set (as a bulk create refuses a deleted customer).
   */
  async apply(storeId: number, origin: ChangeOrigin, id: number, at?: string): Promise<ChangeSet> {
    const now = isoTimestamp(this.clock);
    let moment: string | undefined;
    if (at !== undefined) {
      moment = canonicalTimestamp(at);
      if (moment === undefined) throw validationFailed([{ field: 'at', message: TIMESTAMP_RULE }]);
    }
    if (moment !== undefined && moment > now) {
      const scheduledAt = moment;
      return this.uow.transaction(async (repos) => {
        await repos.history.lockChain(storeId);
        const set = await findSet(repos, storeId, id);
        await assertApplicable(repos, set);
        return shown(await this.recorder.step(repos, set, { state: 'scheduled', applyAt: scheduledAt, appliedBy: origin.actor }, origin));
      });
    }
    return shown(await this.applyNow(storeId, id, origin, false));
  }

  /**
   * A new draft that takes an applied set back exactly (`inverseOperations`): it goes through
   * the same preview, approval and apply; once applied, this set becomes `rolled_back`.
   */
  revert(storeId: number, origin: ChangeOrigin, id: number): Promise<ChangeSet> {
    return this.uow.transaction(async (repos) => {
      await repos.history.lockChain(storeId);
      const set = await findSet(repos, storeId, id);
      if (set.state !== 'applied' || set.effects === null) throw wrongState(set, 'reverted', 'only an applied set can be');
      if (set.revertedBy !== null) {
        const earlier = await repos.changeSets.find(storeId, set.revertedBy);
        if (earlier !== undefined && earlier.state !== 'discarded')
          throw wrongState(set, 'reverted again', `change set ${earlier.id} takes it back already (discard that one first)`);
      }
      const inverse = inverseOperations(set.effects);
      const draft = await this.recorder.insertDraft(
        repos,
        storeId,
        origin,
        { name: `Revert of ${set.name}`.slice(0, 255), note: `Takes back change set ${set.id}`, revertOf: set.id },
        inverse,
      );
      await repos.changeSets.move(storeId, set.id, set.state, { revertedBy: draft.id, updatedAt: draft.createdAt });
      return shown(draft);
    });
  }

  /**
   * The maintenance loop's turn: applies up to `limit` sets scheduled for `now` or before,
   * each in its own transaction, and answers how many it took up. A set another process
   * applied first is skipped (the claim in the transaction sees it moved); one the book refuses
   * is failed as an apply by request would be.
   */
  async applyDue(now: number, limit: number): Promise<number> {
    const due = await this.uow.repos.changeSets.due(new Date(now).toISOString(), limit);
    for (const { storeId, id } of due) {
      try {
        await this.applyNow(storeId, id, undefined, true);
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
      }
    }
    return due.length;
  }

  /**
   * The apply: one transaction that claims the set (moves it to `applied` if it is still where
   * it was) and carries out every operation; any problem rolls all of it back, and a second
   * transaction fails the set. `origin` undefined: the schedule's, as its scheduler.
   */
  private async applyNow(storeId: number, id: number, requested: ChangeOrigin | undefined, scheduled: boolean): Promise<StoredChangeSet> {
    try {
      return await this.uow.transaction(async (repos) => {
        await repos.history.lockChain(storeId);
        const set = await findSet(repos, storeId, id);
        if (scheduled && set.state !== 'scheduled') throw wrongState(set, 'applied by its schedule', 'it is no longer scheduled');
        try {
          await assertApplicable(repos, set);
        } catch (error) {
          // A scheduled set that may no longer be applied (the store came to require an approval it lacks) fails, rather than stay due for ever.
          if (scheduled && error instanceof AppError) throw new ApplyRefused([{ field: null, message: error.message }]);
          throw error;
        }
        const origin = requested ?? scheduleOrigin(set);
        const appliedAt = isoTimestamp(this.clock);
        if (!(await repos.changeSets.move(storeId, id, set.state, { state: 'applied' }, set.revision)))
          throw wrongState(set, 'applied', 'another request or process moved it meanwhile');
        const execution = await executeOperations(this.services, storeId, asChangeSet(origin, id), await this.recorder.allOperations(set));
        if (execution.problems.length > 0) throw new ApplyRefused(execution.problems);
        const patch: ChangeSetPatch = {
          state: 'applied',
          appliedAt,
          appliedBy: origin.actor,
          effects: execution.effects,
          problems: [],
          counts: { operations: set.operationCount, created: execution.created.length, deleted: execution.deleted.length, updated: execution.updated.length },
        };
        const applied = await this.recorder.step(repos, set, patch, origin, 'applied');
        await this.recorder.announce(repos, 'change_set.applied', applied);
        if (set.revertOf !== null) {
          const original = await repos.changeSets.find(storeId, set.revertOf);
          if (original !== undefined && original.state === 'applied') {
            const rolledBack = await this.recorder.step(repos, original, { state: 'rolled_back' }, origin, 'applied');
            await this.recorder.announce(repos, 'change_set.reverted', rolledBack);
          }
        }
        return applied;
      });
    } catch (error) {
      if (!(error instanceof ApplyRefused)) throw error;
      await this.fail(storeId, id, requested, error.problems);
      const refused = new Set(error.problems.map((problem) => problem.index)).size;
      const failed = validationFailed(error.problems);
      throw new AppError(
        failed.kind,
        `Change set ${id} was not applied: the live book refuses ${refused} of its operations (by index in the set); nothing changed`,
        failed.problems,
      );
    }
  }

  /** The set failed, with its problems, unless another request moved it meanwhile. */
  private fail(storeId: number, id: number, requested: ChangeOrigin | undefined, problems: readonly FieldProblem[]): Promise<void> {
    return this.uow.transaction(async (repos) => {
      await repos.history.lockChain(storeId);
      const set = await findSet(repos, storeId, id);
      if (!OPEN_STATES.includes(set.state)) return;
      const origin = requested ?? scheduleOrigin(set);
      const failed = await this.recorder.step(repos, set, { state: 'failed', applyAt: null, problems: problems.slice(0, MAX_REPORTED_PROBLEMS) }, origin);
      await this.recorder.announce(repos, 'change_set.failed', failed);
    });
  }
}

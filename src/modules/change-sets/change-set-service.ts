import {
  type ChangeSet,
  type ChangeSetInput,
  type ChangeSetOperation,
  type ChangeSetPreview,
  type ChangeSetState,
  type ListedOperation,
  MAX_OPERATIONS_PER_SET,
  type PreviewRow,
} from '../../contract/change-sets.js';
import type { FieldProblem } from '../../contract/errors.js';
import type { EventTopic } from '../../contract/events.js';
import { type Clock, isoTimestamp } from '../clock.js';
import { AppError, found, MAX_REPORTED_PROBLEMS, refusedBy, validationFailed } from '../errors.js';
import { eventOf } from '../events/events.js';
import { changeSetRecord, type ChangeSetStep } from '../history/change-records.js';
import type { Actor, ChangeOrigin } from '../history/history-entry.js';
import type { Page } from '../page.js';
import type { PricingService } from '../pricing/pricing-service.js';
import { canonicalTimestamp, TIMESTAMP_RULE } from '../timestamps.js';
import type { Repositories, UnitOfWork } from '../unit-of-work.js';
import { executeOperations, type OperationServices } from './apply-operations.js';
import { inverseOperations } from './applied-effects.js';
import type { ChangeSetPatch, StoredChangeSet } from './change-set-repository.js';
import { affectedPairs, pairPrices, previewRows } from './preview.js';

/** States whose set may still be changed, submitted, applied or discarded. */
const OPEN_STATES: readonly ChangeSetState[] = ['draft', 'submitted', 'approved', 'scheduled', 'failed'];
/** Operations read per query when a set is applied or previewed. */
const OPERATIONS_PAGE = 1000;

/** An apply the live book refused: the transaction rolls back with these problems. */
class ApplyRefused extends Error {
  constructor(readonly problems: FieldProblem[]) {
    super(`${problems.length} problems`);
  }
}

/** A preview's rows, all of them, with its counts: the route pages them or writes them as CSV. */
export type FullPreview = Omit<ChangeSetPreview, 'rows' | 'total'> & { rows: PreviewRow[] };

/**
 * Change sets (docs/change-sets.md): a store's price changes staged as operations, previewed
 * against the live book, approved by someone who did not write them (when the store requires
 * it), applied in one transaction now or at a moment, and taken back by a revert. Every step is
 * recorded in the price history with its actor; the operations themselves are carried out by
 * the services that write each kind, so their records get the usual events and history
 * entries, with the set as their source.
 */
export class ChangeSetService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly services: OperationServices,
    private readonly pricing: PricingService,
  ) {}

  async list(storeId: number, state: ChangeSetState | undefined, page: Page): Promise<ChangeSet[]> {
    return (await this.uow.repos.changeSets.list(storeId, state, page)).map(shown);
  }

  count(storeId: number, state: ChangeSetState | undefined): Promise<number> {
    return this.uow.repos.changeSets.count(storeId, state);
  }

  async get(storeId: number, id: number): Promise<ChangeSet> {
    return shown(await findSet(this.uow.repos, storeId, id));
  }

  /** 404 unless the set is the store's, 409 (code 17) unless it is open: an import checks its set before reading the file. */
  async assertOpen(storeId: number, id: number): Promise<void> {
    assertOpen(await findSet(this.uow.repos, storeId, id), 'changed');
  }

  async operations(storeId: number, id: number, page: Page): Promise<ListedOperation[]> {
    const set = await findSet(this.uow.repos, storeId, id);
    const operations = await this.uow.repos.changeSets.operations(set.id, page);
    return operations.map((operation, at) => ({ index: page.offset + at, operation }));
  }

  /** A new, empty draft. */
  create(storeId: number, origin: ChangeOrigin, input: ChangeSetInput): Promise<ChangeSet> {
    return this.uow.transaction(async (repos) => {
      await repos.history.lockChain(storeId);
      const set = await this.insertDraft(repos, storeId, origin, { name: input.name, note: input.note ?? null, revertOf: null }, []);
      return shown(set);
    });
  }

  /**
   * Adds operations after those the set holds, all or none. Each is tried against the live
   * book on its own (a rehearsal, undone at once), so a 422 lists every problem by the item's
   * `index`, those the schema found (`shapeProblems`) with them. The set goes back to draft:
   * a submission, an approval and a schedule no longer stand.
   */
  addOperations(storeId: number, origin: ChangeOrigin, id: number, operations: ReadonlyArray<ChangeSetOperation | undefined>, shapeProblems: readonly FieldProblem[] = []): Promise<ChangeSet> {
    return this.uow.transaction(async (repos) => {
      await repos.history.lockChain(storeId);
      const set = await findSet(repos, storeId, id);
      assertOpen(set, 'changed');
      if (set.operationCount + operations.length > MAX_OPERATIONS_PER_SET) {
        throw validationFailed([{ field: null, message: `would make ${set.operationCount + operations.length} operations; a change set holds at most ${MAX_OPERATIONS_PER_SET}` }]);
      }
      const refused = refusedBy(shapeProblems);
      const checkable = operations.flatMap((operation, index) => (operation === undefined || refused(index, null) ? [] : [{ operation, index }]));
      const problems = [...shapeProblems];
      // Tried after the set's own operations, as the apply will carry them out: a deletion of a
      // record the set deletes already is refused, a restore of one it deletes accepted. The
      // problems of the operations already held (the book may have moved on) are the preview's to tell.
      const held = await this.allOperations(set);
      const tried = await this.uow.rehearse(() =>
        executeOperations(
          this.services,
          storeId,
          asChangeSet(origin, id),
          [...held, ...checkable.map((item) => item.operation)],
        ),
      );
      for (const problem of tried.problems) {
        const at = (problem.index ?? 0) - held.length;
        if (at >= 0) problems.push({ ...problem, index: checkable[at]!.index });
      }
      if (problems.length > 0) throw validationFailed(problems, operations.length);

      const added = checkable.map((item) => item.operation);
      await repos.changeSets.appendOperations(set.id, set.operationCount, added);
      const patch: ChangeSetPatch = {
        state: 'draft',
        revision: set.revision + 1,
        operationCount: set.operationCount + added.length,
        authors: withAuthor(set.authors, origin.actor),
        submittedBy: null,
        approvedBy: null,
        applyAt: null,
        problems: [],
        counts: { ...set.counts, operations: set.operationCount + added.length },
      };
      return shown(await this.step(repos, set, patch, origin));
    });
  }

  /** draft (or failed) → submitted: the set asks for an approval. */
  submit(storeId: number, origin: ChangeOrigin, id: number): Promise<ChangeSet> {
    return this.uow.transaction(async (repos) => {
      await repos.history.lockChain(storeId);
      const set = await findSet(repos, storeId, id);
      if (set.state !== 'draft' && set.state !== 'failed') throw wrongState(set, 'submitted', 'only a draft (or a failed set) can be');
      if (set.operationCount === 0 && set.revertOf === null) throw wrongState(set, 'submitted', 'it has no operations yet');
      const moved = await this.step(repos, set, { state: 'submitted', submittedBy: origin.actor }, origin);
      await this.announce(repos, 'change_set.submitted', moved);
      return shown(moved);
    });
  }

  /**
   * submitted → approved, for this revision of the operations. Where the store requires
   * approval, the approver must not be the set's creator, submitter or an author of its
   * operations (403).
   */
  approve(storeId: number, origin: ChangeOrigin, id: number): Promise<ChangeSet> {
    return this.uow.transaction(async (repos) => {
      await repos.history.lockChain(storeId);
      const set = await findSet(repos, storeId, id);
      if (set.state !== 'submitted') throw wrongState(set, 'approved', 'only a submitted set can be: submit it first');
      if ((await repos.stores.requiresApproval(storeId)) === true) {
        if (isWriter(set, origin.actor)) {
          throw new AppError('forbidden', `Change set ${set.id} must be approved by someone who did not write or submit it: this store requires approval by another staff member or key`);
        }
      }
      const moved = await this.step(repos, set, { state: 'approved', approvedBy: origin.actor, approvedRevision: set.revision }, origin);
      await this.announce(repos, 'change_set.approved', moved);
      return shown(moved);
    });
  }

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
        return shown(await this.step(repos, set, { state: 'scheduled', applyAt: scheduledAt, appliedBy: origin.actor }, origin));
      });
    }
    return shown(await this.applyNow(storeId, id, origin, false));
  }

  /** Any open set → discarded; its operations stay readable. */
  discard(storeId: number, origin: ChangeOrigin, id: number): Promise<ChangeSet> {
    return this.uow.transaction(async (repos) => {
      await repos.history.lockChain(storeId);
      const set = await findSet(repos, storeId, id);
      assertOpen(set, 'discarded');
      return shown(await this.step(repos, set, { state: 'discarded', applyAt: null }, origin));
    });
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
        if (earlier !== undefined && earlier.state !== 'discarded') throw wrongState(set, 'reverted again', `change set ${earlier.id} takes it back already (discard that one first)`);
      }
      const inverse = inverseOperations(set.effects);
      const draft = await this.insertDraft(repos, storeId, origin, { name: `Revert of ${set.name}`.slice(0, 255), note: `Takes back change set ${set.id}`, revertOf: set.id }, inverse);
      await repos.changeSets.move(storeId, set.id, set.state, { revertedBy: draft.id, updatedAt: draft.createdAt });
      return shown(draft);
    });
  }

  /**
   * What applying the set would do at `at` (default: its scheduled moment, or now): it is
   * carried out in a rehearsal, undone at once, so the records and problems are exactly the
   * apply's; then every affected customer's price for each SKU and break is read as the set
   * leaves it and (after the rehearsal) as it is.
   */
  async preview(storeId: number, id: number, at: string | undefined): Promise<FullPreview> {
    const set = await findSet(this.uow.repos, storeId, id);
    if (!OPEN_STATES.includes(set.state)) throw wrongState(set, 'previewed', 'it is no longer open (what an applied set changed is in the price history)');
    const moment = at ?? set.applyAt ?? isoTimestamp(this.clock);
    const operations = await this.allOperations(set);
    const origin: ChangeOrigin = { actor: set.createdBy, source: 'changeset', sourceId: set.id, requestId: null };
    const rehearsed = await this.uow.rehearse(async (repos) => {
      const execution = await executeOperations(this.services, storeId, origin, operations);
      const pairs = await affectedPairs(repos, storeId, execution);
      return { execution, pairs, after: await pairPrices(this.pricing, storeId, pairs, moment) };
    });
    const before = await pairPrices(this.pricing, storeId, rehearsed.pairs, moment);
    const rows = previewRows(rehearsed.execution, rehearsed.pairs, before, rehearsed.after);
    const prices = rows.filter((row) => row.kind === 'price');
    return {
      changeSetId: set.id,
      at: moment,
      counts: {
        created: rehearsed.execution.created.length,
        deleted: rehearsed.execution.deleted.length,
        updated: rehearsed.execution.updated.length,
        prices: prices.length,
        changedPrices: prices.filter((row) => row.before !== row.after).length,
      },
      pricesComplete: rehearsed.pairs.complete,
      problems: rehearsed.execution.problems.slice(0, MAX_REPORTED_PROBLEMS),
      rows,
    };
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
        if (!(await repos.changeSets.move(storeId, id, set.state, { state: 'applied' }, set.revision))) throw wrongState(set, 'applied', 'another request or process moved it meanwhile');
        const execution = await executeOperations(this.services, storeId, asChangeSet(origin, id), await this.allOperations(set));
        if (execution.problems.length > 0) throw new ApplyRefused(execution.problems);
        const patch: ChangeSetPatch = {
          state: 'applied',
          appliedAt,
          appliedBy: origin.actor,
          effects: execution.effects,
          problems: [],
          counts: { operations: set.operationCount, created: execution.created.length, deleted: execution.deleted.length, updated: execution.updated.length },
        };
        const applied = await this.step(repos, set, patch, origin, 'applied');
        await this.announce(repos, 'change_set.applied', applied);
        if (set.revertOf !== null) {
          const original = await repos.changeSets.find(storeId, set.revertOf);
          if (original !== undefined && original.state === 'applied') {
            const rolledBack = await this.step(repos, original, { state: 'rolled_back' }, origin, 'applied');
            await this.announce(repos, 'change_set.reverted', rolledBack);
          }
        }
        return applied;
      });
    } catch (error) {
      if (!(error instanceof ApplyRefused)) throw error;
      await this.fail(storeId, id, requested, error.problems);
      const refused = new Set(error.problems.map((problem) => problem.index)).size;
      const failed = validationFailed(error.problems);
      throw new AppError(failed.kind, `Change set ${id} was not applied: the live book refuses ${refused} of its operations (by index in the set); nothing changed`, failed.problems);
    }
  }

  /** The set failed, with its problems, unless another request moved it meanwhile. */
  private fail(storeId: number, id: number, requested: ChangeOrigin | undefined, problems: readonly FieldProblem[]): Promise<void> {
    return this.uow.transaction(async (repos) => {
      await repos.history.lockChain(storeId);
      const set = await findSet(repos, storeId, id);
      if (!OPEN_STATES.includes(set.state)) return;
      const origin = requested ?? scheduleOrigin(set);
      const failed = await this.step(repos, set, { state: 'failed', applyAt: null, problems: problems.slice(0, MAX_REPORTED_PROBLEMS) }, origin);
      await this.announce(repos, 'change_set.failed', failed);
    });
  }

  private async insertDraft(
    repos: Repositories,
    storeId: number,
    origin: ChangeOrigin,
    fields: { name: string; note: string | null; revertOf: number | null },
    operations: readonly ChangeSetOperation[],
  ): Promise<StoredChangeSet> {
    const now = isoTimestamp(this.clock);
    const set = await repos.changeSets.insert({
      storeId,
      ...fields,
      state: 'draft',
      revision: 1,
      approvedRevision: null,
      operationCount: operations.length,
      createdBy: origin.actor,
      authors: [actorKey(origin.actor)],
      submittedBy: null,
      approvedBy: null,
      appliedBy: null,
      applyAt: null,
      appliedAt: null,
      revertedBy: null,
      problems: [],
      counts: { operations: operations.length, created: 0, deleted: 0, updated: 0 },
      effects: null,
      createdAt: now,
      updatedAt: now,
    });
    for (let start = 0; start < operations.length; start += OPERATIONS_PAGE) await repos.changeSets.appendOperations(set.id, start, operations.slice(start, start + OPERATIONS_PAGE));
    await repos.history.append(storeId, now, origin, [changeSetRecord(null, stepOf(set))]);
    return set;
  }

  /**
   * Moves the set from the state it was read in (`expected`: the state the row holds now, when a
   * claim already moved it) and records the step in the price history.
   */
  private async step(repos: Repositories, set: StoredChangeSet, patch: ChangeSetPatch, origin: ChangeOrigin, expected: ChangeSetState = set.state): Promise<StoredChangeSet> {
    const updatedAt = isoTimestamp(this.clock);
    const next: StoredChangeSet = { ...set, ...patch, updatedAt };
    if (!(await repos.changeSets.move(set.storeId, set.id, expected, { ...patch, updatedAt }))) throw wrongState(set, `moved to ${patch.state ?? set.state}`, 'another request moved it meanwhile');
    await repos.history.append(set.storeId, updatedAt, origin, [changeSetRecord(stepOf(set), stepOf(next))]);
    return next;
  }

  private announce(repos: Repositories, topic: EventTopic, set: StoredChangeSet): Promise<void> {
    return repos.events.append([eventOf(set.storeId, topic, shown(set))], set.updatedAt);
  }

  private async allOperations(set: StoredChangeSet): Promise<ChangeSetOperation[]> {
    const operations: ChangeSetOperation[] = [];
    for (let offset = 0; offset < set.operationCount; offset += OPERATIONS_PAGE) {
      operations.push(...(await this.uow.repos.changeSets.operations(set.id, { offset, count: OPERATIONS_PAGE })));
    }
    return operations;
  }
}

/** Who a scheduled set's steps are recorded as: whoever scheduled it, the set as the source. */
function scheduleOrigin(set: StoredChangeSet): ChangeOrigin {
  return { actor: set.appliedBy ?? set.createdBy, source: 'changeset', sourceId: set.id, requestId: null };
}

async function findSet(repos: Repositories, storeId: number, id: number): Promise<StoredChangeSet> {
  return found(await repos.changeSets.find(storeId, id), `Change set ${id}`);
}

/** The operations' own origin: made by the set, in the name of whoever applied it. */
function asChangeSet(origin: ChangeOrigin, id: number): ChangeOrigin {
  return { ...origin, source: 'changeset', sourceId: id };
}

/** Refuses a step the set's state does not allow: 409, code 17. */
function wrongState(set: StoredChangeSet, step: string, why: string): AppError {
  return new AppError('wrong_state', `Change set ${set.id} is ${set.state} and cannot be ${step}: ${why}`);
}

function assertOpen(set: StoredChangeSet, step: string): void {
  if (!OPEN_STATES.includes(set.state)) throw wrongState(set, step, 'it is no longer open');
}

/** Whether the set may be applied or scheduled: open, not empty, and approved for this revision where the store requires it. */
async function assertApplicable(repos: Repositories, set: StoredChangeSet): Promise<void> {
  assertOpen(set, 'applied');
  // A revert of a set that changed nothing (a replace with every price as it was) has nothing to do, and is applied all the same.
  if (set.operationCount === 0 && set.revertOf === null) throw wrongState(set, 'applied', 'it has no operations');
  if ((await repos.stores.requiresApproval(set.storeId)) !== true) return;
  if (set.approvedRevision === null) {
    throw wrongState(set, 'applied', 'this store requires an approval: submit it, then another staff member or key with trade_prices:approve approves it');
  }
  if (set.approvedRevision !== set.revision || (set.state !== 'approved' && set.state !== 'scheduled' && set.state !== 'failed')) {
    throw wrongState(set, 'applied', `its operations changed after the approval (revision ${set.approvedRevision}, now ${set.revision}): submit it again for approval`);
  }
  // An approval given while the store did not require one may have come from a writer of the set: it does not count now.
  if (set.approvedBy === null || isWriter(set, set.approvedBy)) {
    throw wrongState(set, 'applied', 'it was approved by one of its writers, before this store required approval: submit it again for another’s approval');
  }
}

/** Whether `actor` created the set, changed its operations or submitted it. */
function isWriter(set: StoredChangeSet, actor: Actor): boolean {
  const key = actorKey(actor);
  return set.authors.includes(key) || (set.submittedBy !== null && actorKey(set.submittedBy) === key);
}

function actorKey(actor: Actor): string {
  return `${actor.type}:${actor.id}`;
}

function withAuthor(authors: readonly string[], actor: Actor): string[] {
  const key = actorKey(actor);
  return authors.includes(key) ? [...authors] : [...authors, key];
}

function stepOf(set: StoredChangeSet): ChangeSetStep {
  return { id: set.id, name: set.name, state: set.state, revision: set.revision, operations: set.operationCount, applyAt: set.applyAt };
}

/** The set as the API shows it. */
export function shown(set: StoredChangeSet): ChangeSet {
  return {
    id: set.id,
    name: set.name,
    note: set.note,
    state: set.state,
    revision: set.revision,
    counts: set.counts,
    createdBy: set.createdBy,
    submittedBy: set.submittedBy,
    approvedBy: set.approvedBy,
    appliedBy: set.appliedBy,
    applyAt: set.applyAt,
    appliedAt: set.appliedAt,
    revertOf: set.revertOf,
    revertedBy: set.revertedBy,
    problems: set.problems,
    createdAt: set.createdAt,
    updatedAt: set.updatedAt,
  };
}

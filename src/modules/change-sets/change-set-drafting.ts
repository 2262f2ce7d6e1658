import {
  type ChangeSet,
  type ChangeSetInput,
  type ChangeSetOperation,
  MAX_OPERATIONS_PER_SET,
  MAX_PRICES_PER_SET,
  operationPrices,
} from '../../contract/change-sets.js';
import type { FieldProblem } from '../../contract/errors.js';
import { AppError, refusedBy, validationFailed } from '../shared/errors.js';
import type { ChangeOrigin } from '../history/history-entry.js';
import type { UnitOfWork } from '../shared/unit-of-work.js';
import { executeOperations, type OperationServices } from './apply-operations.js';
import type { ChangeSetPatch } from './change-set-repository.js';
import { type ChangeSetRecorder, findSet, shown } from './change-set-recorder.js';
import { asChangeSet, assertOpen, isWriter, withAuthor, wrongState } from './change-set-rules.js';
import { heldOperationsConcerning } from './held-operations.js';

/**
 * A set on its way to an apply: created empty, its operations added (each tried against the
 * live book first), submitted, approved by someone who did not write it where the store
 * requires it, or discarded.
 */
export class ChangeSetDrafting {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly services: OperationServices,
    private readonly recorder: ChangeSetRecorder,
  ) {}

  /** A new, empty draft. */
  create(storeId: number, origin: ChangeOrigin, input: ChangeSetInput): Promise<ChangeSet> {
    return this.uow.transaction(async (repos) => {
      await repos.history.lockChain(storeId);
      const set = await this.recorder.insertDraft(repos, storeId, origin, { name: input.name, note: input.note ?? null, revertOf: null }, []);
      return shown(set);
    });
  }

  /**
   * Adds operations after those the set holds, all or none. Each is tried against the live
   * book (a rehearsal, undone at once) after only the held operations it depends on
   * (`heldOperationsConcerning`: none, unless it names a record, or a value it expects), so a
   * 422 lists every problem by the item's `index`, those the schema found (`shapeProblems`) with
   * them, and an add costs its own operations, not the set's. Past MAX_OPERATIONS_PER_SET or
   * MAX_PRICES_PER_SET, nothing is tried. The set goes back to draft: a submission, an approval
   * and a schedule no longer stand.
   */
  addOperations(
    storeId: number,
    origin: ChangeOrigin,
    id: number,
    operations: ReadonlyArray<ChangeSetOperation | undefined>,
    shapeProblems: readonly FieldProblem[] = [],
  ): Promise<ChangeSet> {
    return this.uow.transaction(async (repos) => {
      await repos.history.lockChain(storeId);
      const set = await findSet(repos, storeId, id);
      assertOpen(set, 'changed');
      if (set.operationCount + operations.length > MAX_OPERATIONS_PER_SET) {
        throw validationFailed([
          { field: null, message: `would make ${set.operationCount + operations.length} operations; a change set holds at most ${MAX_OPERATIONS_PER_SET}` },
        ]);
      }
      const refused = refusedBy(shapeProblems);
      const checkable = operations.flatMap((operation, index) => (operation === undefined || refused(index, null) ? [] : [{ operation, index }]));
      const added = checkable.map((item) => item.operation);
      const priceCount = set.priceCount + added.reduce((sum, operation) => sum + operationPrices(operation), 0);
      if (priceCount > MAX_PRICES_PER_SET) {
        throw validationFailed([
          {
            field: null,
            message: `would make ${priceCount} prices (${set.priceCount} held, ${priceCount - set.priceCount} added); a change set holds at most ${MAX_PRICES_PER_SET}: make it two sets`,
          },
        ]);
      }
      const problems = [...shapeProblems];
      // The held operations these depend on first, as the apply will carry them out: a deletion
      // of a record the set deletes already is refused, a restore of one it deletes accepted.
      // Their own problems (the book may have moved on) are the preview's to tell.
      const held = await heldOperationsConcerning(repos, storeId, added, () => this.recorder.allOperations(set));
      const tried = await this.uow.rehearse(async () => {
        await executeOperations(this.services, storeId, asChangeSet(origin, id), held);
        return executeOperations(this.services, storeId, asChangeSet(origin, id), added);
      });
      for (const problem of tried.problems) problems.push({ ...problem, index: checkable[problem.index ?? 0]!.index });
      if (problems.length > 0) throw validationFailed(problems, operations.length);

      await repos.changeSets.appendOperations(set.id, set.operationCount, added);
      const patch: ChangeSetPatch = {
        state: 'draft',
        revision: set.revision + 1,
        operationCount: set.operationCount + added.length,
        priceCount,
        authors: withAuthor(set.authors, origin.actor),
        submittedBy: null,
        approvedBy: null,
        applyAt: null,
        problems: [],
        counts: { ...set.counts, operations: set.operationCount + added.length },
      };
      return shown(await this.recorder.step(repos, set, patch, origin));
    });
  }

  /** draft (or failed) → submitted: the set asks for an approval. */
  submit(storeId: number, origin: ChangeOrigin, id: number): Promise<ChangeSet> {
    return this.uow.transaction(async (repos) => {
      await repos.history.lockChain(storeId);
      const set = await findSet(repos, storeId, id);
      if (set.state !== 'draft' && set.state !== 'failed') throw wrongState(set, 'submitted', 'only a draft (or a failed set) can be');
      if (set.operationCount === 0 && set.revertOf === null) throw wrongState(set, 'submitted', 'it has no operations yet');
      const moved = await this.recorder.step(repos, set, { state: 'submitted', submittedBy: origin.actor }, origin);
      await this.recorder.announce(repos, 'change_set.submitted', moved);
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
          throw new AppError(
            'forbidden',
            `Change set ${set.id} must be approved by someone who did not write or submit it: this store requires approval by another staff member or key`,
          );
        }
      }
      const moved = await this.recorder.step(repos, set, { state: 'approved', approvedBy: origin.actor, approvedRevision: set.revision }, origin);
      await this.recorder.announce(repos, 'change_set.approved', moved);
      return shown(moved);
    });
  }

  /** Any open set → discarded; its operations stay readable. */
  discard(storeId: number, origin: ChangeOrigin, id: number): Promise<ChangeSet> {
    return this.uow.transaction(async (repos) => {
      await repos.history.lockChain(storeId);
      const set = await findSet(repos, storeId, id);
      assertOpen(set, 'discarded');
      return shown(await this.recorder.step(repos, set, { state: 'discarded', applyAt: null }, origin));
    });
  }
}

import { type ChangeSet, type ChangeSetOperation, type ChangeSetState, operationPrices } from '../../contract/change-sets.js';
import type { EventTopic } from '../../contract/events.js';
import { type Clock, isoTimestamp } from '../shared/clock.js';
import { found } from '../shared/errors.js';
import { eventOf } from '../events/events.js';
import { changeSetRecord, type ChangeSetStep } from '../history/change-records.js';
import type { ChangeOrigin } from '../history/history-entry.js';
import type { Repositories, UnitOfWork } from '../shared/unit-of-work.js';
import { longWork } from '../shared/long-work.js';
import type { ChangeSetPatch, StoredChangeSet } from './change-set-repository.js';
import { actorKey, wrongState } from './change-set-rules.js';

/** Operations read or written per query when a set is created, applied or previewed. */
const OPERATIONS_PAGE = 1000;

/**
 * A set's own row, written and read: a new draft and every step after it, each recorded in the
 * price history (the only place a set's steps are appended to it) and, where the step is
 * announced, as an event; and the operations it holds, read a page at a time.
 */
export class ChangeSetRecorder {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async insertDraft(
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
      priceCount: operations.reduce((sum, operation) => sum + operationPrices(operation), 0),
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
    for (let start = 0; start < operations.length; start += OPERATIONS_PAGE)
      await repos.changeSets.appendOperations(set.id, start, operations.slice(start, start + OPERATIONS_PAGE));
    await repos.history.append(storeId, now, origin, [changeSetRecord(null, stepOf(set))]);
    return set;
  }

  /**
   * Moves the set from the state it was read in (`expected`: the state the row holds now, when a
   * claim already moved it) and records the step in the price history.
   */
  async step(
    repos: Repositories,
    set: StoredChangeSet,
    patch: ChangeSetPatch,
    origin: ChangeOrigin,
    expected: ChangeSetState = set.state,
  ): Promise<StoredChangeSet> {
    const updatedAt = isoTimestamp(this.clock);
    const next: StoredChangeSet = { ...set, ...patch, updatedAt };
    if (!(await repos.changeSets.move(set.storeId, set.id, expected, { ...patch, updatedAt })))
      throw wrongState(set, `moved to ${patch.state ?? set.state}`, 'another request moved it meanwhile');
    await repos.history.append(set.storeId, updatedAt, origin, [changeSetRecord(stepOf(set), stepOf(next))]);
    return next;
  }

  announce(repos: Repositories, topic: EventTopic, set: StoredChangeSet): Promise<void> {
    return repos.events.append([eventOf(set.storeId, topic, shown(set))], set.updatedAt);
  }

  /** Every operation of the set, a page at a time, as long work. */
  async allOperations(set: StoredChangeSet): Promise<ChangeSetOperation[]> {
    const operations: ChangeSetOperation[] = [];
    const work = longWork();
    for (let offset = 0; offset < set.operationCount; offset += OPERATIONS_PAGE) {
      operations.push(...(await this.uow.repos.changeSets.operations(set.id, { offset, count: OPERATIONS_PAGE })));
      await work.step();
    }
    return operations;
  }
}

export async function findSet(repos: Repositories, storeId: number, id: number): Promise<StoredChangeSet> {
  return found(await repos.changeSets.find(storeId, id), `Change set ${id}`);
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

import type { ChangeSetCounts, ChangeSetOperation, ChangeSetState } from '../../contract/change-sets.js';
import type { FieldProblem } from '../../contract/errors.js';
import type { Actor } from '../history/history-entry.js';
import type { Page } from '../shared/page.js';
import type { AppliedEffects } from './applied-effects.js';

/** A change set as stored, with what only the server reads (its authors, what its apply did). */
export interface StoredChangeSet {
  id: number;
  storeId: number;
  name: string;
  note: string | null;
  state: ChangeSetState;
  revision: number;
  /** The revision an approval stands for; null when none does. */
  approvedRevision: number | null;
  operationCount: number;
  /** The prices its operations hold (`operationPrices`), at most MAX_PRICES_PER_SET but for a revert's. */
  priceCount: number;
  createdBy: Actor;
  /** `key:ID` or `staff:ID` of whoever created the set or changed its operations. */
  authors: string[];
  submittedBy: Actor | null;
  approvedBy: Actor | null;
  appliedBy: Actor | null;
  applyAt: string | null;
  appliedAt: string | null;
  revertOf: number | null;
  revertedBy: number | null;
  problems: FieldProblem[];
  counts: ChangeSetCounts;
  effects: AppliedEffects | null;
  createdAt: string;
  updatedAt: string;
}

export type NewChangeSet = Omit<StoredChangeSet, 'id'>;

/** The fields a step of the workflow changes. */
export type ChangeSetPatch = Partial<Omit<StoredChangeSet, 'id' | 'storeId' | 'createdBy' | 'createdAt'>>;

export interface ChangeSetRepository {
  insert(set: NewChangeSet): Promise<StoredChangeSet>;
  find(storeId: number, id: number): Promise<StoredChangeSet | undefined>;
  /** A page of the store's sets (in one state, when given), by id ascending. */
  list(storeId: number, state: ChangeSetState | undefined, page: Page): Promise<StoredChangeSet[]>;
  count(storeId: number, state: ChangeSetState | undefined): Promise<number>;
  /**
   * Applies `patch` if the set is still in state `from` (and, when given, at `revision`): false
   * when another request or process moved it first. On an engine that locks rows, the row
   * stays locked until the transaction ends, so two claims of one set never both succeed.
   */
  move(storeId: number, id: number, from: ChangeSetState, patch: ChangeSetPatch, revision?: number): Promise<boolean>;
  /** Appends operations after the last one (positions from `first`). */
  appendOperations(changeSetId: number, first: number, operations: readonly ChangeSetOperation[]): Promise<void>;
  /** A page of the set's operations, in order. */
  operations(changeSetId: number, page: Page): Promise<ChangeSetOperation[]>;
  /** Sets scheduled for `now` or before, oldest moment first: `limit` at most. */
  due(now: string, limit: number): Promise<Array<{ storeId: number; id: number }>>;
  /**
   * The first moment after `after` at which any of the store's trade prices or list entries
   * starts or stops applying (a `validFrom` or `validUntil`), or null when none does: what the
   * store's prices are at `after` holds until then (until its book changes). Four index lookups.
   */
  nextWindowBound(storeId: number, after: string): Promise<string | null>;
}

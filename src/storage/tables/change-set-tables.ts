import type { Generated } from 'kysely';

/* Change sets and their operations. */

/** A store's staged price change (migration 020); actors are JSON `{type, id, name}`. */
export interface ChangeSetsTable {
  id: Generated<number>;
  store_id: number;
  name: string;
  note: string | null;
  /** `draft`, `submitted`, `approved`, `scheduled`, `applied`, `failed`, `rolled_back` or `discarded`. */
  state: string;
  /** Goes up with every change of the operations. */
  revision: number;
  /** The revision an approval was given for; null when none stands. */
  approved_revision: number | null;
  operation_count: number;
  /** The prices its operations hold (`operationPrices`; migration 032). */
  price_count: number;
  created_by: string;
  /** JSON array of `key:ID` / `staff:ID`: whoever created the set or changed its operations (none of them may approve it). */
  authors: string;
  submitted_by: string | null;
  approved_by: string | null;
  applied_by: string | null;
  apply_at: string | null;
  applied_at: string | null;
  revert_of: number | null;
  reverted_by: number | null;
  /** JSON array of the last failed apply's problems. */
  problems: string;
  /** JSON `{operations, created, deleted, updated}`. */
  counts: string;
  /** JSON: what the apply did, which a revert undoes (modules/change-sets/applied-effects.ts); null until applied. */
  effects: string | null;
  created_at: string;
  updated_at: string;
}

/** A change set's operations, in order from 0. */
export interface ChangeSetOperationsTable {
  change_set_id: number;
  position: number;
  /** The operation as added, JSON. */
  body: string;
}

/** Change sets: this area's tables, by name (composed into `Tables`). */
export interface ChangeSetTables {
  change_sets: ChangeSetsTable;
  change_set_operations: ChangeSetOperationsTable;
}

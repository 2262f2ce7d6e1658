import type { Kysely, Selectable } from 'kysely';
import type { ChangeSetCounts, ChangeSetOperation, ChangeSetState } from '../../contract/change-sets.js';
import type { FieldProblem } from '../../contract/errors.js';
import type { AppliedEffects } from '../../modules/change-sets/applied-effects.js';
import type { ChangeSetPatch, ChangeSetRepository, NewChangeSet, StoredChangeSet } from '../../modules/change-sets/change-set-repository.js';
import type { Actor } from '../../modules/history/history-entry.js';
import type { Page } from '../../modules/shared/page.js';
import type { Engine } from '../engine.js';
import type { Tables } from '../tables.js';
import type { ChangeSetsTable } from '../tables/change-set-tables.js';

type Row = Omit<ChangeSetsTable, 'id'>;

export class KyselyChangeSetRepository implements ChangeSetRepository {
  constructor(
    private readonly db: Kysely<Tables>,
    private readonly engine: Engine,
  ) {}

  async insert(set: NewChangeSet): Promise<StoredChangeSet> {
    const row = await this.db.insertInto('change_sets').values(toRow(set)).returning('id').executeTakeFirstOrThrow();
    return { id: Number(row.id), ...set };
  }

  async find(storeId: number, id: number): Promise<StoredChangeSet | undefined> {
    const row = await this.db.selectFrom('change_sets').selectAll().where('store_id', '=', storeId).where('id', '=', id).executeTakeFirst();
    return row && fromRow(row);
  }

  async list(storeId: number, state: ChangeSetState | undefined, page: Page): Promise<StoredChangeSet[]> {
    let query = this.db.selectFrom('change_sets').selectAll().where('store_id', '=', storeId);
    if (state !== undefined) query = query.where('state', '=', state);
    return (await query.orderBy('id').limit(page.count).offset(page.offset).execute()).map(fromRow);
  }

  async count(storeId: number, state: ChangeSetState | undefined): Promise<number> {
    let query = this.db
      .selectFrom('change_sets')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('store_id', '=', storeId);
    if (state !== undefined) query = query.where('state', '=', state);
    return Number((await query.executeTakeFirstOrThrow()).count);
  }

  async move(storeId: number, id: number, from: ChangeSetState, patch: ChangeSetPatch, revision?: number): Promise<boolean> {
    let query = this.db.updateTable('change_sets').set(toPatch(patch)).where('store_id', '=', storeId).where('id', '=', id).where('state', '=', from);
    if (revision !== undefined) query = query.where('revision', '=', revision);
    const result = await query.executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async appendOperations(changeSetId: number, first: number, operations: readonly ChangeSetOperation[]): Promise<void> {
    // Three values a row: far below either engine's limit of bound values.
    const perStatement = Math.floor(this.engine.maxBoundParameters / 3);
    for (let start = 0; start < operations.length; start += perStatement) {
      const rows = operations
        .slice(start, start + perStatement)
        .map((operation, at) => ({ change_set_id: changeSetId, position: first + start + at, body: JSON.stringify(operation) }));
      await this.db.insertInto('change_set_operations').values(rows).execute();
    }
  }

  async operations(changeSetId: number, page: Page): Promise<ChangeSetOperation[]> {
    const rows = await this.db
      .selectFrom('change_set_operations')
      .select('body')
      .where('change_set_id', '=', changeSetId)
      .where('position', '>=', page.offset)
      .orderBy('position')
      .limit(page.count)
      .execute();
    return rows.map((row) => JSON.parse(row.body) as ChangeSetOperation);
  }

  async due(now: string, limit: number): Promise<Array<{ storeId: number; id: number }>> {
    const rows = await this.db
      .selectFrom('change_sets')
      .select(['store_id', 'id'])
      .where('state', '=', 'scheduled')
      .where('apply_at', '<=', now)
      .orderBy('apply_at')
      .orderBy('id')
      .limit(limit)
      .execute();
    return rows.map((row) => ({ storeId: Number(row.store_id), id: Number(row.id) }));
  }

  async nextWindowBound(storeId: number, after: string): Promise<string | null> {
    // Four lookups, each the first entry past `after` of a partial index (migration 032).
    const bounds = await Promise.all(
      (['trade_prices', 'price_list_prices'] as const).flatMap((table) =>
        (['valid_from', 'valid_until'] as const).map(async (column) => {
          const row = await this.db
            .selectFrom(table)
            .select((eb) => eb.fn.min(column).as('bound'))
            .where('store_id', '=', storeId)
            .where(column, 'is not', null)
            .where(column, '>', after)
            .executeTakeFirst();
          return row?.bound ?? null;
        }),
      ),
    );
    return bounds.reduce<string | null>((first, bound) => (bound !== null && (first === null || bound < first) ? bound : first), null);
  }
}

const json = (value: unknown) => JSON.stringify(value);
const actorOrNull = (text: string | null) => (text === null ? null : (JSON.parse(text) as Actor));

function toRow(set: NewChangeSet): Row {
  return {
    store_id: set.storeId,
    name: set.name,
    note: set.note,
    state: set.state,
    revision: set.revision,
    approved_revision: set.approvedRevision,
    operation_count: set.operationCount,
    price_count: set.priceCount,
    created_by: json(set.createdBy),
    authors: json(set.authors),
    submitted_by: set.submittedBy && json(set.submittedBy),
    approved_by: set.approvedBy && json(set.approvedBy),
    applied_by: set.appliedBy && json(set.appliedBy),
    apply_at: set.applyAt,
    applied_at: set.appliedAt,
    revert_of: set.revertOf,
    reverted_by: set.revertedBy,
    problems: json(set.problems),
    counts: json(set.counts),
    effects: set.effects && json(set.effects),
    created_at: set.createdAt,
    updated_at: set.updatedAt,
  };
}

/** The columns a patch sets; fields left out stay as they are. */
function toPatch(patch: ChangeSetPatch): Partial<Row> {
  const row: Partial<Row> = {};
  if (patch.name !== undefined) row.name = patch.name;
  if (patch.note !== undefined) row.note = patch.note;
  if (patch.state !== undefined) row.state = patch.state;
  if (patch.revision !== undefined) row.revision = patch.revision;
  if (patch.approvedRevision !== undefined) row.approved_revision = patch.approvedRevision;
  if (patch.operationCount !== undefined) row.operation_count = patch.operationCount;
  if (patch.priceCount !== undefined) row.price_count = patch.priceCount;
  if (patch.authors !== undefined) row.authors = json(patch.authors);
  if (patch.submittedBy !== undefined) row.submitted_by = patch.submittedBy && json(patch.submittedBy);
  if (patch.approvedBy !== undefined) row.approved_by = patch.approvedBy && json(patch.approvedBy);
  if (patch.appliedBy !== undefined) row.applied_by = patch.appliedBy && json(patch.appliedBy);
  if (patch.applyAt !== undefined) row.apply_at = patch.applyAt;
  if (patch.appliedAt !== undefined) row.applied_at = patch.appliedAt;
  if (patch.revertOf !== undefined) row.revert_of = patch.revertOf;
  if (patch.revertedBy !== undefined) row.reverted_by = patch.revertedBy;
  if (patch.problems !== undefined) row.problems = json(patch.problems);
  if (patch.counts !== undefined) row.counts = json(patch.counts);
  if (patch.effects !== undefined) row.effects = patch.effects && json(patch.effects);
  if (patch.updatedAt !== undefined) row.updated_at = patch.updatedAt;
  return row;
}

function fromRow(row: Selectable<ChangeSetsTable>): StoredChangeSet {
  return {
    id: Number(row.id),
    storeId: Number(row.store_id),
    name: row.name,
    note: row.note,
    state: row.state as ChangeSetState,
    revision: Number(row.revision),
    approvedRevision: row.approved_revision === null ? null : Number(row.approved_revision),
    operationCount: Number(row.operation_count),
    priceCount: Number(row.price_count),
    createdBy: JSON.parse(row.created_by) as Actor,
    authors: JSON.parse(row.authors) as string[],
    submittedBy: actorOrNull(row.submitted_by),
    approvedBy: actorOrNull(row.approved_by),
    appliedBy: actorOrNull(row.applied_by),
    applyAt: row.apply_at,
    appliedAt: row.applied_at,
    revertOf: row.revert_of === null ? null : Number(row.revert_of),
    revertedBy: row.reverted_by === null ? null : Number(row.reverted_by),
    problems: JSON.parse(row.problems) as FieldProblem[],
    counts: JSON.parse(row.counts) as ChangeSetCounts,
    effects: row.effects === null ? null : (JSON.parse(row.effects) as AppliedEffects),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

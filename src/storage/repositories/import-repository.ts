import { type ExpressionBuilder, type Kysely, sql } from 'kysely';
import type { Import, ImportMode } from '../../contract/imports.js';
import type {
  ClaimedImport,
  ImportOptions,
  ImportOutcome,
  ImportRepository,
  ImportUploader,
  StoreImportQueue,
} from '../../modules/imports/import-repository.js';
import type { Page } from '../../modules/shared/page.js';
import type { Engine } from '../engine.js';
import type { Tables } from '../tables.js';
import { deleteFirstRows } from './import-contents-repository.js';
import { IMPORT_COLUMNS, toImport, uploaderOf } from './import-rows.js';
import { fromFlag, toFlag } from './values.js';

/** Statuses an import is answered with; `uploading` and `discarded` ones are not imports yet (or any more). */
const VISIBLE = ['queued', 'running', 'succeeded', 'failed'] as const;
const ENDED = ['succeeded', 'failed'] as const;

type ImportsScope = ExpressionBuilder<Tables, 'imports'>;

/** Queued, or running under a lease that has passed (its process died): free to claim. */
function claimable(eb: ImportsScope, now: number) {
  return eb.or([eb('imports.status', '=', 'queued'), eb.and([eb('imports.status', '=', 'running'), eb('imports.lease_until', '<', now)])]);
}

/** Imports as rows (`imports`); what they hold is `KyselyImportContentsRepository`'s. */
export class KyselyImportRepository implements ImportRepository {
  constructor(
    private readonly db: Kysely<Tables>,
    private readonly engine: Engine,
  ) {}

  async beginUpload(storeId: number, options: ImportOptions, uploader: ImportUploader, createdAt: string): Promise<number> {
    const row = await this.db
      .insertInto('imports')
      .values({
        store_id: storeId,
        status: 'uploading',
        mode: options.mode,
        dry_run: toFlag(options.dryRun),
        change_set_id: options.changeSetId ?? null,
        format: null,
        rows: null,
        result: null,
        created_at: createdAt,
        finished_at: null,
        lease_until: null,
        lease_token: null,
        claimed_at: null,
        actor_type: uploader.actor.type,
        actor_id: uploader.actor.id,
        actor_name: uploader.actor.name,
        request_id: uploader.requestId,
        file_name: options.fileName ?? null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(row.id);
  }

  async queueOf(storeId: number, uploadsSince: string): Promise<{ imports: number; bytes: number }> {
    const row = await this.db
      .selectFrom('imports')
      .select((eb) => [eb.fn.countAll<number>().as('imports'), eb.fn.coalesce(eb.fn.sum<number>('file_bytes'), sql.lit(0)).as('bytes')])
      .where('store_id', '=', storeId)
      .where((eb) => eb.or([eb('status', 'in', ['queued', 'running']), eb.and([eb('status', '=', 'uploading'), eb('created_at', '>=', uploadsSince)])]))
      .executeTakeFirstOrThrow();
    return { imports: Number(row.imports), bytes: Number(row.bytes) };
  }

  async lockQueue(storeId: number): Promise<void> {
    if (!this.engine.locksRows) return;
    // The store's row stands for its queue; `no key update` leaves other writes to the store alone.
    await this.db.selectFrom('stores').select('id').where('id', '=', storeId).forNoKeyUpdate().execute();
  }

  async enqueue(importId: number, rows: number): Promise<Import> {
    const row = await this.db
      .updateTable('imports')
      .set({ status: 'queued', rows })
      .where('id', '=', importId)
      .where('status', '=', 'uploading')
      .returning(IMPORT_COLUMNS)
      .executeTakeFirstOrThrow();
    return toImport(row);
  }

  async discard(importId: number, at: string): Promise<void> {
    await this.db
      .updateTable('imports')
      .set({ status: 'discarded', cleanup: 1, finished_at: at })
      .where('id', '=', importId)
      .where('status', '=', 'uploading')
      .execute();
  }

  async find(storeId: number, id: number): Promise<Import | undefined> {
    const row = await this.db
      .selectFrom('imports')
      .select(IMPORT_COLUMNS)
      .where('store_id', '=', storeId)
      .where('id', '=', id)
      .where('status', 'in', VISIBLE)
      .executeTakeFirst();
    return row && toImport(row);
  }

  async list(storeId: number, page: Page): Promise<Import[]> {
    const rows = await this.db
      .selectFrom('imports')
      .select(IMPORT_COLUMNS)
      .where('store_id', '=', storeId)
      .where('status', 'in', VISIBLE)
      .orderBy('id')
      .limit(page.count)
      .offset(page.offset)
      .execute();
    return rows.map(toImport);
  }

  async count(storeId: number): Promise<number> {
    const row = await this.db
      .selectFrom('imports')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('store_id', '=', storeId)
      .where('status', 'in', VISIBLE)
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  async claim(now: number, leaseUntil: number, leaseToken: string, working: readonly number[]): Promise<ClaimedImport | undefined> {
    // The candidate first, then a conditional update: of two processes taking the same one,
    // only the one whose update still finds it free gets it.
    let candidates = this.db
      .selectFrom('imports')
      .select(['imports.id', 'imports.store_id'])
      .where((eb) => claimable(eb, now));
    if (working.length > 0) candidates = candidates.where('imports.id', 'not in', [...working]);
    const candidate = await candidates
      // The oldest claimable import of its store...
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('imports as older')
              .select('older.id')
              .whereRef('older.store_id', '=', 'imports.store_id')
              .whereRef('older.id', '<', 'imports.id')
              .where((eb) => eb.or([eb('older.status', '=', 'queued'), eb.and([eb('older.status', '=', 'running'), eb('older.lease_until', '<', now)])])),
          ),
        ),
      )
      // ...of a store with no import running under a live lease.
      .where(({ not, exists, selectFrom }) => not(exists(liveRun(selectFrom, now))))
      // The store served least recently first: round-robin over stores.
      .orderBy((eb) =>
        eb.fn.coalesce(
          eb
            .selectFrom('imports as served')
            .select((inner) => inner.fn.max('served.claimed_at').as('last'))
            .whereRef('served.store_id', '=', 'imports.store_id'),
          sql.lit(0),
        ),
      )
      .orderBy('imports.id')
      .limit(1)
      .executeTakeFirst();
    if (candidate === undefined) return undefined;
    const storeId = Number(candidate.store_id);
    await this.lockQueue(storeId);
    const taken = await this.db
      .updateTable('imports')
      .set((eb) => ({ status: 'running', lease_until: leaseUntil, lease_token: leaseToken, claimed_at: now, attempts: eb('attempts', '+', 1) }))
      .where('id', '=', candidate.id)
      .where((eb) => claimable(eb, now))
      .where(({ not, exists, selectFrom }) => not(exists(liveRun(selectFrom, now))))
      .returning(['id', 'store_id', 'mode', 'dry_run', 'change_set_id', 'attempts', 'actor_type', 'actor_id', 'actor_name', 'request_id'])
      .executeTakeFirst();
    return (
      taken && {
        id: Number(taken.id),
        storeId: Number(taken.store_id),
        mode: taken.mode as ImportMode,
        dryRun: fromFlag(taken.dry_run),
        changeSetId: taken.change_set_id === null ? null : Number(taken.change_set_id),
        leaseToken,
        attempts: Number(taken.attempts),
        uploader: uploaderOf(taken),
      }
    );
  }

  async progress(claim: ClaimedImport, update: { leaseUntil: number; processed: number; rows?: number; format?: 'long' | 'matrix' }): Promise<boolean> {
    const result = await this.db
      .updateTable('imports')
      .set({
        lease_until: update.leaseUntil,
        processed: update.processed,
        ...(update.rows !== undefined && { rows: update.rows }),
        ...(update.format !== undefined && { format: update.format }),
      })
      .where('id', '=', claim.id)
      .where('lease_token', '=', claim.leaseToken)
      .where('status', '=', 'running')
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  async renew(claim: ClaimedImport, leaseUntil: number): Promise<boolean> {
    const result = await this.db
      .updateTable('imports')
      .set({ lease_until: leaseUntil })
      .where('id', '=', claim.id)
      .where('lease_token', '=', claim.leaseToken)
      .where('status', '=', 'running')
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  async release(claim: ClaimedImport): Promise<void> {
    await this.db
      .updateTable('imports')
      .set({ status: 'queued', lease_until: null, lease_token: null, processed: 0 })
      .where('id', '=', claim.id)
      .where('lease_token', '=', claim.leaseToken)
      .where('status', '=', 'running')
      .execute();
  }

  async olderDryRuns(storeId: number, beforeId: number, skip: number, limit: number): Promise<number[]> {
    const rows = await this.db
      .selectFrom('imports')
      .select('id')
      .where('store_id', '=', storeId)
      .where('id', '<', beforeId)
      .where('dry_run', '=', sql.lit(1))
      .orderBy('id', 'desc')
      .limit(limit)
      .offset(skip)
      .execute();
    return rows.map((row) => Number(row.id));
  }

  async finish(claim: ClaimedImport, outcome: ImportOutcome): Promise<Import | undefined> {
    const row = await this.db
      .updateTable('imports')
      .set({
        status: outcome.status,
        finished_at: outcome.finishedAt,
        lease_until: null,
        lease_token: null,
        cleanup: 1,
        ...(outcome.status === 'succeeded'
          ? { result: JSON.stringify(outcome.result) }
          : { errors: JSON.stringify(outcome.errors), error_count: outcome.errorCount }),
      })
      .where('id', '=', claim.id)
      .where('lease_token', '=', claim.leaseToken)
      .where('status', '=', 'running')
      .returning(IMPORT_COLUMNS)
      .executeTakeFirst();
    return row && toImport(row);
  }

  async toClean(markedBefore: string, limit: number): Promise<number[]> {
    const rows = await this.db
      .selectFrom('imports')
      .select('id')
      .where('cleanup', '=', sql.lit(1))
      // A discarded upload has no process of its own left to clean it.
      .where((eb) => eb.or([eb('finished_at', '<', markedBefore), eb('status', '=', 'discarded')]))
      .orderBy('finished_at')
      .limit(limit)
      .execute();
    return rows.map((row) => Number(row.id));
  }

  async cleaned(importId: number): Promise<void> {
    await this.db.deleteFrom('imports').where('id', '=', importId).where('status', '=', 'discarded').execute();
    await this.db.updateTable('imports').set({ cleanup: 0 }).where('id', '=', importId).where('status', 'in', ENDED).execute();
  }

  async abandonUploads(before: string, at: string, limit: number): Promise<number> {
    const stale = await this.db
      .selectFrom('imports')
      .select('id')
      .where('status', '=', 'uploading')
      .where('created_at', '<', before)
      .orderBy('id')
      .limit(limit)
      .execute();
    if (stale.length === 0) return 0;
    const result = await this.db
      .updateTable('imports')
      .set({ status: 'discarded', cleanup: 1, finished_at: at })
      .where(
        'id',
        'in',
        stale.map((row) => row.id),
      )
      .where('status', '=', 'uploading')
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  async purgeEnded(before: string, limit: number): Promise<number> {
    const due = await this.db
      .selectFrom('imports')
      .select('id')
      .where('finished_at', '<', before)
      .where('status', 'in', ENDED)
      .where('cleanup', '=', sql.lit(0))
      .orderBy('finished_at')
      .limit(limit)
      .execute();
    if (due.length === 0) return 0;
    // A dry run's changes go first, up to `limit` rows a turn: the imports wait for the next turn until they have none.
    let deleted = 0;
    for (const { id } of due) {
      deleted += await deleteFirstRows(this.db, 'import_changes', 'seq', id, limit - deleted);
      if (deleted >= limit) return deleted;
    }
    const result = await this.db
      .deleteFrom('imports')
      .where(
        'id',
        'in',
        due.map((row) => row.id),
      )
      .executeTakeFirst();
    return deleted + Number(result.numDeletedRows);
  }

  async queues(limit: number): Promise<StoreImportQueue[]> {
    const rows = await this.db
      .selectFrom('imports')
      .select((eb) => [
        'store_id',
        eb.fn.sum<number>(eb.case().when('status', '=', 'queued').then(1).else(0).end()).as('queued'),
        eb.fn.sum<number>(eb.case().when('status', '=', 'running').then(1).else(0).end()).as('running'),
        eb.fn.sum<number>('file_bytes').as('bytes'),
      ])
      .where('status', 'in', ['queued', 'running'])
      .groupBy('store_id')
      .orderBy('store_id')
      .limit(limit)
      .execute();
    return rows.map((row) => ({ storeId: Number(row.store_id), queued: Number(row.queued), running: Number(row.running), bytes: Number(row.bytes) }));
  }
}

/** A running import of the candidate's store whose lease has not passed. */
function liveRun(selectFrom: ImportsScope['selectFrom'], now: number) {
  return selectFrom('imports as live')
    .select('live.id')
    .whereRef('live.store_id', '=', 'imports.store_id')
    .where('live.status', '=', 'running')
    .where('live.lease_until', '>=', now);
}

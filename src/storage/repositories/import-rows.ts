import type { Selectable } from 'kysely';
import type { Import, ImportError, ImportMode, ImportResult, ImportStatus } from '../../contract/imports.js';
import type { ImportUploader } from '../../modules/imports/import-repository.js';
import { CLI_ORIGIN } from '../../modules/history/change-records.js';
import type { ImportsTable } from '../tables/import-tables.js';
import { fromFlag } from './values.js';

/* An import's row as the API answers it, and who uploaded it. */

/** The columns answered: never the file. */
export const IMPORT_COLUMNS = [
  'id',
  'store_id',
  'status',
  'mode',
  'dry_run',
  'change_set_id',
  'file_name',
  'actor_type',
  'actor_id',
  'actor_name',
  'format',
  'rows',
  'processed',
  'errors',
  'error_count',
  'result',
  'created_at',
  'finished_at',
] as const;
export function toImport(row: Pick<Selectable<ImportsTable>, (typeof IMPORT_COLUMNS)[number]>): Import {
  return {
    id: Number(row.id),
    status: row.status as ImportStatus,
    mode: row.mode as ImportMode,
    dryRun: fromFlag(row.dry_run),
    changeSetId: row.change_set_id === null ? null : Number(row.change_set_id),
    fileName: row.file_name,
    createdBy:
      row.actor_type === null || row.actor_id === null || row.actor_name === null
        ? null
        : { type: row.actor_type === 'staff' ? 'staff' : 'key', id: Number(row.actor_id), name: row.actor_name },
    format: row.format as Import['format'],
    rows: row.rows === null ? null : Number(row.rows),
    processed: Number(row.processed),
    errors: JSON.parse(row.errors) as ImportError[],
    errorCount: Number(row.error_count),
    result: row.result === null ? null : (JSON.parse(row.result) as ImportResult),
    createdAt: row.created_at,
    finishedAt: row.finished_at,
  };
}

/** Who uploaded an import, as stored with it; an import uploaded before migration 017 names the fallback actor. */
export function uploaderOf(row: { actor_type: string | null; actor_id: number | null; actor_name: string | null; request_id: string | null }): ImportUploader {
  if (row.actor_type === null || row.actor_id === null || row.actor_name === null) return { actor: CLI_ORIGIN.actor, requestId: row.request_id };
  return { actor: { type: row.actor_type === 'staff' ? 'staff' : 'key', id: Number(row.actor_id), name: row.actor_name }, requestId: row.request_id };
}

import type { Kysely, Migration } from 'kysely';

/**
 * The name an uploader gave an import's file (`POST /v1/imports?fileName=`), shown with the
 * import beside who uploaded it (docs/imports.md). Imports uploaded before have none (NULL).
 */
export function importFileNameSchema(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('imports').addColumn('file_name', 'text').execute();
    },
  };
}

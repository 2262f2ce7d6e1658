import type { Kysely, Migration } from 'kysely';
import type { Engine } from '../engine.js';
import { idType } from './schema-helpers.js';

/**
 * Who made a change, for the price history (docs/history.md):
 *
 * - `imports` keeps who uploaded the file (the actor's type, id and name) and the upload's
 *   request id: the apply runs later, in the background, and its history entries name them.
 *   Imports uploaded before have none (NULL): their entries name the fallback actor.
 * - `events.previous`: an update's event carries the record as it was before (`previous`,
 *   beside `data`); NULL for every other event and for events written before.
 */
export function importOriginSchema(engine: Engine): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('imports').addColumn('actor_type', 'text').execute();
      await db.schema.alterTable('imports').addColumn('actor_id', idType(engine)).execute();
      await db.schema.alterTable('imports').addColumn('actor_name', 'text').execute();
      await db.schema.alterTable('imports').addColumn('request_id', 'text').execute();
      await db.schema.alterTable('events').addColumn('previous', 'text').execute();
    },
  };
}

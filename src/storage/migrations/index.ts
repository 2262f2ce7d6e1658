import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Migrator, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import type { Engine } from '../engine.js';

/** A migration's file: `NNN-what.ts` (`.js` once built), written once for both engines. */
const MIGRATION_FILE = /^(\d{3}-[a-z0-9-]+)\.(?:js|ts)$/;

export type Migrations = ReadonlyArray<readonly [string, (engine: Engine) => Migration]>;

let loaded: Promise<Migrations> | undefined;

/**
 * Every migration in this folder, in the order of their names: each file `NNN-what` exports one
 * function, which builds the migration for an engine (using the engine flags). A new migration
 * is its file only; a file of the pattern that exports anything else stops the start, naming it.
 * No import names the files: a build that compiles a program from its entry (the bench's, the
 * fault suite's server) includes `src/storage/migrations/*.ts` itself.
 */
export function loadMigrations(): Promise<Migrations> {
  loaded ??= readMigrations().catch((error: unknown) => {
    loaded = undefined;
    throw error;
  });
  return loaded;
}

async function readMigrations(): Promise<Migrations> {
  const names = fs
    .readdirSync(import.meta.dirname)
    .map((file) => MIGRATION_FILE.exec(file))
    .filter((match) => match !== null)
    .sort((a, b) => (a[1]! < b[1]! ? -1 : 1));
  // No import names them, so a program compiled from its entry alone leaves them out: say so
  // here, rather than let the migrator find the database's migrations "missing".
  if (names.length === 0) throw new Error(`no migrations in ${import.meta.dirname}: a build of this program must include src/storage/migrations/*.ts`);
  const migrations: [string, (engine: Engine) => Migration][] = [];
  for (const [file, name] of names) {
    const exported = Object.values(await import(pathToFileURL(path.join(import.meta.dirname, file)).href));
    const [build] = exported;
    if (exported.length !== 1 || typeof build !== 'function') throw new Error(`migration ${file} must export exactly one function (engine) => Migration`);
    migrations.push([name!, build as (engine: Engine) => Migration]);
  }
  return migrations;
}

/**
 * Applies pending migrations (`migrations`, all of them unless a test stops at an earlier
 * schema). Kysely's migrator takes a lock, so instances starting together on one PostgreSQL
 * apply each migration once.
 */
export async function migrateToLatest(db: Kysely<unknown>, engine: Engine, migrations?: Migrations): Promise<void> {
  const chosen = migrations ?? (await loadMigrations());
  const provider: MigrationProvider = {
    getMigrations: () => Promise.resolve(Object.fromEntries(chosen.map(([name, build]) => [name, build(engine)]))),
  };
  const { error } = await new Migrator({ db, provider }).migrateToLatest();
  if (error !== undefined) throw error instanceof Error ? error : new Error(String(error));
}

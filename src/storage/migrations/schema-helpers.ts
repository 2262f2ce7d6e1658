import { type CreateTableBuilder } from 'kysely';
import type { Engine } from '../engine.js';

/** Adds the `id` primary key: assigned by the engine, increasing, never reused. */
export function withIdColumn<T extends string>(table: CreateTableBuilder<T, never>, engine: Engine): CreateTableBuilder<T, 'id'> {
  return table.addColumn('id', engine.idColumnType, (column) => {
    const primary = column.primaryKey();
    return engine.idAutoIncrement === 'autoincrement' ? primary.autoIncrement() : primary.generatedByDefaultAsIdentity();
  });
}

/** A reference to another table's id, in the engine's id type. */
export function idType(engine: Engine) {
  return engine.idColumnType;
}

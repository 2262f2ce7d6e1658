import { type RawBuilder, sql } from 'kysely';

/** One column of rows to insert: its SQL element type and a value for every row. */
export interface ArrayColumn {
  type: 'bigint' | 'text';
  /** null is SQL NULL. */
  values: ReadonlyArray<number | string | null>;
}

/**
 * `insert into <table> (…) select … from unnest(<one array per column>)`, for PostgreSQL
 * (`Engine.insertsRowsFromArrays`): one parameter per column however many rows, where a
 * multi-row `values` list takes one per value. Rows go in in array order, so identity ids
 * follow it. Table and column names are ours, never input.
 */
export function insertFromArrays(table: string, columns: Readonly<Record<string, ArrayColumn>>): RawBuilder<unknown> {
  const names = Object.keys(columns);
  const arrays = Object.values(columns).map((column) => sql`${column.values}::${sql.raw(column.type)}[]`);
  const refs = sql.join(names.map((name) => sql.ref(name)));
  return sql`insert into ${sql.table(table)} (${refs}) select ${refs} from unnest(${sql.join(arrays)}) with ordinality as row_values (${refs}, row_position) order by row_position`;
}

/**
 * `insert into <table> (…) select … from json_each(<one JSON array of rows>)`, for SQLite: the
 * rows travel as one JSON text, each an array of the columns' values in `columns` order, and
 * SQLite takes them apart in C. One parameter however many rows, so the statement's text is
 * always the same (the driver keeps it prepared) and building it costs nothing; a multi-row
 * `values` list of a few hundred rows cost tens of milliseconds of JavaScript to build, on the
 * event loop. Rows go in in array order. Table and column names are ours, never input; values
 * are numbers, text or null.
 */
export function insertFromJson(table: string, columns: readonly string[], rows: ReadonlyArray<ReadonlyArray<number | string | null>>): RawBuilder<unknown> {
  const refs = sql.join(columns.map((name) => sql.ref(name)));
  const picks = sql.join(columns.map((_, index) => sql`json_extract(value, ${sql.lit(`$[${index}]`)})`));
  return sql`insert into ${sql.table(table)} (${refs}) select ${picks} from json_each(${JSON.stringify(rows)}) order by key`;
}

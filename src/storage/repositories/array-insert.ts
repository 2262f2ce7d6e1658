import { CompiledQuery, type RawBuilder, sql } from 'kysely';

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
 * Rows of one SQLite insert statement: a bulk's thousand in one. With 20 columns that is 20 000
 * bound values (the limit is 32 766) and a text of some 60 KiB, which the driver still caches.
 */
const ROWS_PER_VALUES_INSERT = 1000;

/**
 * `insert into <table> (…) values (?, …), (?, …) …` for SQLite, as statements of
 * {@link ROWS_PER_VALUES_INSERT} rows (the last one fewer), their values bound as they are. The
 * text of a full statement is always the same, so the driver keeps it prepared, and building
 * one is a string join, not the query builder's work (a multi-row `values` list of a few
 * hundred rows built by the builder cost tens of milliseconds on the event loop). Rows go in in
 * array order. Table and column names are ours, never input; values are numbers, text or null.
 * One JSON text taken apart by `json_each` and `json_extract` was tried before: SQLite parsed
 * a row's text again for each of its columns, and appending 1000 history entries took 25 ms,
 * against 17 ms this way.
 */
export function insertValues(table: string, columns: readonly string[], rows: ReadonlyArray<ReadonlyArray<number | string | null>>): CompiledQuery[] {
  const head = `insert into "${table}" (${columns.map((name) => `"${name}"`).join(', ')}) values `;
  const row = `(${columns.map(() => '?').join(', ')})`;
  const statements: CompiledQuery[] = [];
  for (let start = 0; start < rows.length; start += ROWS_PER_VALUES_INSERT) {
    const chunk = rows.slice(start, start + ROWS_PER_VALUES_INSERT);
    statements.push(CompiledQuery.raw(head + Array.from(chunk, () => row).join(', '), chunk.flat()));
  }
  return statements;
}

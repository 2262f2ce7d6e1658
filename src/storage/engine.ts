/**
 * Everything that differs between the engines, named in one place. Repositories and
 * migrations ask these flags instead of testing the engine's name.
 */
export interface Engine {
  readonly name: 'sqlite' | 'postgres';
  /** Statement that opens a write transaction. SQLite takes the write lock at once, so a
   * transaction that reads before it writes cannot fail half-way on a busy database. */
  readonly beginTransactionSql: string;
  /** Column type of an auto-assigned, never reused id. */
  readonly idColumnType: 'integer' | 'bigint';
  /** SQLite's AUTOINCREMENT (never reuses ids); PostgreSQL uses an identity column. */
  readonly idAutoIncrement: 'autoincrement' | 'identity';
  /** `SELECT … FOR UPDATE SKIP LOCKED`, for several workers sharing a queue. */
  readonly supportsSkipLocked: boolean;
  /** Bound parameters allowed in one statement. */
  readonly maxBoundParameters: number;
  /**
   * Many rows go in as one array per column (`insert … select … from unnest(…)`): a handful
   * of parameters instead of one per value, cheaper to build, send and plan. SQLite has no
   * arrays, and its multi-row insert costs no round trip.
   */
  readonly insertsRowsFromArrays: boolean;
  /** The catalog keeps an estimate of each table's rows (`pg_class.reltuples`), cheaper than counting them. */
  readonly estimatesRowCounts: boolean;
  /**
   * `create index … include (…)`: columns kept in an index's entries without being part of
   * its key, for queries answered from the index alone. SQLite has no `include`; such columns
   * go at the end of the key instead.
   */
  readonly indexIncludesColumns: boolean;
  /**
   * The database runs in this process: a row read costs a JavaScript object, not a trip over
   * a socket and a parse. Where a query could reduce many rows to a few with a sort (a window
   * function), reading them all and reducing them in JavaScript is then faster (measured in
   * docs/performance.md, "Quotes").
   */
  readonly readsRowsInProcess: boolean;
  /** Column type of raw bytes (an import's file, stored in slices). */
  readonly binaryColumnType: 'blob' | 'bytea';
  /**
   * `SELECT … FOR NO KEY UPDATE`: a row lock held to the end of the transaction, so two
   * transactions that must not interleave (two uploads checking one store's import queue)
   * take turns. SQLite needs none: its write transaction holds the whole database.
   */
  readonly locksRows: boolean;
}

export const SQLITE: Engine = Object.freeze({
  name: 'sqlite',
  beginTransactionSql: 'begin immediate',
  idColumnType: 'integer',
  idAutoIncrement: 'autoincrement',
  supportsSkipLocked: false,
  maxBoundParameters: 32_766,
  insertsRowsFromArrays: false,
  estimatesRowCounts: false,
  indexIncludesColumns: false,
  readsRowsInProcess: true,
  binaryColumnType: 'blob',
  locksRows: false,
});

export const POSTGRES: Engine = Object.freeze({
  name: 'postgres',
  beginTransactionSql: 'begin',
  idColumnType: 'bigint',
  idAutoIncrement: 'identity',
  supportsSkipLocked: true,
  maxBoundParameters: 65_535,
  insertsRowsFromArrays: true,
  estimatesRowCounts: true,
  indexIncludesColumns: true,
  readsRowsInProcess: false,
  binaryColumnType: 'bytea',
  locksRows: true,
});

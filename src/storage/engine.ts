/**
 * Everything that differs between the engines, named in one place. Repositories and
 * migrations ask these flags instead of testing the engine's name.
 */
export interface Engine {
  readonly name: 'sqlite' | 'postgres';
  /** Statement that opens a write transaction. SQLite takes the write lock at once, so a
   * transaction that reads before it writes cannot fail half-way on a busy database. */
  readonly beginTransactionSql: string;
  /**
   * Statement that opens a read-only transaction seeing one moment of the database throughout
   * (a check that compares tables must not see a write land between two of its reads). SQLite's
   * deferred transaction takes its snapshot at the first read and, in WAL mode, never blocks
   * another connection's writer; PostgreSQL needs repeatable read for one snapshot.
   */
  readonly beginSnapshotSql: string;
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
   * docs/performance.md, "Quotes"); migration 010 made PostgreSQL's index for that pick by it.
   * Since migration 012 both engines pick in the database without a sort
   * (`bareColumnsFollowMax`).
   */
  readonly readsRowsInProcess: boolean;
  /**
   * Row locks held to the end of the transaction: `SELECT … FOR KEY SHARE` keeps the rows a
   * check read from being deleted until the write it allows commits, and `FOR NO KEY UPDATE`
   * makes two transactions that must not interleave (two uploads checking one store's import
   * queue) take turns. SQLite needs neither: its write transaction holds the whole database.
   */
  readonly locksRows: boolean;
  /**
   * In `select max(id), a, b … group by …`, the bare columns `a`, `b` come from the row that
   * holds the maximum (SQLite's documented rule for a single min() or max()). The newest row of
   * each group is then one aggregate along an index, no sort; elsewhere a window function
   * (`row_number() over (… order by id desc)`) picks it.
   */
  readonly bareColumnsFollowMax: boolean;
  /** Column type of raw bytes (an import's file, stored in slices). */
  readonly binaryColumnType: 'blob' | 'bytea';
  /**
   * Text orders by code point and `lower()` folds A–Z alone: SQLite's BINARY collation and its
   * `lower()` without ICU. PostgreSQL's default collation and `lower()` follow the database's
   * locale; an order there says `collate "C"` (bytes of UTF-8: code points) and a fold
   * `translate()`s A–Z, so both engines answer the same.
   */
  readonly textIsCodePoints: boolean;
  /**
   * A transaction whose commit may return before its log is on disk, because a later commit
   * that waits for the disk makes it durable too (both engines write their log in order, and
   * syncing it syncs everything before): statements run before `begin`, after it, and after
   * the commit or rollback. PostgreSQL sets `synchronous_commit` for the transaction alone.
   * SQLite needs none: none of its commits sync the log, and the unit of work waits for the
   * log's sync after an ordinary transaction (`Database.durableCommits`), not after this one.
   */
  readonly unsyncedCommit: { readonly before: readonly string[]; readonly inside: readonly string[]; readonly after: readonly string[] };
}

export const SQLITE: Engine = Object.freeze({
  name: 'sqlite',
  beginTransactionSql: 'begin immediate',
  beginSnapshotSql: 'begin deferred',
  idColumnType: 'integer',
  idAutoIncrement: 'autoincrement',
  supportsSkipLocked: false,
  maxBoundParameters: 32_766,
  insertsRowsFromArrays: false,
  estimatesRowCounts: false,
  indexIncludesColumns: false,
  readsRowsInProcess: true,
  locksRows: false,
  bareColumnsFollowMax: true,
  binaryColumnType: 'blob',
  textIsCodePoints: true,
  // Every commit is unsynced on SQLite (database.ts); the unit of work waits for the sync after it, or not.
  unsyncedCommit: { before: [], inside: [], after: [] },
});

export const POSTGRES: Engine = Object.freeze({
  name: 'postgres',
  beginTransactionSql: 'begin',
  beginSnapshotSql: 'begin transaction isolation level repeatable read, read only',
  idColumnType: 'bigint',
  idAutoIncrement: 'identity',
  supportsSkipLocked: true,
  maxBoundParameters: 65_535,
  insertsRowsFromArrays: true,
  estimatesRowCounts: true,
  indexIncludesColumns: true,
  readsRowsInProcess: false,
  locksRows: true,
  bareColumnsFollowMax: false,
  binaryColumnType: 'bytea',
  textIsCodePoints: false,
  unsyncedCommit: { before: [], inside: ['set local synchronous_commit = off'], after: [] },
});

/**
 * How busy the database connections are (metrics). PostgreSQL: the pool. SQLite: the one
 * writing connection (`max` 1) and the transactions queued for it; the read-only connection
 * never waits and is not counted.
 */
export interface ConnectionUse {
  readonly max: number;
  readonly inUse: number;
  readonly idle: number;
  /** Queries or transactions waiting for a connection. */
  readonly waiting: number;
}

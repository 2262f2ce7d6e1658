import type SqliteDatabase from 'better-sqlite3';
import type { ConnectionUse } from './connection-use.js';
import { CompiledQuery, type DatabaseConnection, type Driver, type QueryResult, SqliteDialect } from 'kysely';

/**
 * Prepared statements kept for reuse, by SQL text, least recently used dropped first. A
 * prepared statement takes about 25 bytes per character of its SQL (a 1000-row insert, ~20 000
 * characters, about 0.5 MB), so the cache is bounded by the SQL it holds as well as by count.
 */
const CACHED_STATEMENTS = 200;
const CACHED_SQL_CHARACTERS = 256 * 1024;
/** Longer statements are prepared for each use and not kept. */
const LONGEST_CACHED_SQL = 64 * 1024;

/**
 * Kysely's SQLite dialect with a driver that is cheaper under concurrent requests:
 * - waiters for the one writing connection queue in order; Kysely's own driver wakes every
 *   waiter on each release, which costs time in proportion to the requests waiting, per query;
 * - with a reader (a second, read-only connection to the same WAL file), a read-only statement
 *   that is not part of a transaction runs on it at once, without waiting for the writing
 *   connection: a long write transaction (a large cascade) does not hold up reads. It sees
 *   what is committed, as any read outside a transaction does;
 * - statements are prepared once and reused, not prepared again for every query;
 * - with `durable` (the log synced off the event loop: sqlite-log-sync.ts, the writer running
 *   with `synchronous = NORMAL`), a write that commits on its own (outside a transaction) and a
 *   transaction committed through Kysely's `transaction()` answer only once their log is on
 *   disk. The unit of work commits its transactions itself and waits for `durable` after them.
 * SQL, transactions and results are those of Kysely's driver.
 */
export class QueuedSqliteDialect extends SqliteDialect {
  private driver: QueuedSqliteDriver | undefined;

  constructor(
    private readonly database: SqliteDatabase.Database,
    private readonly reader?: () => SqliteDatabase.Database,
    private readonly durable?: () => Promise<void>,
  ) {
    super({ database });
  }

  override createDriver(): Driver {
    this.driver = new QueuedSqliteDriver(this.database, this.reader, this.durable);
    return this.driver;
  }

  /** The writing connection: held or free, and how many wait for it (metrics). */
  writerUse(): ConnectionUse {
    const inUse = this.driver?.writerHeld() === true ? 1 : 0;
    return { max: 1, inUse, idle: 1 - inUse, waiting: this.driver?.writersWaiting() ?? 0 };
  }
}

class QueuedSqliteDriver implements Driver {
  private readonly connection: QueuedSqliteConnection;
  private readonly queue = new ConnectionQueue();
  private readerConnection: QueuedSqliteConnection | undefined;

  constructor(
    private readonly database: SqliteDatabase.Database,
    private readonly openReader?: () => SqliteDatabase.Database,
    private readonly durable?: () => Promise<void>,
  ) {
    this.connection = new QueuedSqliteConnection(database, durable);
  }

  async init(): Promise<void> {}

  writerHeld(): boolean {
    return this.queue.held;
  }

  writersWaiting(): number {
    return this.queue.waitingCount;
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    if (this.openReader === undefined) {
      await this.queue.lock();
      return this.connection;
    }
    // Opened at first use: by then the writer has created the file and switched it to WAL.
    this.readerConnection ??= new QueuedSqliteConnection(this.openReader());
    return new RoutedConnection(this.readerConnection, this.connection, this.queue);
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin'));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
    await this.durable?.();
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  async savepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`savepoint ${quoteIdentifier(name)}`));
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`rollback to ${quoteIdentifier(name)}`));
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`release ${quoteIdentifier(name)}`));
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    if (connection instanceof RoutedConnection) connection.release();
    else this.queue.unlock();
  }

  async destroy(): Promise<void> {
    this.readerConnection?.close();
    this.database.close();
  }
}

/**
 * One use of the database (a statement, or a transaction's statements): read-only statements
 * go to the reader until the first other statement (`begin …` included) takes the writing
 * connection, which it then keeps until released, so a transaction runs on the writer whole.
 */
class RoutedConnection implements DatabaseConnection {
  private holdsWriter = false;

  constructor(
    private readonly reader: QueuedSqliteConnection,
    private readonly writer: QueuedSqliteConnection,
    private readonly queue: ConnectionQueue,
  ) {}

  async executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    if (!this.holdsWriter) {
      if (this.reader.isReadOnly(compiledQuery.sql)) return this.reader.executeQuery(compiledQuery);
      await this.queue.lock();
      this.holdsWriter = true;
    }
    return this.writer.executeQuery(compiledQuery);
  }

  streamQuery<R>(compiledQuery: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    return (this.holdsWriter ? this.writer : this.reader).streamQuery(compiledQuery);
  }

  release(): void {
    if (this.holdsWriter) this.queue.unlock();
    this.holdsWriter = false;
  }
}

class QueuedSqliteConnection implements DatabaseConnection {
  private readonly statements = new Map<string, SqliteDatabase.Statement>();
  private cachedCharacters = 0;

  /** `durable`: on the writing connection, waits until what has committed is on disk. */
  constructor(
    private readonly database: SqliteDatabase.Database,
    private readonly durable?: () => Promise<void>,
  ) {}

  /** A statement that returns rows and changes nothing (a `select`; not `insert … returning`). */
  isReadOnly(sql: string): boolean {
    const statement = this.prepare(sql);
    return statement.reader && statement.readonly;
  }

  close(): void {
    this.database.close();
  }

  executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    const statement = this.prepare(compiledQuery.sql);
    const parameters = compiledQuery.parameters as unknown[];
    const inTransaction = this.database.inTransaction;
    let result: QueryResult<R>;
    if (statement.reader) result = { rows: statement.all(parameters) as R[] };
    else {
      const { changes, lastInsertRowid } = statement.run(parameters);
      result = { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] };
    }
    // A write outside a transaction committed on its own (`insert … returning` too): it answers
    // once on disk. Statements of a transaction, its `begin` and `commit` included, do not wait.
    if (this.durable === undefined || statement.readonly || inTransaction || this.database.inTransaction) return Promise.resolve(result);
    return this.durable().then(() => result);
  }

  async *streamQuery<R>(compiledQuery: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    // Not cached: a statement being iterated cannot run anything else until it is done.
    const statement = this.database.prepare(compiledQuery.sql);
    if (!statement.reader) throw new Error('Sqlite driver only supports streaming of select queries');
    for (const row of statement.iterate(compiledQuery.parameters as unknown[])) yield { rows: [row as R] };
  }

  private prepare(sql: string): SqliteDatabase.Statement {
    const cached = this.statements.get(sql);
    if (cached !== undefined) {
      // Most recently used last: the first entry is the one to drop.
      this.statements.delete(sql);
      this.statements.set(sql, cached);
      return cached;
    }
    const statement = this.database.prepare(sql);
    if (sql.length > LONGEST_CACHED_SQL) return statement;
    this.statements.set(sql, statement);
    this.cachedCharacters += sql.length;
    while (this.statements.size > CACHED_STATEMENTS || this.cachedCharacters > CACHED_SQL_CHARACTERS) {
      const oldest = this.statements.keys().next().value as string;
      this.statements.delete(oldest);
      this.cachedCharacters -= oldest.length;
    }
    return statement;
  }
}

/** The one connection, handed to waiters in the order they asked for it. */
class ConnectionQueue {
  private locked = false;
  private readonly waiting: Array<() => void> = [];

  get held(): boolean {
    return this.locked;
  }

  get waitingCount(): number {
    return this.waiting.length;
  }

  async lock(): Promise<void> {
    if (!this.locked) {
      this.locked = true;
      return;
    }
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  /** Passes the connection to the next waiter, if any (it stays held). */
  unlock(): void {
    const next = this.waiting.shift();
    if (next === undefined) this.locked = false;
    else next();
  }
}

function quoteIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

import { DatabaseSync, type StatementSync } from 'node:sqlite';
import type SqliteDatabase from 'better-sqlite3';

/**
 * The part of better-sqlite3's API that `QueuedSqliteDialect` uses, over `node:sqlite`, so the
 * project's own dialect, repositories and SQL can run on either driver in the driver bench.
 * Bench only: `readonly` is guessed from the SQL (node:sqlite does not expose
 * `sqlite3_stmt_readonly`), which is right for every statement the bench runs.
 */
export class NodeSqliteDatabase {
  private readonly database: DatabaseSync;

  constructor(file: string, options: { readOnly?: boolean } = {}) {
    this.database = new DatabaseSync(file, { readOnly: options.readOnly ?? false });
  }

  prepare(sql: string): NodeSqliteStatement {
    return new NodeSqliteStatement(this.database.prepare(sql), sql);
  }

  /** `pragma(text)` as better-sqlite3 has it; the result is not needed here. */
  pragma(text: string): void {
    this.database.exec(`pragma ${text}`);
  }

  exec(sql: string): void {
    this.database.exec(sql);
  }

  close(): void {
    this.database.close();
  }

  /** The same object typed as the better-sqlite3 database the dialect takes (it uses only what is above). */
  asBetterSqlite(): SqliteDatabase.Database {
    return this as unknown as SqliteDatabase.Database;
  }
}

type Parameter = null | number | bigint | string | NodeJS.ArrayBufferView;

class NodeSqliteStatement {
  /** Returns rows (better-sqlite3's `reader`). */
  readonly reader: boolean;
  readonly readonly: boolean;

  constructor(
    private readonly statement: StatementSync,
    sql: string,
  ) {
    this.reader = statement.columns().length > 0;
    this.readonly = this.reader && /^\s*(select|with)\b/i.test(sql);
  }

  all(parameters: readonly unknown[] = []): unknown[] {
    return this.statement.all(...(parameters as Parameter[]));
  }

  get(parameters: readonly unknown[] = []): unknown {
    return this.statement.get(...(parameters as Parameter[]));
  }

  run(parameters: readonly unknown[] = []): { changes: number | bigint; lastInsertRowid: number | bigint } {
    return this.statement.run(...(parameters as Parameter[]));
  }

  iterate(parameters: readonly unknown[] = []): IterableIterator<unknown> {
    return this.statement.iterate(...(parameters as Parameter[]));
  }
}

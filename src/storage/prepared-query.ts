import type { Compilable, CompiledQuery, Kysely } from 'kysely';
import type { Tables } from './tables.js';

/**
 * Where the SQL texts of prepared queries are announced: on PostgreSQL each becomes a named
 * statement, parsed once per connection (see `named-statement-pool.ts`).
 */
export interface StatementRegistry {
  register(sql: string): void;
}

/**
 * A query built and compiled once, for the reads every request makes: each run binds its own
 * values, in the order the builder placed them, to the same SQL text, with none of the
 * query builder's per-request work. Build it with placeholder values of the right types.
 */
export class PreparedQuery<Row> {
  private readonly compiled: CompiledQuery<Row>;

  constructor(query: Compilable<Row>, registry: StatementRegistry) {
    this.compiled = query.compile();
    registry.register(this.compiled.sql);
  }

  get sql(): string {
    return this.compiled.sql;
  }

  /** The rows for these values (as many as the placeholders the query was built with). */
  async execute(db: Kysely<Tables>, values: readonly unknown[]): Promise<Row[]> {
    if (values.length !== this.compiled.parameters.length) {
      throw new Error(`Prepared query takes ${this.compiled.parameters.length} values, got ${values.length}`);
    }
    return (await db.executeQuery<Row>({ ...this.compiled, parameters: values })).rows;
  }
}

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
 * values to the same SQL text, with none of the query builder's per-request work. Build it
 * with placeholder values of the right types, and name the value each placeholder takes, in
 * the order the builder placed them (`binds`); a run takes the values by those names.
 */
export class PreparedQuery<Row, Params extends object> {
  private readonly compiled: CompiledQuery<Row>;

  constructor(
    query: Compilable<Row>,
    private readonly binds: ReadonlyArray<keyof Params & string>,
    registry: StatementRegistry,
  ) {
    this.compiled = query.compile();
    if (binds.length !== this.compiled.parameters.length) {
      throw new Error(`Prepared query has ${this.compiled.parameters.length} placeholders, ${binds.length} names for them`);
    }
    registry.register(this.compiled.sql);
  }

  get sql(): string {
    return this.compiled.sql;
  }

  /** The rows for these values: each placeholder takes the value of its name. */
  async execute(db: Kysely<Tables>, params: Params): Promise<Row[]> {
    const values = this.binds.map((name) => {
      const value = params[name];
      if (value === undefined) throw new Error(`Prepared query needs a value for '${name}'`);
      return value;
    });
    return (await db.executeQuery<Row>({ ...this.compiled, parameters: values })).rows;
  }
}

/**
 * Runs a query built for this request. When its text is one of a few fixed shapes (each of its
 * `in` lists of one item: one customer, one SKU), the text is registered first, so PostgreSQL
 * plans it once per connection instead of on every request; other shapes go as they are. The
 * caller says which: only shapes whose number is fixed and small may be registered.
 */
export async function executeShaped<Row>(db: Kysely<Tables>, registry: StatementRegistry, query: Compilable<Row>, fixedShape: boolean): Promise<Row[]> {
  const compiled = query.compile();
  if (fixedShape) registry.register(compiled.sql);
  return (await db.executeQuery<Row>(compiled)).rows;
}

import type { PostgresCursor, PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';
import type pg from 'pg';
import type { StatementRegistry } from './prepared-query.js';

/**
 * Most SQL texts that get a name. Each named statement stays prepared in every backend that
 * ran it for the life of the connection, so the set must be fixed and small: the prepared
 * queries of the hot reads register theirs at start-up, a few dozen at most.
 */
const MAX_NAMED_STATEMENTS = 64;

/**
 * A `pg` pool for Kysely's PostgreSQL dialect that sends the registered SQL texts as named
 * prepared statements: PostgreSQL parses and analyses each once per connection instead of on
 * every request. Every other statement goes as before (unnamed). Registering more than
 * {@link MAX_NAMED_STATEMENTS} texts is a programming error and throws.
 */
export class NamedStatementPool implements PostgresPool, StatementRegistry {
  private readonly names = new Map<string, string>();
  private readonly clients = new WeakMap<pg.PoolClient, PostgresPoolClient>();

  constructor(private readonly pool: pg.Pool) {}

  register(sql: string): void {
    if (this.names.has(sql)) return;
    if (this.names.size >= MAX_NAMED_STATEMENTS) throw new Error(`More than ${MAX_NAMED_STATEMENTS} named statements registered`);
    this.names.set(sql, `pricebook_${this.names.size + 1}`);
  }

  async connect(): Promise<PostgresPoolClient> {
    const client = await this.pool.connect();
    // One wrapper per pooled client: Kysely keeps its connection object per client.
    let wrapped = this.clients.get(client);
    if (wrapped === undefined) {
      wrapped = this.wrap(client);
      this.clients.set(client, wrapped);
    }
    return wrapped;
  }

  end(): Promise<void> {
    return this.pool.end();
  }

  private wrap(client: pg.PoolClient): PostgresPoolClient {
    const names = this.names;
    function query<R>(sql: string, parameters: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>>;
    function query<R>(cursor: PostgresCursor<R>): PostgresCursor<R>;
    function query<R>(sqlOrCursor: string | PostgresCursor<R>, parameters?: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>> | PostgresCursor<R> {
      if (typeof sqlOrCursor !== 'string') return client.query(sqlOrCursor as unknown as pg.Submittable) as unknown as PostgresCursor<R>;
      const values = parameters as unknown[];
      const name = names.get(sqlOrCursor);
      const result = name === undefined ? client.query(sqlOrCursor, values) : client.query({ name, text: sqlOrCursor, values });
      return result as unknown as Promise<PostgresQueryResult<R>>;
    }
    return { query, release: () => client.release() };
  }
}

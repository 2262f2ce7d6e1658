import { AsyncLocalStorage } from 'node:async_hooks';
import { sql, type Kysely } from 'kysely';
import { type AppError, invalidField } from '../modules/shared/errors.js';
import type { Repositories, TransactionOptions, UnitOfWork } from '../modules/shared/unit-of-work.js';
import type { Database } from './database.js';
import type { Engine } from './engine.js';
import type { StatementRegistry } from './prepared-query.js';
import { KyselyCustomerRepository } from './repositories/customer-repository.js';
import { KyselyCategoryRepository } from './repositories/category-repository.js';
import { KyselyProductRepository } from './repositories/product-repository.js';
import { KyselySkuRepository } from './repositories/sku-repository.js';
import { KyselyVariationRepository } from './repositories/variation-repository.js';
import { KyselyIdempotencyRepository } from './repositories/idempotency-repository.js';
import { KyselyTradePriceRepository } from './repositories/trade-price-repository.js';
import { KyselyOrderRepository } from './repositories/order-repository.js';
import { KyselyEventRepository } from './repositories/event-repository.js';
import { KyselyHistoryRepository } from './repositories/history-repository.js';
import { KyselyWebhookRepository } from './repositories/webhook-repository.js';
import { KyselyApiKeyRepository, KyselyStoreRepository } from './repositories/store-repository.js';
import { HotReads } from './repositories/hot-reads.js';
import { KyselyPriceListRepository } from './repositories/price-list-repository.js';
import { KyselyCustomerGroupRepository } from './repositories/customer-group-repository.js';
import { KyselyPricingRepository } from './repositories/pricing-repository.js';
import { KyselyPricingAsOfRepository } from './repositories/as-of-pricing-repository.js';
import { KyselyImportRepository } from './repositories/import-repository.js';
import { KyselyImportContentsRepository } from './repositories/import-contents-repository.js';
import { KyselyStaffRepository } from './repositories/staff-repository.js';
import { KyselyChangeSetRepository } from './repositories/change-set-repository.js';
import type { Tables } from './tables.js';

function createRepositories(db: Kysely<Tables>, engine: Engine, hotReads: HotReads, statements: StatementRegistry): Repositories {
  return {
    stores: new KyselyStoreRepository(db),
    apiKeys: new KyselyApiKeyRepository(db, hotReads),
    customers: new KyselyCustomerRepository(db),
    customerGroups: new KyselyCustomerGroupRepository(db),
    products: new KyselyProductRepository(db),
    variations: new KyselyVariationRepository(db),
    skus: new KyselySkuRepository(db, engine),
    categories: new KyselyCategoryRepository(db),
    tradePrices: new KyselyTradePriceRepository(db, engine, hotReads),
    priceLists: new KyselyPriceListRepository(db, engine),
    pricing: new KyselyPricingRepository(db, engine, statements),
    pricingAsOf: new KyselyPricingAsOfRepository(db, engine, statements),
    imports: new KyselyImportRepository(db, engine),
    importContents: new KyselyImportContentsRepository(db, engine),
    idempotency: new KyselyIdempotencyRepository(db),
    orders: new KyselyOrderRepository(db),
    events: new KyselyEventRepository(db, engine),
    webhooks: new KyselyWebhookRepository(db),
    history: new KyselyHistoryRepository(db, engine),
    staff: new KyselyStaffRepository(db),
    changeSets: new KyselyChangeSetRepository(db, engine),
  };
}

export class KyselyUnitOfWork implements UnitOfWork {
  private readonly outside: Repositories;
  /** Compiled once for the database; every unit of work's repositories share them. */
  private readonly hotReads: HotReads;
  /** The transaction this async call chain is in, if any: its repositories and connection. */
  private readonly current = new AsyncLocalStorage<{ repos: Repositories; connection: Kysely<Tables> }>();
  /** Names the savepoints of rehearsals inside transactions. */
  private savepoints = 0;

  constructor(
    private readonly database: Database,
    private readonly decorate: RepositoryDecorator = (repos) => repos,
  ) {
    this.hotReads = new HotReads(database.db, database.statements);
    this.outside = this.repositoriesOn(database.db);
  }

  /** Inside a transaction, its repositories: a read there must not wait for its own connection. */
  get repos(): Repositories {
    return this.current.getStore()?.repos ?? this.outside;
  }

  async transaction<T>(work: (repos: Repositories) => Promise<T>, options: TransactionOptions = {}): Promise<T> {
    const joined = this.current.getStore();
    if (joined !== undefined) return work(joined.repos);
    const { engine, durableCommits } = this.database;
    // Where the engine's commit does not wait for the disk (SQLite), the transaction waits for it
    // after the commit, off the event loop and off the writing connection, unless asked not to.
    const syncAfter = options.unsynced !== true && durableCommits !== undefined;
    const unsynced = options.unsynced === true ? engine.unsyncedCommit : { before: [], inside: [], after: [] };
    // One connection for the whole transaction; the begin statement is the engine's own.
    const result = await this.database.db.connection().execute(async (connection) => {
      for (const statement of unsynced.before) await sql.raw(statement).execute(connection);
      try {
        await sql.raw(engine.beginTransactionSql).execute(connection);
        for (const statement of unsynced.inside) await sql.raw(statement).execute(connection);
        try {
          const repos = this.repositoriesOn(connection);
          const result = await this.current.run({ repos, connection }, () => work(repos));
          await sql`commit`.execute(connection);
          return result;
        } catch (error) {
          await sql`rollback`.execute(connection).catch(() => undefined);
          throw isForeignKeyViolation(error) ? concurrentlyDeleted() : error;
        }
      } finally {
        for (const statement of unsynced.after) await sql.raw(statement).execute(connection);
      }
    });
    if (syncAfter) await durableCommits();
    return result;
  }

  async rehearse<T>(work: (repos: Repositories) => Promise<T>): Promise<T> {
    const joined = this.current.getStore();
    if (joined !== undefined) {
      const savepoint = sql.id(`rehearsal_${++this.savepoints}`);
      await sql`savepoint ${savepoint}`.execute(joined.connection);
      try {
        // Repositories of its own: what they keep between statements (the history chain's
        // head, once locked) is undone with the savepoint, and the enclosing transaction's
        // stay as its own writes left them.
        const repos = this.repositoriesOn(joined.connection);
        return await this.current.run({ repos, connection: joined.connection }, () => work(repos));
      } finally {
        await sql`rollback to savepoint ${savepoint}`.execute(joined.connection);
        await sql`release savepoint ${savepoint}`.execute(joined.connection);
      }
    }
    return this.rolledBack(this.database.engine.beginTransactionSql, work);
  }

  async snapshot<T>(work: (repos: Repositories) => Promise<T>): Promise<T> {
    if (this.current.getStore() !== undefined) throw new Error('a snapshot cannot be taken inside a transaction');
    return this.rolledBack(this.database.engine.beginSnapshotSql, work);
  }

  /** `work` in a transaction opened by `begin`, on a connection of its own, rolled back whatever it answers. */
  private rolledBack<T>(begin: string, work: (repos: Repositories) => Promise<T>): Promise<T> {
    return this.database.db.connection().execute(async (connection) => {
      await sql.raw(begin).execute(connection);
      try {
        const repos = this.repositoriesOn(connection);
        return await this.current.run({ repos, connection }, () => work(repos));
      } finally {
        await sql`rollback`.execute(connection).catch(() => undefined);
      }
    });
  }

  private repositoriesOn(db: Kysely<Tables>): Repositories {
    return this.decorate(createRepositories(db, this.database.engine, this.hotReads, this.database.statements), db);
  }
}

/**
 * Wraps the repositories a unit of work makes (once for reads outside transactions, once per
 * transaction), given the connection they run on. Only code that builds the unit of work can
 * pass one; the default leaves them as they are.
 */
export type RepositoryDecorator = (repos: Repositories, db: Kysely<Tables>) => Repositories;

/**
 * A row this transaction referred to was deleted by another one after it was checked (only
 * possible between concurrent requests); the client can retry and get a precise answer.
 */
function isForeignKeyViolation(error: unknown): boolean {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return code === '23503' || code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}

function concurrentlyDeleted(): AppError {
  return invalidField(null, 'A record this request refers to was deleted while the request ran; retry it');
}

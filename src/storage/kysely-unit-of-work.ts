import { AsyncLocalStorage } from 'node:async_hooks';
import { sql, type Kysely } from 'kysely';
import { type AppError, invalidField } from '../modules/errors.js';
import type { Repositories, UnitOfWork } from '../modules/unit-of-work.js';
import type { Database } from './database.js';
import type { Engine } from './engine.js';
import { KyselyCustomerRepository } from './repositories/customer-repository.js';
import { KyselyCategoryRepository } from './repositories/category-repository.js';
import { KyselyProductRepository } from './repositories/product-repository.js';
import { KyselySkuRepository } from './repositories/sku-repository.js';
import { KyselyVariationRepository } from './repositories/variation-repository.js';
import { KyselyIdempotencyRepository } from './repositories/idempotency-repository.js';
import { KyselyTradePriceRepository } from './repositories/trade-price-repository.js';
import { KyselyOrderRepository } from './repositories/order-repository.js';
import { KyselyEventRepository } from './repositories/event-repository.js';
import { KyselyWebhookRepository } from './repositories/webhook-repository.js';
import { KyselyApiKeyRepository, KyselyStoreRepository } from './repositories/store-repository.js';
import { HotReads } from './repositories/hot-reads.js';
import { KyselyPriceListRepository } from './repositories/price-list-repository.js';
import { KyselyPricingRepository } from './repositories/pricing-repository.js';
import { KyselyImportRepository } from './repositories/import-repository.js';
import type { Tables } from './tables.js';

function createRepositories(db: Kysely<Tables>, engine: Engine, hotReads: HotReads, faults: UnitOfWorkFaults): Repositories {
  return {
    stores: new KyselyStoreRepository(db),
    apiKeys: new KyselyApiKeyRepository(db, hotReads),
    customers: new KyselyCustomerRepository(db),
    products: new KyselyProductRepository(db),
    variations: new KyselyVariationRepository(db),
    skus: new KyselySkuRepository(db),
    categories: new KyselyCategoryRepository(db),
    tradePrices: new KyselyTradePriceRepository(db, engine, hotReads, { listEveryStore: faults.tradePriceListEveryStore === true }),
    priceLists: new KyselyPriceListRepository(db, engine),
    pricing: new KyselyPricingRepository(db, engine),
    imports: new KyselyImportRepository(db, engine),
    idempotency: new KyselyIdempotencyRepository(db),
    orders: new KyselyOrderRepository(db),
    events: new KyselyEventRepository(db, engine),
    webhooks: new KyselyWebhookRepository(db),
  };
}

export class KyselyUnitOfWork implements UnitOfWork {
  private readonly outside: Repositories;
  /** Compiled once for the database; every unit of work's repositories share them. */
  private readonly hotReads: HotReads;
  /** The repositories of the transaction this async call chain is in, if any. */
  private readonly current = new AsyncLocalStorage<Repositories>();

  constructor(
    private readonly database: Database,
    private readonly faults: UnitOfWorkFaults = {},
  ) {
    this.hotReads = new HotReads(database.db, database.statements);
    this.outside = createRepositories(database.db, database.engine, this.hotReads, faults);
  }

  /** Inside a transaction, its repositories: a read there must not wait for its own connection. */
  get repos(): Repositories {
    return this.current.getStore() ?? this.outside;
  }

  async transaction<T>(work: (repos: Repositories) => Promise<T>): Promise<T> {
    const joined = this.current.getStore();
    if (joined !== undefined) return work(joined);
    const delayMs = this.faults.acknowledgeBeforeCommitMs ?? 0;
    if (delayMs > 0) {
      // The injected fault: the caller gets the result (and answers 201) before the commit.
      return new Promise<T>((resolve, reject) => {
        this.run(work, async (result) => {
          resolve(result);
          await new Promise((wait) => setTimeout(wait, delayMs));
        }).catch(reject);
      });
    }
    return this.run(work);
  }

  private run<T>(work: (repos: Repositories) => Promise<T>, beforeCommit?: (result: T) => Promise<void>): Promise<T> {
    // One connection for the whole transaction; the begin statement is the engine's own.
    return this.database.db.connection().execute(async (connection) => {
      await sql.raw(this.database.engine.beginTransactionSql).execute(connection);
      try {
        const repos = createRepositories(connection, this.database.engine, this.hotReads, this.faults);
        const result = await this.current.run(repos, () => work(repos));
        await beforeCommit?.(result);
        await sql`commit`.execute(connection);
        return result;
      } catch (error) {
        await sql`rollback`.execute(connection).catch(() => undefined);
        throw isForeignKeyViolation(error) ? concurrentlyDeleted() : error;
      }
    });
  }
}

/** Faults injected by the fault suite (test only; none by default). */
export interface UnitOfWorkFaults {
  /** Hand each transaction's result to its caller, then wait this long before committing. */
  acknowledgeBeforeCommitMs?: number;
  /** The trade price list answers every store's records (a planted leak for the leak checks). */
  tradePriceListEveryStore?: boolean;
}

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

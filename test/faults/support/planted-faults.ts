import { AsyncLocalStorage } from 'node:async_hooks';
import type { Kysely } from 'kysely';
import type { TradePrice } from '../../../src/contract/trade-prices.js';
import type { Page } from '../../../src/modules/shared/page.js';
import type { TradePriceFilter, TradePriceRepository } from '../../../src/modules/trade-prices/trade-price-repository.js';
import type { Repositories, UnitOfWork } from '../../../src/modules/shared/unit-of-work.js';
import type { Database } from '../../../src/storage/database.js';
import { KyselyUnitOfWork } from '../../../src/storage/kysely-unit-of-work.js';
import type { Tables } from '../../../src/storage/tables.js';

/**
 * Faults the fault suite plants to prove that its checkers see what they look for. Each is a
 * `unitOfWork` for `buildServices` (`ServiceOptions`): the shipped code has no switch for
 * them; only a test that builds the services itself (in-process, or through the test-only
 * entry point `fault-server.ts`) can pass one.
 */
export type PlantedFault = (database: Database) => UnitOfWork;

/** The faults `fault-server.ts` takes by name. */
export const PLANTED_FAULTS = {
  /**
   * Every write transaction hands its result to the caller (who answers 201) and only then,
   * a second later, commits: a crash in between loses acknowledged data.
   */
  'ack-before-commit': (database: Database) => new AcknowledgeBeforeCommit(new KyselyUnitOfWork(database), 1000),
  /** The trade price list answers every store's records, not only the caller's. */
  'trade-price-list-every-store': (database: Database) =>
    new KyselyUnitOfWork(database, (repos, db) => ({ ...repos, tradePrices: listingEveryStore(repos.tradePrices, db) })),
} as const satisfies Record<string, PlantedFault>;

export type PlantedFaultName = keyof typeof PLANTED_FAULTS;

export function isPlantedFault(name: string): name is PlantedFaultName {
  return Object.hasOwn(PLANTED_FAULTS, name);
}

/** A unit of work whose outermost transactions answer before they commit. */
class AcknowledgeBeforeCommit implements UnitOfWork {
  /** Set inside a transaction: a nested one joins it and has nothing of its own to delay. */
  private readonly inside = new AsyncLocalStorage<true>();

  constructor(
    private readonly inner: UnitOfWork,
    private readonly delayMs: number,
  ) {}

  get repos(): Repositories {
    return this.inner.repos;
  }

  rehearse<T>(work: (repos: Repositories) => Promise<T>): Promise<T> {
    return this.inner.rehearse(work);
  }

  snapshot<T>(work: (repos: Repositories) => Promise<T>): Promise<T> {
    return this.inner.snapshot(work);
  }

  transaction<T>(work: (repos: Repositories) => Promise<T>): Promise<T> {
    if (this.inside.getStore() === true) return this.inner.transaction(work);
    return new Promise<T>((resolve, reject) => {
      this.inner
        .transaction((repos) =>
          this.inside.run(true, async () => {
            const result = await work(repos);
            // The fault: the caller has its result (and answers) while the commit waits.
            resolve(result);
            await new Promise((wait) => setTimeout(wait, this.delayMs));
            return result;
          }),
        )
        .catch(reject);
    });
  }
}

/**
 * The trade price repository with a `list` that leaves out the store: the filters, order and
 * page as usual, over every store's records. Each record is read back through the repository
 * (with its own store), so it has the shape the real list gives.
 */
function listingEveryStore(inner: TradePriceRepository, db: Kysely<Tables>): TradePriceRepository {
  const list = async (_storeId: number, filter: TradePriceFilter, page: Page): Promise<TradePrice[]> => {
    let query = db.selectFrom('trade_prices').select(['id', 'store_id']);
    if (filter.customerId !== undefined) query = query.where('customer_id', '=', filter.customerId);
    if (filter.productId !== undefined) query = query.where('product_id', '=', filter.productId);
    if (filter.sku !== undefined) query = query.where('sku', '=', filter.sku);
    const { validAt } = filter;
    if (validAt !== undefined) {
      query = query
        .where((eb) => eb.or([eb('valid_from', 'is', null), eb('valid_from', '<=', validAt)]))
        .where((eb) => eb.or([eb('valid_until', 'is', null), eb('valid_until', '>', validAt)]));
    }
    const rows = await query.orderBy('id').limit(page.count).offset(page.offset).execute();
    const records: TradePrice[] = [];
    for (const row of rows) {
      const record = await inner.find(Number(row.store_id), Number(row.id));
      if (record !== undefined) records.push(record);
    }
    return records;
  };
  // Every other method is the repository's own (found through the prototype chain).
  return Object.assign(Object.create(inner) as TradePriceRepository, { list });
}

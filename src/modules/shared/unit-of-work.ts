import type { ApiKeyRepository, StoreRepository } from '../stores/store-repository.js';
import type { CustomerRepository } from '../customers/customer-repository.js';
import type { CustomerGroupRepository } from '../customer-groups/customer-group-repository.js';
import type { CategoryRepository } from '../catalog/category-repository.js';
import type { ProductRepository } from '../catalog/product-repository.js';
import type { SkuRepository } from '../catalog/sku-repository.js';
import type { VariationRepository } from '../catalog/variation-repository.js';
import type { IdempotencyRepository } from '../idempotency/idempotency-repository.js';
import type { TradePriceRepository } from '../trade-prices/trade-price-repository.js';
import type { OrderRepository } from '../orders/order-repository.js';
import type { EventRepository } from '../events/event-repository.js';
import type { WebhookRepository } from '../webhooks/webhook-repository.js';
import type { PriceListRepository } from '../price-lists/price-list-repository.js';
import type { PricingRepository } from '../pricing/pricing-repository.js';
import type { PricingAsOfRepository } from '../pricing/as-of-repository.js';
import type { ImportRepository } from '../imports/import-repository.js';
import type { ImportContentsRepository } from '../imports/import-contents-repository.js';
import type { HistoryRepository } from '../history/history-repository.js';
import type { StaffRepository } from '../staff/staff-repository.js';
import type { ChangeSetRepository } from '../change-sets/change-set-repository.js';

/** The repositories of one unit of work. */
export interface Repositories {
  readonly stores: StoreRepository;
  readonly apiKeys: ApiKeyRepository;
  readonly customers: CustomerRepository;
  readonly customerGroups: CustomerGroupRepository;
  readonly products: ProductRepository;
  readonly variations: VariationRepository;
  readonly skus: SkuRepository;
  readonly categories: CategoryRepository;
  readonly tradePrices: TradePriceRepository;
  readonly priceLists: PriceListRepository;
  /** The reads behind the resolution rule. */
  readonly pricing: PricingRepository;
  /** The reads behind a price at a past moment, from the history. */
  readonly pricingAsOf: PricingAsOfRepository;
  readonly imports: ImportRepository;
  /** What imports hold: their files' slices, staged prices, dry runs' changes. */
  readonly importContents: ImportContentsRepository;
  readonly idempotency: IdempotencyRepository;
  readonly orders: OrderRepository;
  /** The outbox: services append the events of their changes in the same transaction. */
  readonly events: EventRepository;
  readonly webhooks: WebhookRepository;
  /** The price history: appended in the transaction of the change it records. */
  readonly history: HistoryRepository;
  /** Staff accounts and their sessions. */
  readonly staff: StaffRepository;
  /** Change sets and their operations. */
  readonly changeSets: ChangeSetRepository;
}

/** The storage port: domain services see repositories and transactions, never SQL. */
export interface UnitOfWork {
  /** Repositories outside any transaction, for reads. */
  readonly repos: Repositories;
  /**
   * Runs `work` in one transaction: committed if it resolves, rolled back if it throws.
   * Called inside another transaction, it joins it, so a caller can wrap several
   * services' writes (and an idempotency record) into one commit.
   */
  transaction<T>(work: (repos: Repositories) => Promise<T>, options?: TransactionOptions): Promise<T>;
  /**
   * Runs `work` as a transaction would, then undoes every write it made, and answers what it
   * answered (a preview, or a check that can only be made by trying). Inside a transaction it
   * undoes only its own writes (a savepoint); the writes before it stay.
   */
  rehearse<T>(work: (repos: Repositories) => Promise<T>): Promise<T>;
  /**
   * Runs `work`'s reads against one moment of the database (a read-only transaction), for a
   * check that compares tables: nothing committed meanwhile shows in any of them. Not inside a
   * transaction. Long snapshots keep old row versions (and SQLite's log) alive: batch tools only.
   */
  snapshot<T>(work: (repos: Repositories) => Promise<T>): Promise<T>;
}

export interface TransactionOptions {
  /**
   * The commit returns without waiting for the disk (default false). Only for a step of work
   * that nobody is told of until a later, ordinary commit of the same work: that commit's wait
   * for the disk covers this one's writes too. An upload's slices are written so, and the
   * commit that queues the import, before the answer, makes them all durable.
   */
  unsynced?: boolean;
}

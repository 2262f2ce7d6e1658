import { availableParallelism } from 'node:os';
import type { Config } from '../config/config.js';
import { type Clock, systemClock } from '../modules/shared/clock.js';
import { CustomerService } from '../modules/customers/customer-service.js';
import { CategoryService } from '../modules/catalog/category-service.js';
import { ProductService } from '../modules/catalog/product-service.js';
import { SkuLookupService } from '../modules/catalog/sku-lookup-service.js';
import { VariationService } from '../modules/catalog/variation-service.js';
import { IdempotencyService } from '../modules/idempotency/idempotency-service.js';
import { OrderService } from '../modules/orders/order-service.js';
import { CredentialService } from '../modules/stores/credential-service.js';
import { StaffSessionService } from '../modules/staff/session-service.js';
import { StaffService } from '../modules/staff/staff-service.js';
import { DeviceCookies } from '../modules/staff/device-cookies.js';
import { GuardedPasswordCheck } from '../modules/staff/guarded-password-check.js';
import { PricingService } from '../modules/pricing/pricing-service.js';
import { PriceListService } from '../modules/price-lists/price-list-service.js';
import { CustomerGroupService } from '../modules/customer-groups/customer-group-service.js';
import { ChangeSetService } from '../modules/change-sets/change-set-service.js';
import { ImportService } from '../modules/imports/import-service.js';
import { TradePriceService } from '../modules/trade-prices/trade-price-service.js';
import type { UnitOfWork } from '../modules/shared/unit-of-work.js';
import type { RateLimiter } from '../rate-limit/rate-limiter.js';
import { SignInThrottle } from '../rate-limit/sign-in-throttle.js';
import type { RateLimiterStatus } from '../rate-limit/rate-limiter-status.js';
import { type Database, openDatabase } from '../storage/database.js';
import { KyselyUnitOfWork } from '../storage/kysely-unit-of-work.js';
import { buildRateLimiters } from './rate-limiters.js';
import { EventFeedService } from '../modules/events/event-feed-service.js';
import { HistoryService } from '../modules/history/history-service.js';
import { HistoryRetention } from '../modules/history/history-retention.js';
import { WebhookService } from '../modules/webhooks/webhook-service.js';
import { KyselyDeliveryQueue } from '../storage/kysely-delivery-queue.js';
import type { DeliveryQueue } from '../webhooks/delivery-queue.js';
import type { OutboxStats } from '../webhooks/outbox-stats.js';
import { KyselyOutboxStats } from '../storage/kysely-outbox-stats.js';
import { type HostResolver, systemResolver } from '../webhooks/host-resolver.js';
import { NodeHttpTransport, type WebhookTransport } from '../webhooks/http-transport.js';
import { ReceiverGuard } from '../webhooks/receiver-guard.js';
import { WebhookSender } from '../webhooks/webhook-sender.js';

/** Everything the HTTP app and the CLI work with, built from the config. */
export interface Services {
  readonly database: Database;
  readonly uow: UnitOfWork;
  readonly clock: Clock;
  /** Per-credential buckets. */
  readonly rateLimiter: RateLimiter;
  /** Per-client-address buckets of failed authentications (staff sign-ins among them). */
  readonly authFailures: RateLimiter;
  /** Per-account buckets of failed staff sign-ins. */
  readonly signInFailures: RateLimiter;
  /** Where the buckets live now (`redis`, `local-fallback`, `memory`), for /healthz and the log. */
  readonly rateLimiterStatus: RateLimiterStatus;
  readonly credentials: CredentialService;
  /** Staff accounts (the CLI manages them; members change their own password). */
  readonly staff: StaffService;
  /** Staff sign-in and sessions. */
  readonly staffSessions: StaffSessionService;
  readonly customers: CustomerService;
  readonly products: ProductService;
  /** SKUs to product and variation ids, for integrators that know only SKUs. */
  readonly skus: SkuLookupService;
  readonly variations: VariationService;
  readonly categories: CategoryService;
  readonly tradePrices: TradePriceService;
  /** The resolution rule: effective prices, quotes (and orders price with it). */
  readonly pricing: PricingService;
  readonly priceLists: PriceListService;
  readonly customerGroups: CustomerGroupService;
  readonly changeSets: ChangeSetService;
  /** CSV imports; `serve` runs an `ImportRunner` that works them. */
  readonly imports: ImportService;
  readonly idempotency: IdempotencyService;
  readonly orders: OrderService;
  readonly webhooks: WebhookService;
  readonly events: EventFeedService;
  /** The price history's reads (`GET /v1/price-history`). */
  readonly history: HistoryService;
  /** The history's retention cut, a task of the maintenance loop; undefined while history is kept for ever (the default). */
  readonly historyRetention: HistoryRetention | undefined;
  /** Signed requests to receivers, behind the SSRF guard (the delivery worker sends with it). */
  readonly webhookSender: WebhookSender;
  readonly deliveryQueue: DeliveryQueue;
  /** How far behind delivery is, for metrics. */
  readonly outboxStats: OutboxStats;
  close(): Promise<void>;
}

export interface ServiceOptions {
  clock?: Clock;
  /** PostgreSQL pool size. */
  poolSize?: number;
  /** Sees the SQL of every statement (tests count statements with it). */
  onQuery?: (sql: string) => void;
  /** Name resolution for webhook URLs (tests answer with chosen addresses). */
  webhookResolver?: HostResolver;
  /** The HTTP client of webhook requests (tests may replace it). */
  webhookTransport?: WebhookTransport;
  /**
   * Builds the unit of work every service uses over the opened database, instead of
   * `new KyselyUnitOfWork(database)`. The fault suite plants its faults with it (an answer
   * before the commit, a list that leaks other stores); no setting or flag reaches it.
   */
  unitOfWork?: (database: Database) => UnitOfWork;
}

export async function buildServices(config: Config, options: ServiceOptions = {}): Promise<Services> {
  const clock = options.clock ?? systemClock;
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolSize: options.poolSize, onQuery: options.onQuery });
  const uow = options.unitOfWork?.(database) ?? new KyselyUnitOfWork(database);
  // Redis when REDIS_URL is set (with a per-instance fallback while it is down), else memory.
  const limiters = await buildRateLimiters(config, clock);
  const { rateLimiter, authFailures, signInFailures } = limiters;
  // Every check of a staff password reserves its attempt in these buckets first, and runs on
  // all processors but one at most (one at least), so the event loop keeps one.
  const passwords = new GuardedPasswordCheck(
    new SignInThrottle(signInFailures, authFailures),
    new DeviceCookies(uow, clock),
    Math.max(1, availableParallelism() - 1),
  );
  const pricing = new PricingService(uow, clock);
  const customers = new CustomerService(uow, clock);
  const tradePrices = new TradePriceService(uow, clock);
  const priceLists = new PriceListService(uow, clock);
  const changeSets = new ChangeSetService(uow, clock, { tradePriceService: tradePrices, priceListService: priceLists, customerService: customers }, pricing);
  const guard = new ReceiverGuard(options.webhookResolver ?? systemResolver, { allowPrivate: config.webhookAllowPrivate });
  const webhookSender = new WebhookSender(guard, options.webhookTransport ?? new NodeHttpTransport(), clock);
  return {
    database,
    uow,
    clock,
    rateLimiter,
    authFailures,
    signInFailures,
    rateLimiterStatus: limiters.status,
    credentials: new CredentialService(uow, clock),
    staff: new StaffService(uow, clock, passwords, config.passwordCost),
    staffSessions: new StaffSessionService(
      uow,
      clock,
      { idleMs: config.sessionIdleSeconds * 1000, absoluteMs: config.sessionLifetimeSeconds * 1000 },
      passwords,
      config.passwordCost,
    ),
    customers,
    customerGroups: new CustomerGroupService(uow, clock),
    products: new ProductService(uow, clock),
    skus: new SkuLookupService(uow),
    variations: new VariationService(uow, clock),
    categories: new CategoryService(uow, clock),
    tradePrices,
    pricing,
    priceLists,
    changeSets,
    imports: new ImportService(uow, clock, {
      leaseMs: config.importLeaseSeconds * 1000,
      caps: { maxImports: config.importMaxQueued, maxBytes: config.importMaxQueuedMiB * 2 ** 20 },
      retentionMs: config.importRetentionDays * 24 * 3600_000,
      changeSets,
    }),
    idempotency: new IdempotencyService(uow, clock),
    orders: new OrderService(uow, clock, pricing),
    webhooks: new WebhookService(uow, clock, guard, webhookSender),
    events: new EventFeedService(uow),
    history: new HistoryService(uow),
    historyRetention:
      config.historyRetentionDays === undefined || config.historyKey === undefined
        ? undefined
        : new HistoryRetention(uow, clock, { retentionMs: config.historyRetentionDays * 24 * 3600_000, key: config.historyKey }),
    webhookSender,
    deliveryQueue: new KyselyDeliveryQueue(database),
    outboxStats: new KyselyOutboxStats(database),
    async close() {
      webhookSender.close();
      await limiters.close();
      await database.close();
    },
  };
}

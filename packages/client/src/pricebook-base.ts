import { ApiCaller, type CreateOptions } from './api-caller.js';
import { CustomersResource, ProductsResource, VariationsResource } from './catalog-resources.js';
import { ImportsResource } from './imports-resource.js';
import { OrdersResource, QuotesResource } from './orders-resource.js';
import { Pacer, type PacingCounters, type PacingOptions } from './pacer.js';
import { PriceHistoryResource } from './price-history-resource.js';
import { ChangeSetsResource } from './change-sets-resource.js';
import { PriceListsResource } from './price-lists-resource.js';
import { RecordsResource } from './records-resource.js';
import { SessionResource, StoreResource } from './session-resource.js';
import { SkusResource } from './skus-resource.js';
import { TradePricesResource } from './trade-prices-resource.js';
import type { Transport } from './transport.js';
import type { PricedSkuInput, ReplaceTradePricesResult } from './types.js';
import { EventsResource, WebhooksResource } from './webhooks-resource.js';

/** The options of every entry's `Pricebook`, whatever its transport. */
export interface PricebookBaseOptions {
  /** The Bearer token `pricebook keys create` printed. */
  token: string;
  /** Pacing by the rate-limit headers; default on. `false`: no waits, and a 429 throws a PricebookError (code 11). */
  pacing?: boolean | PacingOptions;
  /** Aborts every request and wait of this client, now and later: each rejects with the signal's reason. */
  signal?: AbortSignal;
}

/**
 * The options of a client whose credential is a browser's staff-session cookie instead of a
 * token: a page the API itself serves (the admin page), signed in with `session.create`.
 */
export interface SessionCookieOptions extends Omit<PricebookBaseOptions, 'token'> {
  /** No `Authorization` header on any request: the transport sends the session cookie (a `FetchTransport` with `credentials: 'same-origin'`). */
  sessionCookie: true;
  token?: undefined;
}

export interface ReplaceOptions extends CreateOptions {
  /** `customer`: the customer's prices become exactly `prices`. `skus`: only the SKUs named are replaced. Required. */
  scope: 'customer' | 'skus';
  /** Answer what would change, and change nothing. Default false. */
  dryRun?: boolean;
}

const USER_AGENT = 'pricebook-client/0.1';

/**
 * A typed client of the Pricebook API (docs/client.md) over a given transport: one resource per
 * area, each with the operations the API has (`list`, `iterate`, `count`, `get`, `create`,
 * `update`, `delete`), paced by the rate-limit headers unless told not to be. `Pricebook` of
 * `@pricebook/client` (HTTPS by default) and of its browser entry (`fetch`) extend it.
 */
export class PricebookBase {
  readonly customers: CustomersResource;
  /** `/v1/customer-groups` (docs/pricing.md, "Customer groups"): price lists shared by every customer of a group, after each one's own; `priceListIds`, when sent, replaces the group's lists; a deleted group's customers belong to no group. */
  readonly customerGroups: RecordsResource<'customerGroups'>;
  readonly products: ProductsResource;
  readonly variations: VariationsResource;
  readonly skus: SkusResource;
  /** `/v1/categories`; `embed: 'parents'` adds each category's ancestors. */
  readonly categories: RecordsResource<'categories'>;
  readonly tradePrices: TradePricesResource;
  readonly priceLists: PriceListsResource;
  readonly changeSets: ChangeSetsResource;
  readonly quotes: QuotesResource;
  readonly orders: OrdersResource;
  readonly webhooks: WebhooksResource;
  readonly events: EventsResource;
  readonly imports: ImportsResource;
  readonly priceHistory: PriceHistoryResource;
  readonly session: SessionResource;
  readonly store: StoreResource;
  private readonly transport: Transport;
  private readonly pacer: Pacer;

  /** `openTransport` is called once the options are checked. */
  constructor(options: PricebookBaseOptions | SessionCookieOptions, openTransport: () => Transport) {
    const authorization = 'sessionCookie' in options && options.sessionCookie === true ? undefined : `Bearer ${options.token ?? ''}`;
    if (authorization !== undefined && (options.token ?? '') === '') throw new TypeError('token is required');
    this.transport = openTransport();
    const pacing = options.pacing ?? true;
    this.pacer = new Pacer(pacing !== false, typeof pacing === 'object' ? pacing : {});
    const api = new ApiCaller(this.transport, this.pacer, authorization, USER_AGENT, options.signal);
    this.customers = new CustomersResource(api);
    this.customerGroups = new RecordsResource(api, 'customerGroups');
    this.products = new ProductsResource(api);
    this.variations = new VariationsResource(api);
    this.skus = new SkusResource(api);
    this.categories = new RecordsResource(api, 'categories');
    this.tradePrices = new TradePricesResource(api);
    this.priceLists = new PriceListsResource(api);
    this.changeSets = new ChangeSetsResource(api);
    this.quotes = new QuotesResource(api);
    this.orders = new OrdersResource(api);
    this.webhooks = new WebhooksResource(api);
    this.events = new EventsResource(api);
    this.imports = new ImportsResource(api);
    this.priceHistory = new PriceHistoryResource(api);
    this.session = new SessionResource(api);
    this.store = new StoreResource(api);
  }

  /**
   * Gives one customer exactly `prices` (`scope: 'customer'`) or replaces the prices of the SKUs
   * named (`scope: 'skus'`), in one transaction; with `dryRun`, only answers what would change.
   * Unchanged prices keep their records. Up to 10 000 prices.
   */
  replaceCustomerPrices(customerId: number, prices: readonly PricedSkuInput[], options: ReplaceOptions): Promise<ReplaceTradePricesResult> {
    const { scope, dryRun = false, idempotencyKey } = options;
    return this.tradePrices.replace({ customerId, prices: [...prices], scope, dryRun }, idempotencyKey === undefined ? {} : { idempotencyKey });
  }

  /** Requests sent, milliseconds waited and 429s retried so far (a copy). */
  get counters(): PacingCounters {
    return this.pacer.stats();
  }

  /** Closes the kept-alive connections. */
  close(): void {
    this.transport.close();
  }
}

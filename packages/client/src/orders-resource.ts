import type { Caller, CreateOptions } from './api-caller.js';
import { type IterateQuery, offsetPages } from './pages.js';
import type { CountResult, Order, OrderCountQuery, OrderGetQuery, OrderInput, OrderListQuery, Quote, QuoteInput } from './types.js';

/** `/v1/orders`: placed and read, never changed. */
export class OrdersResource {
  constructor(private readonly api: Caller) {}

  list(query: OrderListQuery = {}): Promise<Order[]> {
    return this.api.call('orders.list', { query });
  }
  iterate(query: IterateQuery<OrderListQuery> = {}): AsyncGenerator<Order, void, undefined> {
    return offsetPages((page) => this.list({ ...query, ...page }));
  }
  async count(query: OrderCountQuery = {}): Promise<number> {
    return (await this.api.call<CountResult>('orders.count', { query })).count;
  }
  get(id: number, query: OrderGetQuery = {}): Promise<Order> {
    return this.api.call('orders.get', { params: { id }, query });
  }
  /** Each line priced at the customer's effective price when the order is placed. */
  create(order: OrderInput, options: CreateOptions = {}): Promise<Order> {
    return this.api.call('orders.create', { body: order, ...options });
  }
}

/** `POST /v1/quotes`: a cart priced by the rule orders use; nothing is stored. */
export class QuotesResource {
  constructor(private readonly api: Caller) {}

  create(quote: QuoteInput): Promise<Quote> {
    return this.api.call('quotes.create', { body: quote });
  }
}

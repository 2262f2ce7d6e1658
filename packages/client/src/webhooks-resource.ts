import type { Caller, CreateOptions } from './api-caller.js';
import { PAGE_SIZE, type IterateQuery, offsetPages } from './pages.js';
import type {
  CountResult,
  CreatedWebhook,
  Event,
  EventFeedQuery,
  FieldsOptions,
  Webhook,
  WebhookDelivery,
  WebhookDeliveryListQuery,
  WebhookInput,
  WebhookListQuery,
  WebhookUpdate,
} from './types.js';

type WebhookCountQuery = Pick<WebhookListQuery, 'topic'>;

/** `/v1/webhooks`. The signing `secret` is in `create`'s answer only. */
export class WebhooksResource {
  constructor(private readonly api: Caller) {}

  list(query: WebhookListQuery = {}): Promise<Webhook[]> {
    return this.api.call('webhooks.list', { query });
  }
  iterate(query: IterateQuery<WebhookListQuery> = {}): AsyncGenerator<Webhook, void, undefined> {
    return offsetPages((page) => this.list({ ...query, ...page }));
  }
  async count(query: WebhookCountQuery = {}): Promise<number> {
    return (await this.api.call<CountResult>('webhooks.count', { query })).count;
  }
  get(id: number, query: FieldsOptions = {}): Promise<Webhook> {
    return this.api.call('webhooks.get', { params: { id }, query });
  }
  /** The webhook's deliveries, newest event first (`count` 1–100, default 20; `offset`): status, attempts, last answer, next try. */
  deliveries(id: number, query: WebhookDeliveryListQuery = {}): Promise<WebhookDelivery[]> {
    return this.api.call('webhooks.deliveries', { params: { id }, query });
  }
  /** Answers once the receiver was asked to verify (`verified` says whether it did). */
  create(webhook: WebhookInput, options: CreateOptions = {}): Promise<CreatedWebhook> {
    return this.api.call('webhooks.create', { body: webhook, ...options });
  }
  update(id: number, changes: WebhookUpdate): Promise<Webhook> {
    return this.api.call('webhooks.update', { params: { id }, body: changes });
  }
  async delete(id: number): Promise<void> {
    await this.api.call('webhooks.delete', { params: { id } });
  }
  /** Runs the verification handshake again. */
  verify(id: number): Promise<Webhook> {
    return this.api.call('webhooks.verify', { params: { id }, body: {} });
  }
}

/** `GET /v1/events`: the feed, ascending by id, for integrators who poll. */
export class EventsResource {
  constructor(private readonly api: Caller) {}

  list(query: EventFeedQuery = {}): Promise<Event[]> {
    return this.api.call('events.list', { query });
  }
  /**
   * Every event after `after` (default 0) there is now, page by page (`after` = the last id
   * seen). With `fields`, keep `id` among them.
   */
  async *iterate(query: IterateQuery<EventFeedQuery> = {}): AsyncGenerator<Event, void, undefined> {
    for (let after = query.after ?? 0; ;) {
      const page = await this.list({ ...query, after, count: PAGE_SIZE });
      yield* page;
      if (page.length < PAGE_SIZE) return;
      after = page[page.length - 1]!.id;
    }
  }
}

import type { EventTopic } from '../../contract/events.js';
import type { Webhook, WebhookDelivery } from '../../contract/webhooks.js';
import type { Page } from '../shared/page.js';

/** A webhook with the secret its deliveries are signed with. */
export type StoredWebhook = Webhook & { secret: string };

export interface WebhookFilter {
  topic?: EventTopic;
  /** Only webhooks of these topics (none: no webhook). */
  topics?: readonly EventTopic[];
}

export interface NewWebhook {
  topic: EventTopic;
  url: string;
  secret: string;
  verified: boolean;
}

export interface WebhookPatch {
  topic?: EventTopic;
  url?: string;
  /** true also clears the failure count (re-activation). */
  active?: boolean;
  verified?: boolean;
}

export interface WebhookRepository {
  list(storeId: number, filter: WebhookFilter, page: Page): Promise<Webhook[]>;
  count(storeId: number, filter: WebhookFilter): Promise<number>;
  find(storeId: number, id: number): Promise<StoredWebhook | undefined>;
  /** Serializes webhook creation in one store until the transaction ends (the per-topic limit). */
  lockStore(storeId: number): Promise<void>;
  insert(storeId: number, fields: NewWebhook, createdAt: string): Promise<StoredWebhook>;
  update(storeId: number, id: number, patch: WebhookPatch): Promise<StoredWebhook | undefined>;
  /** The webhook's deliveries, newest event first (along its index by webhook and event). */
  deliveries(storeId: number, webhookId: number, page: Page): Promise<WebhookDelivery[]>;
  /** Ends the webhook's pending deliveries as failed, with `reason`; `now` in milliseconds. */
  cancelPendingDeliveries(webhookId: number, reason: string, now: number): Promise<void>;
  /** Deletes the webhook with its deliveries; its topic, or undefined when the store has no such webhook. */
  delete(storeId: number, id: number): Promise<EventTopic | undefined>;
}

import type { EventTopic } from '../../contract/events.js';
import {
  type CreatedWebhook,
  MAX_WEBHOOKS_PER_TOPIC,
  type Webhook,
  type WebhookDelivery,
  type WebhookInput,
  type WebhookUpdate,
} from '../../contract/webhooks.js';
import { type Clock, isoTimestamp } from '../shared/clock.js';
import { assertTopicReadable, readableTopics } from '../events/topic-scopes.js';
import { found, invalidField, notFound } from '../shared/errors.js';
import type { Page } from '../shared/page.js';
import type { Scope } from '../stores/scopes.js';
import type { Repositories, UnitOfWork } from '../shared/unit-of-work.js';
import type { ReceiverHandshake, ReceiverPolicy } from './receivers.js';
import type { StoredWebhook, WebhookFilter } from './webhook-repository.js';
import { newWebhookSecret } from './webhook-secret.js';

/** The scopes of the credential asking. */
type Scopes = ReadonlySet<Scope>;

/** A webhook checked and verified, ready to be stored. */
export interface PreparedWebhook {
  topic: EventTopic;
  url: string;
  secret: string;
  verified: boolean;
}

/**
 * Webhook subscriptions. The verification handshake is an HTTP request of up to 5 s, so it
 * always runs before the transaction that records its outcome, never inside one.
 */
export class WebhookService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly receivers: ReceiverPolicy,
    private readonly handshake: ReceiverHandshake,
  ) {}

  /**
   * The webhooks of the topics `scopes` may read (a webhook delivers its topic's records, so
   * seeing or managing it is a read of them); a `topic` filter naming another topic is a 403.
   */
  list(storeId: number, scopes: Scopes, filter: WebhookFilter, page: Page): Promise<Webhook[]> {
    return this.uow.repos.webhooks.list(storeId, readableFilter(scopes, filter), page);
  }

  count(storeId: number, scopes: Scopes, filter: WebhookFilter): Promise<number> {
    return this.uow.repos.webhooks.count(storeId, readableFilter(scopes, filter));
  }

  /** 404 when the store has no such webhook, 403 when `scopes` may not read its topic. */
  async get(storeId: number, scopes: Scopes, id: number): Promise<Webhook> {
    return withoutSecret(await mustFindReadable(this.uow.repos, storeId, scopes, id));
  }

  /** The webhook's deliveries, newest event first: its own, so the credential must read its topic, as for `get`. */
  async deliveries(storeId: number, scopes: Scopes, id: number, page: Page): Promise<WebhookDelivery[]> {
    await mustFindReadable(this.uow.repos, storeId, scopes, id);
    return this.uow.repos.webhooks.deliveries(storeId, id, page);
  }

  /**
   * The first half of a create, outside any transaction: checks the topic's room and the URL,
   * makes the secret and runs the handshake with it.
   */
  async prepare(storeId: number, input: WebhookInput): Promise<PreparedWebhook> {
    await mustHaveRoom(this.uow.repos, storeId, input.topic);
    await this.mustBeAllowed(input.url);
    const secret = newWebhookSecret();
    const verified = await this.handshake.verify(input.url, secret);
    return { topic: input.topic, url: input.url, secret, verified };
  }

  /** Stores a prepared webhook; the creation response alone shows its secret. */
  create(storeId: number, prepared: PreparedWebhook): Promise<CreatedWebhook> {
    return this.uow.transaction(async (repos) => {
      await repos.webhooks.lockStore(storeId);
      await mustHaveRoom(repos, storeId, prepared.topic);
      const stored = await repos.webhooks.insert(storeId, prepared, isoTimestamp(this.clock));
      return { ...withoutSecret(stored), secret: stored.secret };
    });
  }

  /**
   * Changes the fields sent. A new URL is checked and verified before it is stored (the
   * outcome sets `verified`); `active: true` re-activates and clears the failure count. A
   * webhook left inactive or unverified loses its pending deliveries: the feed still has them.
   *
   * `scopes` must read the webhook's topic, and the new topic if one is sent (403 otherwise,
   * before any handshake): whoever may point a webhook somewhere receives its topic's records.
   * The row as updated is checked again before the transaction commits, so a topic changed by
   * another request during the handshake cannot slip through.
   */
  async update(storeId: number, scopes: Scopes, id: number, patch: WebhookUpdate): Promise<Webhook> {
    if (patch.topic !== undefined) assertTopicReadable(scopes, patch.topic);
    const current = await mustFindReadable(this.uow.repos, storeId, scopes, id);
    const topicChanged = patch.topic !== undefined && patch.topic !== current.topic;
    if (topicChanged) await mustHaveRoom(this.uow.repos, storeId, patch.topic!);
    let verified: boolean | undefined;
    if (patch.url !== undefined && patch.url !== current.url) {
      await this.mustBeAllowed(patch.url);
      verified = await this.handshake.verify(patch.url, current.secret);
    }
    return this.uow.transaction(async (repos) => {
      if (topicChanged) {
        await repos.webhooks.lockStore(storeId);
        await mustHaveRoom(repos, storeId, patch.topic!);
      }
      const updated = found(await repos.webhooks.update(storeId, id, { ...patch, ...(verified !== undefined && { verified }) }), `Webhook ${id}`);
      assertTopicReadable(scopes, updated.topic);
      await this.dropPendingIfUndeliverable(repos, updated);
      return withoutSecret(updated);
    });
  }

  /** Runs the handshake again; `verified` becomes its outcome. `scopes` must read the topic. */
  async verify(storeId: number, scopes: Scopes, id: number): Promise<Webhook> {
    const current = await mustFindReadable(this.uow.repos, storeId, scopes, id);
    await this.mustBeAllowed(current.url);
    const verified = await this.handshake.verify(current.url, current.secret);
    return this.uow.transaction(async (repos) => {
      const updated = found(await repos.webhooks.update(storeId, id, { verified }), `Webhook ${id}`);
      assertTopicReadable(scopes, updated.topic);
      await this.dropPendingIfUndeliverable(repos, updated);
      return withoutSecret(updated);
    });
  }

  /**
   * Deletes the webhook; `scopes` must read its topic (a delete silences its records'
   * deliveries). The topic checked is the deleted row's: a 403 rolls the delete back.
   */
  remove(storeId: number, scopes: Scopes, id: number): Promise<void> {
    return this.uow.transaction(async (repos) => {
      const topic = await repos.webhooks.delete(storeId, id);
      if (topic === undefined) throw notFound(`Webhook ${id}`);
      assertTopicReadable(scopes, topic);
      // Its creation answer carries the signing secret: a replay of that key must not show it again.
      await repos.idempotency.forgetRecord(storeId, { path: '/v1/webhooks', id });
    });
  }

  private async mustBeAllowed(url: string): Promise<void> {
    const refusal = await this.receivers.refusal(url);
    if (refusal !== undefined) throw invalidField('url', refusal);
  }

  private async dropPendingIfUndeliverable(repos: Repositories, webhook: StoredWebhook): Promise<void> {
    if (webhook.active && webhook.verified) return;
    await repos.webhooks.cancelPendingDeliveries(webhook.id, webhook.active ? 'webhook is not verified' : 'webhook is inactive', this.clock.now());
  }
}

/** The webhook (404 when the store has none of that id), if `scopes` may read its topic (403). */
async function mustFindReadable(repos: Repositories, storeId: number, scopes: Scopes, id: number): Promise<StoredWebhook> {
  const webhook = found(await repos.webhooks.find(storeId, id), `Webhook ${id}`);
  assertTopicReadable(scopes, webhook.topic);
  return webhook;
}

/** `filter` narrowed to the topics `scopes` may read; a `topic` it may not read is a 403. */
function readableFilter(scopes: Scopes, filter: WebhookFilter): WebhookFilter {
  if (filter.topic !== undefined) {
    assertTopicReadable(scopes, filter.topic);
    return filter;
  }
  return { ...filter, topics: readableTopics(scopes) };
}

async function mustHaveRoom(repos: Repositories, storeId: number, topic: EventTopic): Promise<void> {
  if ((await repos.webhooks.count(storeId, { topic })) >= MAX_WEBHOOKS_PER_TOPIC) {
    throw invalidField('topic', `This store has ${MAX_WEBHOOKS_PER_TOPIC} webhooks for '${topic}' already, the most allowed; delete one first`);
  }
}

function withoutSecret(webhook: StoredWebhook): Webhook {
  return { id: webhook.id, topic: webhook.topic, url: webhook.url, active: webhook.active, verified: webhook.verified, createdAt: webhook.createdAt };
}

import type { EventTopic } from '../../contract/events.js';
import { type CreatedWebhook, MAX_WEBHOOKS_PER_TOPIC, type Webhook, type WebhookInput, type WebhookUpdate } from '../../contract/webhooks.js';
import { type Clock, isoTimestamp } from '../clock.js';
import { found, invalidField, notFound } from '../errors.js';
import type { Page } from '../page.js';
import type { Repositories, UnitOfWork } from '../unit-of-work.js';
import type { ReceiverHandshake, ReceiverPolicy } from './receivers.js';
import type { StoredWebhook, WebhookFilter } from './webhook-repository.js';
import { newWebhookSecret } from './webhook-secret.js';

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

  list(storeId: number, filter: WebhookFilter, page: Page): Promise<Webhook[]> {
    return this.uow.repos.webhooks.list(storeId, filter, page);
  }

  count(storeId: number, filter: WebhookFilter): Promise<number> {
    return this.uow.repos.webhooks.count(storeId, filter);
  }

  async get(storeId: number, id: number): Promise<Webhook> {
    return withoutSecret(await mustFind(this.uow.repos, storeId, id));
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
   */
  async update(storeId: number, id: number, patch: WebhookUpdate): Promise<Webhook> {
    const current = await mustFind(this.uow.repos, storeId, id);
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
      await this.dropPendingIfUndeliverable(repos, updated);
      return withoutSecret(updated);
    });
  }

  /** Runs the handshake again; `verified` becomes its outcome. */
  async verify(storeId: number, id: number): Promise<Webhook> {
    const current = await mustFind(this.uow.repos, storeId, id);
    await this.mustBeAllowed(current.url);
    const verified = await this.handshake.verify(current.url, current.secret);
    return this.uow.transaction(async (repos) => {
      const updated = found(await repos.webhooks.update(storeId, id, { verified }), `Webhook ${id}`);
      await this.dropPendingIfUndeliverable(repos, updated);
      return withoutSecret(updated);
    });
  }

  remove(storeId: number, id: number): Promise<void> {
    return this.uow.transaction(async (repos) => {
      if (!(await repos.webhooks.delete(storeId, id))) throw notFound(`Webhook ${id}`);
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

async function mustFind(repos: Repositories, storeId: number, id: number): Promise<StoredWebhook> {
  return found(await repos.webhooks.find(storeId, id), `Webhook ${id}`);
}

async function mustHaveRoom(repos: Repositories, storeId: number, topic: EventTopic): Promise<void> {
  if ((await repos.webhooks.count(storeId, { topic })) >= MAX_WEBHOOKS_PER_TOPIC) {
    throw invalidField('topic', `This store has ${MAX_WEBHOOKS_PER_TOPIC} webhooks for '${topic}' already, the most allowed; delete one first`);
  }
}

function withoutSecret(webhook: StoredWebhook): Webhook {
  return { id: webhook.id, topic: webhook.topic, url: webhook.url, active: webhook.active, verified: webhook.verified, createdAt: webhook.createdAt };
}

import { Type } from '@sinclair/typebox';
import { FieldsOnlyQuery, IdParams } from '../../contract/common.js';
import {
  CreatedWebhook,
  Webhook,
  WebhookCountQuery,
  WebhookDelivery,
  WebhookDeliveryListQuery,
  WebhookInput,
  WebhookListQuery,
  WebhookUpdate,
  WebhookVerifyRequest,
} from '../../contract/webhooks.js';
import { assertTopicReadable } from '../../modules/events/topic-scopes.js';
import type { WebhookService } from '../../modules/webhooks/webhook-service.js';
import { type App, pageOf, principalOf } from '../plugins/app-types.js';
import { deleteErrors, readErrors, writeErrors } from './docs.js';
import { countOptions, createOptions, deleteOptions, getOptions, itemPath, listOptions, type Resource, updateOptions } from './resource-routes.js';

const WEBHOOKS: Resource = { path: '/v1/webhooks', tag: 'webhooks', one: 'a webhook', many: 'webhooks' };

/** What most operations add: a webhook is seen and changed only by a credential that reads its topic. */
const READS_TOPIC = 'The credential must read the webhook’s topic: otherwise 403.';

/** `/v1/webhooks`: every operation of the resource, in one file. */
export function registerWebhookRoutes(app: App, webhooks: WebhookService): void {
  app.get(
    WEBHOOKS.path,
    listOptions(WEBHOOKS, {
      scope: 'webhooks',
      summary: 'List webhooks (never their secrets)',
      description: 'Only webhooks of the topics the credential may read; `topic=` naming another topic is a 403.',
      querystring: WebhookListQuery,
      record: Webhook,
    }),
    async (request) => {
      const { storeId, scopes } = principalOf(request);
      return webhooks.list(storeId, scopes, { topic: request.query.topic }, pageOf(request.query));
    },
  );

  app.get(
    `${WEBHOOKS.path}/count`,
    countOptions(WEBHOOKS, { scope: 'webhooks', description: 'Of the topics the credential may read, as the list.', querystring: WebhookCountQuery }),
    async (request) => {
      const { storeId, scopes } = principalOf(request);
      return { count: await webhooks.count(storeId, scopes, { topic: request.query.topic }) };
    },
  );

  app.get(
    itemPath(WEBHOOKS),
    getOptions(WEBHOOKS, {
      scope: 'webhooks',
      summary: 'Get a webhook (never its secret)',
      description: READS_TOPIC,
      querystring: FieldsOnlyQuery,
      record: Webhook,
    }),
    async (request) => {
      const { storeId, scopes } = principalOf(request);
      return webhooks.get(storeId, scopes, request.params.id);
    },
  );

  app.get(
    `${itemPath(WEBHOOKS)}/deliveries`,
    {
      schema: {
        operationId: 'webhooks.deliveries',
        tags: [WEBHOOKS.tag],
        summary: 'A webhook’s deliveries, newest event first',
        description:
          'Each event the webhook was to receive: its status (pending, delivered, failed), the attempts made, the last answer’s HTTP status or error, ' +
          `and when it is tried next. Kept as long as its event (docs/webhooks.md). ${READS_TOPIC}`,
        params: IdParams,
        querystring: WebhookDeliveryListQuery,
        response: { 200: Type.Array(WebhookDelivery), ...readErrors },
      },
      config: { scope: 'webhooks' },
    },
    async (request) => {
      const { storeId, scopes } = principalOf(request);
      return webhooks.deliveries(storeId, scopes, request.params.id, { count: request.query.count ?? 20, offset: request.query.offset ?? 0 });
    },
  );

  app.post(
    WEBHOOKS.path,
    createOptions(WEBHOOKS, {
      scope: 'webhooks',
      priceChange: 'never',
      summary: 'Subscribe a receiver to a topic',
      description:
        'Runs the verification handshake before answering (the receiver has 5 s): `verified` tells whether it echoed the token. The answer alone carries the signing `secret`. At most 10 webhooks per topic. ' +
        'The credential must also read the topic’s records (`catalog:read`, `trade_prices:read` or `orders:read`): otherwise 403.',
      body: WebhookInput,
      record: CreatedWebhook,
    }),
    async (request, reply) => {
      const { storeId, scopes } = principalOf(request);
      assertTopicReadable(scopes, request.body.topic);
      // The handshake runs before the transaction (and not at all for an idempotent replay).
      return reply.sendCreated(
        (prepared) => webhooks.create(storeId, prepared),
        () => webhooks.prepare(storeId, request.body),
      );
    },
  );

  app.put(
    itemPath(WEBHOOKS),
    updateOptions(WEBHOOKS, {
      scope: 'webhooks',
      priceChange: 'never',
      summary: 'Change the topic, URL or active state of a webhook',
      description:
        'A new URL is verified again before the answer. `active: true` re-activates a disabled webhook and clears its failure count. ' +
        'The credential must read the webhook’s topic, and the new topic if one is sent (as on create): otherwise 403, before any handshake.',
      body: WebhookUpdate,
      record: Webhook,
    }),
    async (request) => {
      const { storeId, scopes } = principalOf(request);
      return webhooks.update(storeId, scopes, request.params.id, request.body);
    },
  );

  app.delete(
    itemPath(WEBHOOKS),
    deleteOptions(WEBHOOKS, {
      scope: 'webhooks',
      priceChange: 'never',
      summary: 'Delete a webhook and its pending deliveries',
      description: READS_TOPIC,
      errors: deleteErrors,
    }),
    async (request, reply) => {
      const { storeId, scopes } = principalOf(request);
      await webhooks.remove(storeId, scopes, request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    `${itemPath(WEBHOOKS)}/verify`,
    {
      schema: {
        operationId: 'webhooks.verify',
        tags: [WEBHOOKS.tag],
        summary: 'Run the verification handshake again',
        description: `Body \`{}\`. Answers 200 with the webhook once the receiver answered (5 s at most); \`verified\` is the outcome. ${READS_TOPIC}`,
        params: IdParams,
        body: WebhookVerifyRequest,
        response: { 200: Webhook, ...writeErrors },
      },
      config: { scope: 'webhooks', priceChange: 'never' },
    },
    async (request) => {
      const { storeId, scopes } = principalOf(request);
      return webhooks.verify(storeId, scopes, request.params.id);
    },
  );
}

import { CreatedWebhook, WebhookInput } from '../../../contract/webhooks.js';
import type { WebhookService } from '../../../modules/webhooks/webhook-service.js';
import { assertTopicReadable } from '../../../modules/events/topic-scopes.js';
import { type App, principalOf } from '../../plugins/app-types.js';
import { createErrors } from '../docs.js';

export function createWebhook(app: App, webhooks: WebhookService): void {
  app.post(
    '/v1/webhooks',
    {
      schema: {
        operationId: 'webhooks.create',
        tags: ['webhooks'],
        summary: 'Subscribe a receiver to a topic',
        description:
          'Runs the verification handshake before answering (the receiver has 5 s): `verified` tells whether it echoed the token. The answer alone carries the signing `secret`. At most 10 webhooks per topic. ' +
          'The credential must also read the topic’s records (`catalog:read`, `trade_prices:read` or `orders:read`): otherwise 403.',
        body: WebhookInput,
        response: { 201: CreatedWebhook, ...createErrors },
      },
      config: { scope: 'webhooks', priceChange: 'never' },
    },
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
}

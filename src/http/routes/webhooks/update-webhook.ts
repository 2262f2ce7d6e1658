import { IdParams } from '../../../contract/common.js';
import { Webhook, WebhookUpdate } from '../../../contract/webhooks.js';
import type { WebhookService } from '../../../modules/webhooks/webhook-service.js';
import { type App, principalOf } from '../../plugins/app-types.js';
import { writeErrors } from '../docs.js';

export function updateWebhook(app: App, webhooks: WebhookService): void {
  app.put(
    '/v1/webhooks/:id',
    {
      schema: {
        operationId: 'webhooks.update',
        tags: ['webhooks'],
        summary: 'Change the topic, URL or active state of a webhook',
        description:
          'A new URL is verified again before the answer. `active: true` re-activates a disabled webhook and clears its failure count. ' +
          'The credential must read the webhook’s topic, and the new topic if one is sent (as on create): otherwise 403, before any handshake.',
        params: IdParams,
        body: WebhookUpdate,
        response: { 200: Webhook, ...writeErrors },
      },
      config: { scope: 'webhooks', priceChange: 'never' },
    },
    async (request) => {
      const { storeId, scopes } = principalOf(request);
      return webhooks.update(storeId, scopes, request.params.id, request.body);
    },
  );
}

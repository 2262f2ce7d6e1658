import { IdParams } from '../../../contract/common.js';
import { Webhook, WebhookVerifyRequest } from '../../../contract/webhooks.js';
import type { WebhookService } from '../../../modules/webhooks/webhook-service.js';
import { type App, principalOf } from '../../plugins/app-types.js';
import { writeErrors } from '../docs.js';

export function verifyWebhook(app: App, webhooks: WebhookService): void {
  app.post(
    '/v1/webhooks/:id/verify',
    {
      schema: {
        operationId: 'webhooks.verify',
        tags: ['webhooks'],
        summary: 'Run the verification handshake again',
        description:
          'Body `{}`. Answers 200 with the webhook once the receiver answered (5 s at most); `verified` is the outcome. The credential must read the webhook’s topic: otherwise 403.',
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

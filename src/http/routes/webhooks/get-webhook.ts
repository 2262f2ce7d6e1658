import { FieldsOnlyQuery, IdParams } from '../../../contract/common.js';
import { Webhook } from '../../../contract/webhooks.js';
import type { WebhookService } from '../../../modules/webhooks/webhook-service.js';
import { type App, principalOf } from '../../plugins/app-types.js';
import { readErrors } from '../docs.js';

export function getWebhook(app: App, webhooks: WebhookService): void {
  app.get(
    '/v1/webhooks/:id',
    {
      schema: {
        operationId: 'webhooks.get',
        tags: ['webhooks'],
        summary: 'Get a webhook (never its secret)',
        description: 'The credential must read the webhook’s topic: otherwise 403.',
        params: IdParams,
        querystring: FieldsOnlyQuery,
        response: { 200: Webhook, ...readErrors },
      },
      config: { scope: 'webhooks' },
    },
    async (request) => {
      const { storeId, scopes } = principalOf(request);
      return webhooks.get(storeId, scopes, request.params.id);
    },
  );
}

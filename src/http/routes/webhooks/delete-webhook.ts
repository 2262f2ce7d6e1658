import { IdParams } from '../../../contract/common.js';
import type { WebhookService } from '../../../modules/webhooks/webhook-service.js';
import { type App, principalOf } from '../../plugins/app-types.js';
import { NoContent, readErrors } from '../docs.js';

export function deleteWebhook(app: App, webhooks: WebhookService): void {
  app.delete(
    '/v1/webhooks/:id',
    {
      schema: {
        operationId: 'webhooks.delete',
        tags: ['webhooks'],
        summary: 'Delete a webhook and its pending deliveries',
        description: 'The credential must read the webhook’s topic: otherwise 403.',
        params: IdParams,
        response: { 204: NoContent, ...readErrors },
      },
      config: { scope: 'webhooks', priceChange: 'never' },
    },
    async (request, reply) => {
      const { storeId, scopes } = principalOf(request);
      await webhooks.remove(storeId, scopes, request.params.id);
      return reply.code(204).send(null);
    },
  );
}

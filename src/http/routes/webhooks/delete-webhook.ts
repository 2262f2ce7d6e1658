import { IdParams } from '../../../contract/common.js';
import type { WebhookService } from '../../../modules/webhooks/webhook-service.js';
import { type App, storeIdOf } from '../../app-types.js';
import { NoContent, readErrors } from '../docs.js';

export function deleteWebhook(app: App, webhooks: WebhookService): void {
  app.delete(
    '/v1/webhooks/:id',
    {
      schema: { tags: ['webhooks'], summary: 'Delete a webhook and its pending deliveries', params: IdParams, response: { 204: NoContent, ...readErrors } },
      config: { scope: 'webhooks' },
    },
    async (request, reply) => {
      await webhooks.remove(storeIdOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
}

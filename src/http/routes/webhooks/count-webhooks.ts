import { CountResponse } from '../../../contract/common.js';
import { WebhookCountQuery } from '../../../contract/webhooks.js';
import type { WebhookService } from '../../../modules/webhooks/webhook-service.js';
import { type App, principalOf } from '../../plugins/app-types.js';
import { readErrors } from '../docs.js';

export function countWebhooks(app: App, webhooks: WebhookService): void {
  app.get(
    '/v1/webhooks/count',
    {
      schema: {
        operationId: 'webhooks.count',
        tags: ['webhooks'],
        summary: 'Count webhooks',
        description: 'Of the topics the credential may read, as the list.',
        querystring: WebhookCountQuery,
        response: { 200: CountResponse, ...readErrors },
      },
      config: { scope: 'webhooks' },
    },
    async (request) => {
      const { storeId, scopes } = principalOf(request);
      return { count: await webhooks.count(storeId, scopes, { topic: request.query.topic }) };
    },
  );
}

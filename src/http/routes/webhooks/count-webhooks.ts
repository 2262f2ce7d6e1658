import { CountResponse } from '../../../contract/common.js';
import { WebhookCountQuery } from '../../../contract/webhooks.js';
import type { WebhookService } from '../../../modules/webhooks/webhook-service.js';
import { type App, storeIdOf } from '../../app-types.js';
import { readErrors } from '../docs.js';

export function countWebhooks(app: App, webhooks: WebhookService): void {
  app.get(
    '/v1/webhooks/count',
    {
      schema: { tags: ['webhooks'], summary: 'Count webhooks', querystring: WebhookCountQuery, response: { 200: CountResponse, ...readErrors } },
      config: { scope: 'webhooks' },
    },
    async (request) => ({ count: await webhooks.count(storeIdOf(request), { topic: request.query.topic }) }),
  );
}
